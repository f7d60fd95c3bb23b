/*
 * Fuzz target: the remote_bitbang server's input (src/sim/simsrv_rbb.c,
 * simsrv_rbb_feed; spec/openocd.md 1.1) against the simulated TAP of
 * targets/rpi3-a53.target, fed as pmuprobe-sim feeds it: in chunks, the
 * replies to a chunk sent (here: dropped) before the reply buffer could
 * lack room for the next one.
 *
 * Input: byte 0 steers the run, the rest is the client's byte stream.
 *   bits 0-5  k: chunks are 1..k bytes long (lengths from a small PRNG
 *             seeded by byte 0), 0 = the whole stream in one chunk
 *   bit 6     the first two DPACC/APACC scans answer WAIT (dp:wait:2)
 *   bit 7     the DP starts with a sticky overrun (dp:overrun)
 * A 'Q' or a byte outside the protocol ends a client, as in the server;
 * the rest of the stream is then served to the next client of the same
 * TAP, as the server does with its next connection.
 *
 * Checked beyond memory safety: feed consumes no more than it is given,
 * stops only at 'Q' or a bad byte (with a message), and appends exactly
 * one '0'/'1' per 'R'.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "pmuprobe.h"
#include "sim/jtag.h"
#include "sim/sim.h"
#include "target/target.h"
#include "../../src/sim/simsrv.h"

/* Loaded once: the parse is not under test here, the SoC built per input is. */
static struct pp_target *load_target(void)
{
    static struct pp_target *t;
    char path[1024], err[256];

    if (t)
        return t;
    if (pp_target_find("rpi3-a53", path, sizeof(path)) != PP_OK ||
        pp_target_load(path, &t, err, sizeof(err)) != PP_OK) {
        fprintf(stderr, "fuzz_rbb: cannot load target rpi3-a53\n");
        abort();
    }
    t->time_mode = PP_TIME_DETERMINISTIC;   /* reproducible, as pmuprobe-sim's default */
    return t;
}

static uint32_t next_rand(uint32_t *x)
{
    *x ^= *x << 13;
    *x ^= *x >> 17;
    *x ^= *x << 5;
    return *x;
}

static size_t count_r(const char *in, size_t n)
{
    size_t r = 0;

    for (size_t i = 0; i < n; i++)
        r += in[i] == 'R';
    return r;
}

/* Feeds one chunk as feed_chunk in simsrv_rbb.c does, across client
 * changes; aborts on a broken contract. */
static void feed_all(struct simsrv *s, const char *in, size_t n)
{
    struct simsrv_client *c = &s->cl;

    while (n > 0) {
        bool quit = false, bad = false;
        char msg[200] = "";
        size_t before = c->outlen;
        size_t used = simsrv_rbb_feed(s, in, n, &quit, &bad, msg, sizeof(msg));

        if (used > n || (quit && bad) || (bad && !msg[0]) || (used < n && !quit && !bad) ||
            (quit && in[used - 1] != 'Q') || c->outlen - before != count_r(in, used))
            abort();
        for (size_t i = before; i < c->outlen; i++)
            if (c->out[i] != '0' && c->out[i] != '1')
                abort();
        c->counts.bytes_in += used;
        s->total.bytes_in += used;
        if (quit || bad) {
            /* The next client: same TAP, fresh counters (simsrv_rbb_attach). */
            used += bad;                    /* the bad byte went with the old client */
            c->outlen = 0;
            memset(&c->counts, 0, sizeof(c->counts));
            s->clients++;
        }
        in += used;
        n -= used;
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1 || size - 1 > SIMSRV_IN_CHUNK)
        return 0;
    struct pp_target *t = load_target();
    struct simsrv *s = calloc(1, sizeof(*s));
    char err[256];

    if (!s)
        return 0;
    s->sim = pp_sim_new(t, err, sizeof(err));
    s->jtag = s->sim ? pp_simjtag_new(s->sim, err, sizeof(err)) : NULL;
    if (!s->jtag) {
        fprintf(stderr, "fuzz_rbb: cannot build the SoC: %s\n", err);
        abort();
    }
    s->cl.fd = -1;
    if (data[0] & 0x40)
        pp_simjtag_set_wait(s->jtag, 2);
    if (data[0] & 0x80)
        pp_simjtag_set_overrun(s->jtag);

    unsigned k = data[0] & 0x3f;
    uint32_t x = 0x9e3779b9u ^ data[0];
    const char *in = (const char *)data + 1;
    size_t left = size - 1;

    while (left > 0) {
        size_t len = k ? 1 + next_rand(&x) % k : left;

        if (len > left)
            len = left;
        /* pmuprobe-sim reads a chunk only into SIMSRV_IN_CHUNK of room:
         * "send" the replies when less is left. */
        if (SIMSRV_OUT_CAP - s->cl.outlen < SIMSRV_IN_CHUNK)
            s->cl.outlen = 0;
        feed_all(s, in, len);
        in += len;
        left -= len;
    }
    pp_simjtag_free(s->jtag);
    pp_sim_free(s->sim);
    free(s);
    return 0;
}
