/*
 * simsrv_rbb.c - one remote_bitbang client of pmuprobe-sim: the 0.12.0
 * protocol (spec/openocd.md 1.1) run against the simulated TAP, with the
 * replies batched so that a pipelining client pays one round trip per
 * batch.
 */
#include <assert.h>
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "simsrv.h"

/* One chunk's replies always fit: a chunk is read only into that much room. */
static_assert(SIMSRV_OUT_CAP >= SIMSRV_IN_CHUNK, "reply buffer smaller than a chunk");

void simsrv_rbb_attach(struct simsrv *s, int fd)
{
    struct simsrv_client *c = &s->cl;

    simsrv_set_nonblock(fd);
    c->fd = fd;
    c->outlen = c->outoff = 0;
    c->closing = NULL;
    memset(&c->counts, 0, sizeof(c->counts));
    pp_simjtag_get_stats(s->jtag, &c->base);
    s->clients++;
    fprintf(stderr, "pmuprobe-sim: client %u connected\n", s->clients);
}

void simsrv_rbb_detach(struct simsrv *s, const char *why)
{
    struct simsrv_client *c = &s->cl;

    if (c->fd < 0)
        return;
    close(c->fd);
    c->fd = -1;
    s->last_counts = c->counts;
    pp_simjtag_get_stats(s->jtag, &s->last_jtag);
    if (s->read_log)
        fflush(s->read_log);   /* the client's reads are all there once it left */
    fprintf(stderr, "pmuprobe-sim: client %u disconnected (%s)\n", s->clients, why);
    if (s->once)
        s->quit = true;
}

/* Bytes that later OpenOCD versions send (SWD, remote sleep) get a
 * message that says why they are refused (spec/openocd.md 1.1). */
static void describe_bad_byte(char b, size_t at, char *msg, size_t msglen)
{
    const char *why = strchr("OocdefgZzDd", b) && b
        ? ": an SWD or sleep command of OpenOCD after 0.12.0; this server speaks "
          "the 0.12.0 protocol (JTAG only)"
        : "";

    if (b >= 0x20 && b < 0x7f)
        snprintf(msg, msglen, "byte '%c' (0x%02x) at offset %zu is not remote_bitbang%s",
                 b, (unsigned char)b, at, why);
    else
        snprintf(msg, msglen, "byte 0x%02x at offset %zu is not remote_bitbang",
                 (unsigned char)b, at);
}

size_t simsrv_rbb_feed(struct simsrv *s, const char *in, size_t n, bool *quit, bool *bad,
                       char *msg, size_t msglen)
{
    struct simsrv_client *c = &s->cl;

    for (size_t i = 0; i < n; i++) {
        char b = in[i];

        if (b >= '0' && b <= '7') {
            unsigned v = (unsigned)(b - '0');

            pp_simjtag_pins(s->jtag, v & 4, v & 2, v & 1);
        } else if (b == 'R') {
            c->out[c->outlen++] = pp_simjtag_tdo(s->jtag) ? '1' : '0';
            c->counts.samples++;
            s->total.samples++;
        } else if (b >= 'r' && b <= 'u') {
            unsigned v = (unsigned)(b - 'r');   /* trst<<1 | srst, 1 = asserted */

            pp_simjtag_reset(s->jtag, v & 2, v & 1);
        } else if (b == 'B' || b == 'b') {
            /* OpenOCD blinks at the start and end of every queue. */
            c->counts.blinks += b == 'B';
            s->total.blinks += b == 'B';
        } else if (b == 'Q') {
            *quit = true;
            return i + 1;
        } else {
            describe_bad_byte(b, c->counts.bytes_in + i, msg, msglen);
            *bad = true;
            return i;
        }
    }
    return n;
}

/* Feeds one chunk; a 'Q' or a bad byte ends the client once the replies
 * so far are sent. */
static void feed_chunk(struct simsrv *s, const char *in, size_t n)
{
    struct simsrv_client *c = &s->cl;
    bool quit = false, bad = false;
    char msg[200];
    size_t used = simsrv_rbb_feed(s, in, n, &quit, &bad, msg, sizeof(msg));

    c->counts.bytes_in += used;
    s->total.bytes_in += used;
    if (quit) {
        c->closing = "quit";
    } else if (bad) {
        fprintf(stderr, "pmuprobe-sim: client %u: %s; dropping the client\n", s->clients, msg);
        c->closing = "protocol error";
    }
}

/* Sends what is pending.  Returns false when the client is gone. */
static bool flush_out(struct simsrv *s)
{
    struct simsrv_client *c = &s->cl;

    while (c->outoff < c->outlen) {
        ssize_t w = send(c->fd, c->out + c->outoff, c->outlen - c->outoff, MSG_NOSIGNAL);

        if (w < 0 && errno == EINTR)
            continue;
        if (w < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
            return true;            /* poll for POLLOUT */
        if (w <= 0) {
            simsrv_rbb_detach(s, "send failed");
            return false;
        }
        c->outoff += (size_t)w;
        c->counts.bytes_out += (uint64_t)w;
        s->total.bytes_out += (uint64_t)w;
    }
    c->outoff = c->outlen = 0;
    return true;
}

static void finish_if_closing(struct simsrv *s)
{
    struct simsrv_client *c = &s->cl;

    if (c->fd >= 0 && c->closing && c->outlen == 0)
        simsrv_rbb_detach(s, c->closing);
}

/*
 * Reads until the socket is drained (or the reply buffer is full), then
 * answers every 'R' of that input with one send().  A client that
 * pipelines its queue sees exactly one round trip for it; that send is
 * what 'round_trips' counts.
 */
void simsrv_rbb_on_input(struct simsrv *s)
{
    struct simsrv_client *c = &s->cl;
    char in[SIMSRV_IN_CHUNK];
    bool drained = false;

    while (!c->closing && SIMSRV_OUT_CAP - c->outlen >= SIMSRV_IN_CHUNK) {
        ssize_t r = recv(c->fd, in, sizeof(in), 0);

        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            drained = true;
            break;
        }
        if (r <= 0) {
            /* A client that half-closed still gets its replies. */
            c->closing = r == 0 ? "end of stream" : "receive failed";
            break;
        }
        feed_chunk(s, in, (size_t)r);
    }
    if (c->outlen > 0 && (drained || c->closing)) {
        c->counts.round_trips++;
        s->total.round_trips++;
    }
    if (flush_out(s))
        finish_if_closing(s);
}

void simsrv_rbb_on_output(struct simsrv *s)
{
    if (flush_out(s))
        finish_if_closing(s);
}

short simsrv_rbb_events(const struct simsrv *s)
{
    const struct simsrv_client *c = &s->cl;

    if (c->outlen > 0)
        return POLLOUT;
    return POLLIN;
}
