/*
 * rbb.c - the remote_bitbang client link (spec/openocd.md 1.1, 1.2).
 *
 * One TCK is "0+v" (TCK low with TMS/TDI), 'R' when TDO is wanted, then
 * "4+v" (TCK high: the rising edge); TDO is sampled while TCK is low, as
 * OpenOCD's bitbang driver does, so the server answers for bit i the
 * shift register's bit 0 after i shifts.  A flush ends with one more
 * TCK-low character so the last falling edge happens too.
 *
 * The whole queue goes out together and the answers are read back in the
 * same loop: the socket is non-blocking and poll() serves both directions,
 * so a queue longer than the socket buffers cannot deadlock against a
 * server that answers while it reads.
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "clock.h"
#include "errmsg.h"
#include "grow.h"
#include "link/jtag.h"
#include "link/rbb.h"

struct tdo_slot {
    uint8_t *buf;
    unsigned bit;
};

struct rbb {
    int fd;
    char endpoint[160];
    char *out;                /* characters queued */
    size_t outlen, outcap;
    struct tdo_slot *slot;    /* where each 'R' answer goes */
    size_t nslot, slotcap;
    uint64_t cycles;          /* TCKs queued */
    char last;                /* last TMS/TDI value queued, '0'..'3' offset */
    bool lost;
    char lostmsg[200];
};

static int fail(struct pp_link *l, int rc, const char *fmt, const char *detail)
{
    struct rbb *r = l->priv;

    snprintf(r->lostmsg, sizeof(r->lostmsg), fmt, r->endpoint, detail);
    snprintf(l->errmsg, sizeof(l->errmsg), "%s", r->lostmsg);
    r->lost = true;
    r->outlen = r->nslot = 0;
    r->cycles = 0;
    if (r->fd >= 0) {
        close(r->fd);
        r->fd = -1;
    }
    return rc;
}

static int dead(struct pp_link *l)
{
    struct rbb *r = l->priv;

    snprintf(l->errmsg, sizeof(l->errmsg), "%s", r->lostmsg);
    return PP_E_LINK;
}

/* Room for n more cycles (3 characters each) and k more answers. */
static int reserve(struct pp_link *l, unsigned n, unsigned k)
{
    struct rbb *r = l->priv;
    char *out = pp_grow(r->out, &r->outcap, r->outlen + 3u * n + 2u, 1, 1024);
    void *slot = NULL;

    if (out) {
        r->out = out;
        slot = pp_grow(r->slot, &r->slotcap, r->nslot + k, sizeof(*r->slot), 1024);
    }
    if (!slot) {
        snprintf(l->errmsg, sizeof(l->errmsg), "rbb:%s: out of memory", r->endpoint);
        return PP_E_NOMEM;
    }
    r->slot = slot;
    return PP_OK;
}

static void put_cycle(struct rbb *r, bool tms, bool tdi, uint8_t *tdo, unsigned bit)
{
    char v = (char)((tms ? 2 : 0) | (tdi ? 1 : 0));

    r->out[r->outlen++] = (char)('0' + v);
    if (tdo) {
        r->out[r->outlen++] = 'R';
        r->slot[r->nslot++] = (struct tdo_slot){ tdo, bit };
    }
    r->out[r->outlen++] = (char)('4' + v);
    r->last = v;
    r->cycles++;
}

static int rbb_tms(struct pp_link *l, const uint8_t *tms, unsigned n, bool tdi)
{
    struct rbb *r = l->priv;
    int rc;

    if (r->lost)
        return dead(l);
    if ((rc = reserve(l, n, 0)) != PP_OK)
        return rc;
    for (unsigned i = 0; i < n; i++)
        put_cycle(r, pp_bit_get(tms, i), tdi, NULL, 0);
    return PP_OK;
}

static int rbb_shift(struct pp_link *l, const uint8_t *tdi, uint8_t *tdo, unsigned n,
                     bool last_tms)
{
    struct rbb *r = l->priv;
    int rc;

    if (r->lost)
        return dead(l);
    if ((rc = reserve(l, n, tdo ? n : 0)) != PP_OK)
        return rc;
    for (unsigned i = 0; i < n; i++)
        put_cycle(r, last_tms && i == n - 1, tdi && pp_bit_get(tdi, i), tdo, i);
    return PP_OK;
}

/* Stores answers; anything but '0'/'1' is a protocol error (spec 1.1). */
static int take_answers(struct pp_link *l, const char *buf, size_t n, size_t *got)
{
    struct rbb *r = l->priv;

    for (size_t i = 0; i < n; i++) {
        char c[8];

        if ((buf[i] != '0' && buf[i] != '1') || *got >= r->nslot) {
            snprintf(c, sizeof(c), "0x%02x", (unsigned char)buf[i]);
            return fail(l, PP_E_PROTO, "rbb:%s: the server sent %s where a TDO answer "
                        "('0' or '1') was due, or more answers than asked", c);
        }
        pp_bit_put(r->slot[*got].buf, r->slot[*got].bit, buf[i] == '1');
        (*got)++;
    }
    return PP_OK;
}

static int pump_out(struct pp_link *l, size_t *sent)
{
    struct rbb *r = l->priv;
    ssize_t w = send(r->fd, r->out + *sent, r->outlen - *sent, MSG_NOSIGNAL);

    if (w < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR))
        return PP_OK;
    if (w < 0)
        return fail(l, PP_E_LINK, "rbb:%s: sending to the server failed: %s",
                    strerror(errno));
    *sent += (size_t)w;
    l->stats.bytes_out += (uint64_t)w;
    return PP_OK;
}

static int pump_in(struct pp_link *l, size_t *got)
{
    struct rbb *r = l->priv;
    char buf[4096];
    size_t want = r->nslot - *got;
    ssize_t n = recv(r->fd, buf, want < sizeof(buf) ? want : sizeof(buf), 0);

    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR))
        return PP_OK;
    if (n < 0)
        return fail(l, PP_E_LINK, "rbb:%s: reading from the server failed: %s",
                    strerror(errno));
    if (n == 0)
        return fail(l, PP_E_LINK, "rbb:%s: the server closed the connection%s", "");
    l->stats.bytes_in += (uint64_t)n;
    return take_answers(l, buf, (size_t)n, got);
}

/* Writes the queue and collects every answer: one round trip.  The
 * deadline is the exchange's, not each poll's, so a server that trickles
 * a byte every few seconds cannot keep a flush alive for ever; a long
 * queue gets a second more per MiB it sends. */
static int exchange(struct pp_link *l)
{
    struct rbb *r = l->priv;
    size_t sent = 0, got = 0;
    uint64_t deadline = pp_mono_ns() +
                        ((uint64_t)PP_RBB_TIMEOUT_MS + r->outlen / (1u << 20) * 1000u) * 1000000u;
    int rc = PP_OK;

    while (rc == PP_OK && (sent < r->outlen || got < r->nslot)) {
        struct pollfd p = { .fd = r->fd, .events = 0 };
        int left = pp_ms_until(deadline);
        int k;

        if (sent < r->outlen)
            p.events |= POLLOUT;
        if (got < r->nslot)
            p.events |= POLLIN;
        k = left ? poll(&p, 1, left) : 0;
        if (k < 0 && errno == EINTR)
            continue;
        if (k < 0)
            return fail(l, PP_E_LINK, "rbb:%s: poll failed: %s", strerror(errno));
        if (k == 0)
            return fail(l, PP_E_TIMEOUT, "rbb:%s: the server did not answer the whole "
                        "request within %s", "its deadline (5 s, +1 s per MiB sent)");
        if (p.revents & (POLLIN | POLLHUP | POLLERR))
            rc = got < r->nslot ? pump_in(l, &got)
                                : fail(l, PP_E_LINK, "rbb:%s: the server hung up%s", "");
        if (rc == PP_OK && (p.revents & POLLOUT))
            rc = pump_out(l, &sent);
    }
    return rc;
}

static int rbb_flush(struct pp_link *l)
{
    struct rbb *r = l->priv;
    int rc;

    if (r->lost)
        return dead(l);
    if (!r->outlen)
        return PP_OK;
    /* The last cycle's falling edge (OpenOCD's idle character too). */
    r->out[r->outlen++] = (char)('0' + r->last);
    rc = exchange(l);
    if (rc != PP_OK)
        return rc;
    l->stats.tck += r->cycles;
    l->stats.flushes++;
    if (r->nslot)
        l->stats.round_trips++;
    r->outlen = r->nslot = 0;
    r->cycles = 0;
    return PP_OK;
}

/* 'r' + (trst << 1 | srst), 1 = asserted (spec 1.1); after the queue. */
static int rbb_reset(struct pp_link *l, bool trst, bool srst)
{
    struct rbb *r = l->priv;
    int rc = rbb_flush(l);

    if (rc != PP_OK || (rc = reserve(l, 1, 0)) != PP_OK)
        return rc;
    r->out[0] = (char)('r' + ((trst ? 2 : 0) | (srst ? 1 : 0)));
    r->outlen = 1;
    rc = exchange(l);
    r->outlen = 0;
    return rc;
}

static void rbb_close(struct pp_link *l)
{
    struct rbb *r = l->priv;

    if (r->fd >= 0) {
        /* 'Q': the server may drop us cleanly (spec 1.1).  Best effort. */
        (void)send(r->fd, "Q", 1, MSG_NOSIGNAL);
        close(r->fd);
    }
    free(r->out);
    free(r->slot);
    free(r);
}

static const struct pp_link_ops rbb_ops = {
    .name = "rbb",
    .tms = rbb_tms,
    .shift = rbb_shift,
    .flush = rbb_flush,
    .reset = rbb_reset,
    .set_speed = NULL,        /* the server has no clock of its own */
    .close = rbb_close,
};

/* ---- connecting ----------------------------------------------------------- */

static int connect_unix(const char *path, const char *endpoint, char *err, size_t errlen)
{
    struct sockaddr_un sa = { .sun_family = AF_UNIX };
    int fd;

    if (!*path || strlen(path) >= sizeof(sa.sun_path)) {
        pp_errmsg(err, errlen, "rbb:%s: expected unix:PATH with a path of 1 to %zu bytes",
                  endpoint, sizeof(sa.sun_path) - 1);
        return PP_E_INVAL;
    }
    memcpy(sa.sun_path, path, strlen(path) + 1);
    fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0 || connect(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
        pp_errmsg(err, errlen, "cannot connect to rbb:%s: %s (is pmuprobe-sim or another "
                  "remote_bitbang server listening there?)", endpoint, strerror(errno));
        if (fd >= 0)
            close(fd);
        return PP_E_LINK;
    }
    return fd;
}

/* "HOST:PORT", "[V6ADDR]:PORT" -> host and port strings. */
static bool split_host_port(const char *ep, char *host, size_t hostlen, const char **port)
{
    const char *colon = strrchr(ep, ':');
    const char *h = ep;
    size_t n;

    if (!colon || colon == ep || !colon[1])
        return false;
    n = (size_t)(colon - ep);
    if (ep[0] == '[' && n >= 2 && ep[n - 1] == ']') {
        h = ep + 1;
        n -= 2;
    }
    if (n == 0 || n >= hostlen)
        return false;
    memcpy(host, h, n);
    host[n] = '\0';
    *port = colon + 1;
    for (const char *c = *port; *c; c++)
        if (*c < '0' || *c > '9')
            return false;
    return strtoul(*port, NULL, 10) <= 65535;
}

static int connect_tcp(const char *ep, char *err, size_t errlen)
{
    struct addrinfo hints = { .ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM };
    struct addrinfo *ai = NULL;
    char host[128];
    const char *port;
    int fd = -1, e, saved = 0;

    if (!split_host_port(ep, host, sizeof(host), &port)) {
        pp_errmsg(err, errlen, "rbb:%s: expected HOST:PORT (port 0-65535) or unix:PATH", ep);
        return PP_E_INVAL;
    }
    if ((e = getaddrinfo(host, port, &hints, &ai)) != 0) {
        pp_errmsg(err, errlen, "cannot connect to rbb:%s: %s", ep, gai_strerror(e));
        return PP_E_LINK;
    }
    for (struct addrinfo *a = ai; a && fd < 0; a = a->ai_next) {
        fd = socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC, a->ai_protocol);
        if (fd >= 0 && connect(fd, a->ai_addr, a->ai_addrlen) < 0) {
            saved = errno;
            close(fd);
            fd = -1;
        }
    }
    freeaddrinfo(ai);
    if (fd < 0) {
        pp_errmsg(err, errlen, "cannot connect to rbb:%s: %s (is pmuprobe-sim or another "
                  "remote_bitbang server listening there?)", ep, strerror(saved));
        return PP_E_LINK;
    }
    /* Every flush is a small write that waits for its answer: Nagle would
     * hold it back for a delayed ACK (OpenOCD sets this too, spec 1.3). */
    e = 1;
    (void)setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &e, sizeof(e));
    return fd;
}

int pp_link_rbb_open(const char *endpoint, struct pp_link **out, char *err, size_t errlen)
{
    struct pp_link *l;
    struct rbb *r;
    int fd;

    *out = NULL;
    if (!endpoint || !*endpoint) {
        pp_errmsg(err, errlen, "rbb: no endpoint (expected HOST:PORT or unix:PATH)");
        return PP_E_INVAL;
    }
    if (strlen(endpoint) >= sizeof(r->endpoint)) {
        pp_errmsg(err, errlen, "rbb: endpoint longer than %zu bytes", sizeof(r->endpoint) - 1);
        return PP_E_INVAL;
    }
    fd = strncmp(endpoint, "unix:", 5) == 0
        ? connect_unix(endpoint + 5, endpoint, err, errlen)
        : connect_tcp(endpoint, err, errlen);
    if (fd < 0)
        return fd;
    l = calloc(1, sizeof(*l));
    r = calloc(1, sizeof(*r));
    if (!l || !r) {
        free(l);
        free(r);
        close(fd);
        pp_errmsg(err, errlen, "rbb:%s: out of memory", endpoint);
        return PP_E_NOMEM;
    }
    (void)fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
    r->fd = fd;
    snprintf(r->endpoint, sizeof(r->endpoint), "%s", endpoint);
    l->ops = &rbb_ops;
    l->priv = r;
    *out = l;
    return PP_OK;
}
