/*
 * Fuzz target: the remote_bitbang client (lib/link/rbb.c, spec/openocd.md
 * 1.1) reading a server's answers: take_answers and the exchange loop
 * around it, and, above the link, what the JTAG and DP layers make of the
 * TDO bits (lib/link/jtag.c and jtagchain.c: the chain scan, IR lengths
 * and the DAP pick; lib/adi/dp.c: ACKs, WAIT recovery, posted reads).
 *
 * A fake server on a unix socket (a thread) answers the client's 'R'
 * requests from the input after byte 0, in step: for every 'R' it reads
 * it sends the next answer byte.  Answer bytes come from the input as
 *   0x00-0x7F  that byte itself ('0', '1', or garbage the client refuses)
 *   0x80-0xFE  seven answers, '0'/'1' from bits 0..6 (a compact way to
 *              give the chain scan its hundreds of bits)
 *   0xFF       the next input byte is sent at once, unasked (a server out
 *              of step: more answers than asked)
 * When the input runs out the server closes: the client meets EOF, never a
 * timeout.  Byte 0 picks the client:
 *   bit 0 clear  the stack: pp_jtag_chain_apply with nothing described,
 *                then pp_dp_power_up and a run of DP and AP transfers
 *   bit 0 set    the link alone: TMS, shifts of 1 + (byte0 >> 1) bits
 *                with TDO, flushes and a TRST reset, until one fails
 *
 * Checked beyond memory safety: once an operation failed, the link stays
 * failed (every later call returns an error, lib/link/link.h), and a flush
 * that succeeded stored exactly the '0'/'1' answers the server sent: no
 * bit the server did not send, none out of order.  The server thread
 * logs each answer under the log's lock before it sends it, and the check
 * reads the log under the same lock, so the client sees every answer it
 * has received.
 */
#define _GNU_SOURCE
#include <poll.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "fuzz.h"
#include "pmuprobe.h"
#include "adi/adi.h"
#include "link/jtag.h"
#include "link/jtagchain.h"
#include "link/link.h"
#include "link/rbb.h"

#define MAX_SENT  (1u << 16)   /* answers the server logs for the check */
#define ROUNDS    8u

struct fake_rbb {
    int listen_fd;
    const uint8_t *data;      /* the server thread's alone: */
    size_t size, off;
    uint8_t pend[8];          /* decoded answers not yet sent */
    unsigned npend, pendpos;
    pthread_mutex_t lock;     /* over the log, which both threads read: */
    char sent[MAX_SENT];      /* every answer sent, in order */
    size_t nsent;
    bool overflow;            /* more than MAX_SENT sent: the check is off */
    bool unasked;             /* an unasked byte was sent: the check is off */
};

static char sock_dir[] = "/tmp/pp-fuzz-rbbclient-XXXXXX";
static char sock_path[108];

/* At exit: the socket and its directory go. */
static void remove_socket(void)
{
    unlink(sock_path);
    rmdir(sock_dir);
}

/* Bound once: a unix socket in a directory of its own. */
static int listen_once(char *endpoint, size_t n)
{
    static int fd = -1;
    char *path = sock_path;

    if (fd < 0) {
        char *dir = sock_dir;
        struct sockaddr_un a = { .sun_family = AF_UNIX };

        if (!mkdtemp(dir)) {
            perror("fuzz_rbbclient: mkdtemp");
            abort();
        }
        snprintf(path, sizeof(sock_path), "%s/s", dir);
        atexit(remove_socket);
        memcpy(a.sun_path, path, strlen(path) + 1);
        fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
        if (fd < 0 || bind(fd, (struct sockaddr *)&a, sizeof(a)) != 0 || listen(fd, 4) != 0) {
            perror("fuzz_rbbclient: listen");
            abort();
        }
    }
    snprintf(endpoint, n, "unix:%s", path);
    return fd;
}

/* The next answer byte; false when the input is used up. */
static bool next_answer(struct fake_rbb *f, uint8_t *out)
{
    if (f->pendpos < f->npend) {
        *out = f->pend[f->pendpos++];
        return true;
    }
    if (f->off >= f->size)
        return false;
    uint8_t b = f->data[f->off++];
    if (b < 0x80 || b == 0xFF) {
        *out = b;
        return true;
    }
    for (unsigned i = 0; i < 7; i++)
        f->pend[i] = (uint8_t)('0' + (b >> i & 1));
    f->npend = 7;
    f->pendpos = 0;
    return next_answer(f, out);
}

/* Logged before it goes, so a client that has it finds it in the log. */
static bool send_one(int c, struct fake_rbb *f, uint8_t b, bool unasked)
{
    pthread_mutex_lock(&f->lock);
    if (f->nsent < MAX_SENT)
        f->sent[f->nsent++] = (char)b;
    else
        f->overflow = true;
    f->unasked = f->unasked || unasked;
    pthread_mutex_unlock(&f->lock);
    return send(c, &b, 1, MSG_NOSIGNAL) == 1;
}

/* One answer per 'R' (an 0xFF escape sends its byte unasked first). */
static bool answer(int c, struct fake_rbb *f)
{
    uint8_t b;

    while (next_answer(f, &b)) {
        if (b != 0xFF)
            return send_one(c, f, b, false);
        if (next_answer(f, &b) && !send_one(c, f, b, true))
            return false;
    }
    return false;
}

static void *serve(void *arg)
{
    struct fake_rbb *f = arg;
    struct pollfd pfd = { .fd = f->listen_fd, .events = POLLIN };
    char buf[4096];
    bool more = true;

    if (poll(&pfd, 1, 2000) != 1)
        return NULL;          /* the client never connected */
    int c = accept(f->listen_fd, NULL, NULL);
    if (c < 0)
        return NULL;
    while (more) {
        ssize_t n = recv(c, buf, sizeof(buf), 0);

        if (n <= 0)
            break;
        for (ssize_t i = 0; i < n && more; i++)
            if (buf[i] == 'R')
                more = answer(c, f);
    }
    /* Out of answers: EOF to the client, then read until it closes. */
    shutdown(c, SHUT_WR);
    while (recv(c, buf, sizeof(buf), 0) > 0)
        ;
    close(c);
    return NULL;
}

/* The n TDO bits a successful flush stored in tdo[len] against the next n
 * answers the server sent, from *used on.  Off once the server sent a
 * byte unasked (the answers no longer pair with requests) or more than
 * the log holds. */
static void check_bits(struct fake_rbb *f, size_t *used, const uint8_t *tdo, size_t len,
                       unsigned n)
{
    if (n > 8 * len)
        abort();              /* a caller's bug: more bits than its buffer */
    pthread_mutex_lock(&f->lock);
    if (!f->unasked && !f->overflow) {
        if (n > f->nsent - *used)
            abort();          /* the client stored bits the server never sent */
        for (unsigned i = 0; i < n; i++, (*used)++)
            if (((tdo[i / 8] >> (i % 8)) & 1) != (f->sent[*used] == '1'))
                abort();
    }
    pthread_mutex_unlock(&f->lock);
}

static void run_link(struct pp_link *l, struct fake_rbb *f, unsigned nbits)
{
    static const uint8_t tms[1] = { 0x1F };
    uint8_t tdi[64], tdo[64];
    size_t used = 0;
    bool failed = false;

    memset(tdi, 0xA5, sizeof(tdi));
    for (unsigned r = 0; r < ROUNDS; r++) {
        int rc = pp_link_tms(l, tms, 6, false);

        memset(tdo, 0, sizeof(tdo));
        if (rc == PP_OK)
            rc = pp_link_shift(l, tdi, tdo, nbits, r & 1);
        if (rc == PP_OK)
            rc = pp_link_flush(l);
        if (rc == PP_OK && failed)
            abort();          /* a failed link came back */
        if (rc == PP_OK)
            check_bits(f, &used, tdo, sizeof(tdo), nbits);
        if (rc == PP_OK && r == ROUNDS / 2)
            rc = l->ops->reset(l, true, false);
        failed = failed || rc != PP_OK;
    }
}

static void run_stack(struct pp_link *l)
{
    struct pp_jtag *j = pp_jtag_new(l);
    struct pp_dp *dp = NULL;
    char err[256];
    uint32_t ctrl = 0;

    if (!j)
        abort();
    if (pp_jtag_chain_apply(j, NULL, 0, err, sizeof(err)) != PP_OK)
        goto out;
    dp = pp_dp_new(j);
    if (!dp)
        abort();
    if (pp_dp_power_up(dp, err, sizeof(err)) != PP_OK)
        goto out;
    struct pp_dp_xfer x[] = {
        { .ap = 1, .rnw = 1, .addr = PP_AP_IDR, .apsel = 0 },
        { .ap = 1, .rnw = 0, .addr = PP_AP_TAR, .wdata = 0x80011000u },
        { .ap = 1, .rnw = 1, .addr = PP_AP_DRW },
        { .ap = 0, .rnw = 1, .addr = 0x4 },
        { .ap = 1, .rnw = 1, .addr = PP_AP_IDR, .apsel = 1 },
    };
    for (unsigned r = 0; r < 3; r++)
        if (pp_dp_exec(dp, x, sizeof(x) / sizeof(x[0]), &ctrl) != PP_OK)
            break;
out:
    pp_dp_free(dp);
    pp_jtag_free(j);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    struct fake_rbb *f = calloc(1, sizeof(*f));
    char endpoint[128], err[256];
    struct pp_link *l;
    pthread_t th;

    if (!f || pthread_mutex_init(&f->lock, NULL) != 0)
        abort();
    f->listen_fd = listen_once(endpoint, sizeof(endpoint));
    f->data = data + 1;
    f->size = size - 1;
    if (pthread_create(&th, NULL, serve, f) != 0)
        abort();
    if (pp_link_rbb_open(endpoint, &l, err, sizeof(err)) != PP_OK) {
        fprintf(stderr, "fuzz_rbbclient: %s\n", err);
        abort();
    }
    if (data[0] & 1)
        run_link(l, f, 1u + (data[0] >> 1));
    else
        run_stack(l);
    pp_link_close(l);
    pthread_join(th, NULL);
    pthread_mutex_destroy(&f->lock);
    free(f);
    return 0;
}
