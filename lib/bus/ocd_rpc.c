/*
 * ocd_rpc.c - TCL RPC client for OpenOCD (spec/openocd.md 3).
 *
 * Plain blocking-free socket code: connect and every read are bounded by
 * poll() deadlines, writes use MSG_NOSIGNAL so a dead OpenOCD shows up as
 * PP_E_LINK instead of killing the caller with SIGPIPE.  After anything
 * that leaves the byte stream in an unknown state (EOF, reset, timeout,
 * garbage) the connection is dropped: a late reply to an abandoned
 * request would otherwise be read as the answer to the next one.
 */
#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <fcntl.h>
#include <unistd.h>

#include "clock.h"
#include "errmsg.h"
#include "bus/ocd_rpc.h"
#include "bus/ocd_tcl.h"
#include "trace.h"

#define FRAME_END 0x1A

struct pp_ocd_rpc {
    char     host[256];
    unsigned port;
    char     peer[300];
    unsigned timeout_ms;
    int      fd;                 /* -1 when not connected */
    uint64_t round_trips;
    char    *in;                 /* bytes received, not yet consumed */
    size_t   inlen, incap;
    struct pp_trace *trace;      /* the bus's, NULL when off */
};

static void drop(struct pp_ocd_rpc *r)
{
    if (r->fd >= 0)
        close(r->fd);
    r->fd = -1;
    r->inlen = 0;
}

/* Non-blocking connect bounded by the deadline, then back to blocking
 * mode with TCP_NODELAY: requests are small and each waits for its
 * reply, so Nagle would only add latency. */
static int connect_one(const struct addrinfo *ai, uint64_t deadline, int *fd_out, int *why)
{
    int fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC, ai->ai_protocol);
    int one = 1, soerr = 0, flags;
    socklen_t sl = sizeof(soerr);
    struct pollfd pfd;

    if (fd < 0) {
        *why = errno;
        return PP_E_LINK;
    }
    flags = fcntl(fd, F_GETFL);
    fcntl(fd, F_SETFL, flags | O_NONBLOCK);
    if (connect(fd, ai->ai_addr, ai->ai_addrlen) < 0 && errno != EINPROGRESS) {
        *why = errno;
        close(fd);
        return PP_E_LINK;
    }
    pfd = (struct pollfd){ .fd = fd, .events = POLLOUT };
    if (poll(&pfd, 1, pp_ms_until(deadline)) != 1) {
        close(fd);
        return PP_E_TIMEOUT;
    }
    getsockopt(fd, SOL_SOCKET, SO_ERROR, &soerr, &sl);
    if (soerr) {
        *why = soerr;
        close(fd);
        return PP_E_LINK;
    }
    fcntl(fd, F_SETFL, flags);
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
    *fd_out = fd;
    return PP_OK;
}

static int open_socket(struct pp_ocd_rpc *r, char *err, size_t errlen)
{
    struct addrinfo hints = { .ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM };
    struct addrinfo *res, *ai;
    char port[16];
    uint64_t deadline = pp_deadline_ms(r->timeout_ms);
    int rc = PP_E_LINK, why = 0, gai;

    snprintf(port, sizeof(port), "%u", r->port);
    gai = getaddrinfo(r->host, port, &hints, &res);
    if (gai) {
        pp_errmsg(err, errlen, "cannot resolve OpenOCD host '%s': %s", r->host, gai_strerror(gai));
        return PP_E_LINK;
    }
    for (ai = res; ai; ai = ai->ai_next) {
        rc = connect_one(ai, deadline, &r->fd, &why);
        if (rc == PP_OK || rc == PP_E_TIMEOUT)
            break;
    }
    freeaddrinfo(res);
    if (rc == PP_E_TIMEOUT)
        pp_errmsg(err, errlen, "no answer from OpenOCD at %s within %u ms", r->peer, r->timeout_ms);
    else if (rc != PP_OK)
        pp_errmsg(err, errlen, "cannot connect to OpenOCD's TCL server at %s: %s (is OpenOCD "
            "running, with tcl_port %u?)", r->peer, strerror(why), r->port);
    return rc;
}

int pp_ocd_connect(const char *host, unsigned port, unsigned timeout_ms,
                   struct pp_ocd_rpc **out, char *err, size_t errlen)
{
    struct pp_ocd_rpc *r;
    int rc;

    *out = NULL;
    if (!host || !*host || strlen(host) >= sizeof(r->host) || !port || port > 65535) {
        pp_errmsg(err, errlen, "invalid OpenOCD address");
        return PP_E_INVAL;
    }
    r = calloc(1, sizeof(*r));
    if (!r) {
        pp_errmsg(err, errlen, "out of memory");
        return PP_E_NOMEM;
    }
    snprintf(r->host, sizeof(r->host), "%s", host);
    r->port = port;
    snprintf(r->peer, sizeof(r->peer), strchr(host, ':') ? "[%s]:%u" : "%s:%u", host, port);
    r->timeout_ms = timeout_ms ? timeout_ms : PP_OCD_TIMEOUT_MS;
    r->fd = -1;
    rc = open_socket(r, err, errlen);
    if (rc != PP_OK) {
        free(r);
        return rc;
    }
    *out = r;
    return PP_OK;
}

void pp_ocd_close(struct pp_ocd_rpc *r)
{
    if (!r)
        return;
    drop(r);
    free(r->in);
    free(r);
}

int pp_ocd_reconnect(struct pp_ocd_rpc *r, char *err, size_t errlen)
{
    drop(r);
    return open_socket(r, err, errlen);
}

bool pp_ocd_connected(const struct pp_ocd_rpc *r)
{
    return r->fd >= 0;
}

const char *pp_ocd_peer(const struct pp_ocd_rpc *r)
{
    return r->peer;
}

uint64_t pp_ocd_round_trips(const struct pp_ocd_rpc *r)
{
    return r->round_trips;
}

static int send_all(struct pp_ocd_rpc *r, const char *buf, size_t len, uint64_t deadline,
                    char *err, size_t errlen)
{
    while (len) {
        struct pollfd pfd = { .fd = r->fd, .events = POLLOUT };
        ssize_t n;

        if (poll(&pfd, 1, pp_ms_until(deadline)) != 1) {
            pp_errmsg(err, errlen, "OpenOCD at %s stopped accepting data (timeout)", r->peer);
            return PP_E_TIMEOUT;
        }
        n = send(r->fd, buf, len, MSG_NOSIGNAL);
        if (n < 0 && (errno == EINTR || errno == EAGAIN))
            continue;
        if (n <= 0) {
            pp_errmsg(err, errlen, "connection to OpenOCD at %s lost: %s", r->peer,
                n < 0 ? strerror(errno) : "closed");
            return PP_E_LINK;
        }
        buf += n;
        len -= (size_t)n;
    }
    return PP_OK;
}

/* A reply larger than this is not one OpenOCD sends us: the biggest is a
 * repeated batch's values and log, a few hundred KB (ocd_bus.c).  Without
 * a bound a peer that streams forever would take all memory.  `make fuzz`
 * (tests/fuzz.mk) lowers it so that its flooding peer reaches it in
 * milliseconds rather than a second. */
#ifdef FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION
#define REPLY_MAX (1u << 20)
#else
#define REPLY_MAX (64u << 20)
#endif

static int grow(struct pp_ocd_rpc *r, char *err, size_t errlen)
{
    size_t cap = r->incap ? r->incap * 2 : 16384;
    char *in;

    if (r->incap >= REPLY_MAX) {
        pp_errmsg(err, errlen, "OpenOCD at %s sent over %u MiB without ending its reply "
                  "(expected a reply ending in byte 0x1A): not an OpenOCD TCL server, or a "
                  "script that does not stop", r->peer, REPLY_MAX >> 20);
        return PP_E_PROTO;
    }
    in = realloc(r->in, cap > REPLY_MAX ? REPLY_MAX : cap);
    if (!in) {
        pp_errmsg(err, errlen, "out of memory");
        return PP_E_NOMEM;
    }
    r->in = in;
    r->incap = cap > REPLY_MAX ? REPLY_MAX : cap;
    return PP_OK;
}

/* The deadline is the exchange's, not the poll's: a peer that trickles a
 * byte now and then must not keep a request alive for ever. */
static int fill(struct pp_ocd_rpc *r, uint64_t deadline, char *err, size_t errlen)
{
    struct pollfd pfd = { .fd = r->fd, .events = POLLIN };
    ssize_t n;
    int rc;

    if (r->incap - r->inlen < 4096 && (rc = grow(r, err, errlen)) != PP_OK)
        return rc;
    for (;;) {
        int pr = pp_mono_ns() >= deadline ? 0 : poll(&pfd, 1, pp_ms_until(deadline));

        if (pr < 0 && errno == EINTR)
            continue;
        if (pr != 1) {
            pp_errmsg(err, errlen, "no complete reply from OpenOCD at %s within the "
                      "request's deadline (%u bytes received)", r->peer, (unsigned)r->inlen);
            return PP_E_TIMEOUT;
        }
        n = recv(r->fd, r->in + r->inlen, r->incap - r->inlen - 1, 0);
        if (n < 0 && (errno == EINTR || errno == EAGAIN))
            continue;
        break;
    }
    if (n <= 0) {
        pp_errmsg(err, errlen, "connection to OpenOCD at %s lost: %s", r->peer,
            n < 0 ? strerror(errno) : "OpenOCD closed it (did it exit?)");
        return PP_E_LINK;
    }
    r->inlen += (size_t)n;
    return PP_OK;
}

/* "type target_event ...\r\n" frames come only with tcl_notifications
 * on, which we never ask for; someone else's setting must not garble
 * replies (spec 3.4). */
static bool is_notification(const char *frame, size_t len)
{
    return len >= 14 && strncmp(frame, "type target_", 12) == 0 && frame[len - 1] == '\n';
}

/* Takes one frame off the input: *frame is malloc'd. */
static int take_frame(struct pp_ocd_rpc *r, uint64_t deadline, char **frame, size_t *flen,
                      char *err, size_t errlen)
{
    size_t scanned = 0;

    for (;;) {
        /* r->in is NULL until the first bytes arrive: memchr must not see it. */
        char *end = r->inlen > scanned ? memchr(r->in + scanned, FRAME_END, r->inlen - scanned)
                                       : NULL;

        if (end) {
            size_t len = (size_t)(end - r->in);

            *frame = malloc(len + 1);
            if (!*frame) {
                pp_errmsg(err, errlen, "out of memory");
                return PP_E_NOMEM;
            }
            memcpy(*frame, r->in, len);
            (*frame)[len] = '\0';
            *flen = len;
            memmove(r->in, end + 1, r->inlen - len - 1);
            r->inlen -= len + 1;
            return PP_OK;
        }
        scanned = r->inlen;
        /* "line too long\n\0" comes without a terminator (spec 3.1). */
        if (r->inlen && memchr(r->in, '\0', r->inlen)) {
            char text[128];

            pp_escape(text, sizeof(text), r->in, strcspn(r->in, "\n"));
            pp_errmsg(err, errlen, "OpenOCD refused the request: %s", text);
            return PP_E_PROTO;
        }
        int rc = fill(r, deadline, err, errlen);
        if (rc != PP_OK)
            return rc;
    }
}

static int send_request(struct pp_ocd_rpc *r, const char *script, uint64_t deadline,
                        char *err, size_t errlen)
{
    size_t slen = strlen(script);
    char term = FRAME_END;
    int rc;

    if (memchr(script, FRAME_END, slen) || slen + 1 >= PP_OCD_SCRIPT_MAX) {
        pp_errmsg(err, errlen, "request cannot be sent to OpenOCD (0x1A byte or over 4 MiB)");
        return PP_E_INVAL;
    }
    if (r->fd < 0) {
        pp_errmsg(err, errlen, "not connected to OpenOCD at %s", r->peer);
        return PP_E_LINK;
    }
    r->inlen = 0;
    rc = send_all(r, script, slen, deadline, err, errlen);
    if (rc == PP_OK)
        rc = send_all(r, &term, 1, deadline, err, errlen);
    if (rc != PP_OK)
        drop(r);
    return rc;
}

/* The next frame that is not a notification. */
static int recv_frame(struct pp_ocd_rpc *r, uint64_t deadline, char **frame, size_t *len,
                      char *err, size_t errlen)
{
    for (;;) {
        int rc = take_frame(r, deadline, frame, len, err, errlen);

        if (rc != PP_OK) {
            drop(r);
            return rc;
        }
        if (!is_notification(*frame, *len))
            return PP_OK;
        free(*frame);
        *frame = NULL;
    }
}

static uint64_t deadline_for(const struct pp_ocd_rpc *r, unsigned timeout_ms)
{
    return pp_deadline_ms(timeout_ms ? timeout_ms : r->timeout_ms);
}

void pp_ocd_set_trace(struct pp_ocd_rpc *r, struct pp_trace *tr)
{
    r->trace = tr;
}

/* Up to max bytes of s, control bytes and non-ASCII as \xHH, so a peer's
 * bytes never reach a terminal raw through the trace. */
static void quote(const char *s, size_t len, size_t max, char *out, size_t outlen)
{
    size_t o = 0;

    for (size_t i = 0; i < len && i < max && o + 5 < outlen; i++) {
        unsigned char c = (unsigned char)s[i];

        if (c >= 0x20 && c < 0x7F)
            out[o++] = (char)c;
        else
            o += (size_t)snprintf(out + o, outlen - o, "\\x%02X", c);
    }
    snprintf(out + o, outlen - o, "%s", len > max ? "..." : "");
}

static void trace_exchange(struct pp_ocd_rpc *r, const char *script, const char *reply,
                           size_t len, int rc)
{
    char q[400];

    if (!pp_trace_on(r->trace, PP_TRACE_DAP))
        return;
    quote(script, strlen(script), 300, q, sizeof(q));
    pp_trace_text(r->trace, PP_TRACE_DAP, "ocd  > %s", q);
    if (rc != PP_OK) {
        pp_trace_text(r->trace, PP_TRACE_DAP, "ocd  < no reply: %s", pp_strerror(rc));
        return;
    }
    quote(reply, len, 200, q, sizeof(q));
    pp_trace_text(r->trace, PP_TRACE_DAP, "ocd  < %zu bytes: %s", len, q);
}

int pp_ocd_exchange(struct pp_ocd_rpc *r, const char *script, unsigned timeout_ms,
                    char **reply, size_t *len, char *err, size_t errlen)
{
    uint64_t deadline = deadline_for(r, timeout_ms);
    int rc = send_request(r, script, deadline, err, errlen);

    *reply = NULL;
    *len = 0;
    if (rc == PP_OK)
        rc = recv_frame(r, deadline, reply, len, err, errlen);
    if (rc == PP_OK)
        r->round_trips++;
    trace_exchange(r, script, *reply, *len, rc);
    return rc;
}

void pp_ocd_reply_free(struct pp_ocd_reply *rep)
{
    free(rep->result);
    free(rep->log);
    rep->result = rep->log = NULL;
}

/* The header "CODE RLEN LLEN\n": byte counts, so nothing the script
 * returns or logs can be taken for the framing.  Returns the total
 * length the reply must have, 0 if the header is malformed. */
static size_t wrapped_length(const char *reply, long *code, unsigned long *rlen,
                             unsigned long *llen, int *used)
{
    *used = 0;
    if (sscanf(reply, "%ld %lu %lu%n", code, rlen, llen, used) != 3 || reply[*used] != '\n'
        || *rlen > PP_OCD_SCRIPT_MAX * 4ul || *llen > PP_OCD_SCRIPT_MAX * 4ul)
        return 0;
    (*used)++;
    return (size_t)*used + *rlen + *llen;
}

static int parse_wrapped(const char *reply, size_t len, struct pp_ocd_reply *rep)
{
    long code;
    unsigned long rlen, llen;
    int used;
    size_t want = wrapped_length(reply, &code, &rlen, &llen, &used);

    /* 0 is a malformed header, whose counts were never read: an empty
     * frame must not pass for a reply of length 0. */
    if (want == 0 || want != len)
        return PP_E_PROTO;
    rep->code = (int)code;
    rep->result = strndup(reply + used, rlen);
    rep->log = strndup(reply + used + rlen, llen);
    if (!rep->result || !rep->log) {
        pp_ocd_reply_free(rep);
        return PP_E_NOMEM;
    }
    return PP_OK;
}

/* Like pp_ocd_exchange, but a result or log that itself contains 0x1A
 * arrives as several frames: the header's byte counts say how many to
 * join. */
static int exchange_wrapped(struct pp_ocd_rpc *r, const char *script, unsigned timeout_ms,
                            char **reply, size_t *len, char *err, size_t errlen)
{
    uint64_t deadline = deadline_for(r, timeout_ms);
    int rc = send_request(r, script, deadline, err, errlen);
    long code;
    unsigned long rlen, llen;
    int used;
    size_t want;

    *reply = NULL;
    if (rc == PP_OK)
        rc = recv_frame(r, deadline, reply, len, err, errlen);
    if (rc != PP_OK) {
        trace_exchange(r, script, NULL, 0, rc);
        return rc;
    }
    want = wrapped_length(*reply, &code, &rlen, &llen, &used);
    while (rc == PP_OK && want > *len) {
        char *more, *joined;
        size_t mlen;

        rc = recv_frame(r, deadline, &more, &mlen, err, errlen);
        if (rc != PP_OK)
            break;
        joined = realloc(*reply, *len + 1 + mlen + 1);
        if (!joined) {
            free(more);
            rc = PP_E_NOMEM;
            break;
        }
        joined[(*len)++] = FRAME_END;
        memcpy(joined + *len, more, mlen + 1);
        *len += mlen;
        *reply = joined;
        free(more);
    }
    trace_exchange(r, script, *reply, *len, rc);
    if (rc != PP_OK) {
        free(*reply);
        *reply = NULL;
        drop(r);
        return rc;
    }
    r->round_trips++;
    return PP_OK;
}

int pp_ocd_eval(struct pp_ocd_rpc *r, const char *script, unsigned timeout_ms,
                struct pp_ocd_reply *rep, char *err, size_t errlen)
{
    struct pp_tcl_buf b;
    char *reply;
    size_t len;
    int rc;

    memset(rep, 0, sizeof(*rep));
    pp_tcl_init(&b);
    /* `capture` turns log output into the result, so the value is kept
     * in a variable; the trailing `list` makes the capture's own result
     * empty when nothing was logged (spec 3.3). */
    pp_tcl_raw(&b, "set ::pmuprobe_rpc_r {}; set ::pmuprobe_rpc_c [catch {capture "
                   "{set ::pmuprobe_rpc_r [eval");
    pp_tcl_word(&b, script);
    pp_tcl_raw(&b, "]; list}} ::pmuprobe_rpc_l]; format {%d %d %d\n%s%s} $::pmuprobe_rpc_c "
                   "[string bytelength $::pmuprobe_rpc_r] [string bytelength $::pmuprobe_rpc_l] "
                   "$::pmuprobe_rpc_r $::pmuprobe_rpc_l");
    if (!pp_tcl_str(&b)) {
        pp_tcl_free(&b);
        pp_errmsg(err, errlen, "out of memory");
        return PP_E_NOMEM;
    }
    rc = exchange_wrapped(r, pp_tcl_str(&b), timeout_ms, &reply, &len, err, errlen);
    pp_tcl_free(&b);
    if (rc != PP_OK)
        return rc;
    rc = parse_wrapped(reply, len, rep);
    if (rc == PP_E_PROTO) {
        char text[256];

        pp_escape(text, sizeof(text), reply, 60);
        pp_errmsg(err, errlen, "unexpected reply from %s (not OpenOCD's TCL server?): %s",
            r->peer, text);
        drop(r);
    } else if (rc == PP_E_NOMEM)
        pp_errmsg(err, errlen, "out of memory");
    free(reply);
    return rc;
}
