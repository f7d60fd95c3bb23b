/*
 * Fuzz target: what pmuprobe makes of OpenOCD's TCL RPC replies
 * (spec/openocd.md 3): the framing and the wrapped-reply parse of
 * lib/bus/ocd_rpc.c, the TCL list and number parsers of lib/bus/ocd_tcl.c,
 * and the reply text that lib/bus/ocd_attach.c and ocd_bus.c turn into a
 * version, target and DAP lists, AP IDRs, CSW values, batch and repeat
 * results.
 *
 * A fake OpenOCD on 127.0.0.1 (a thread) accepts the connection and
 * answers from the input after byte 0, a stream of 0x1A-ended frames as
 * OpenOCD sends them (see serve()).  Byte 0 picks the client:
 *   bit 0 clear  the openocd access path: pp_bus_ocd_new (the attach),
 *                then one pp_bus_run batch and one pp_bus_run_repeat of
 *                cpu0's and cpu1's PMU on targets/rpi3-a53.target
 *   bit 0 set    pp_ocd_eval and pp_ocd_exchange in turn until one fails,
 *                every result and log run through pp_tcl_split (elements
 *                split again) and pp_tcl_parse_u64/u32
 *   bit 1 set    the input's last frame is not ended: it is sent again and
 *                again until the client hangs up (flood()), which it must
 *                do at its reply bound (64 MiB; 1 MiB in `make fuzz`, whose
 *                lib/ is built with FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION).
 *                `make fuzz` lets inputs be 64 KiB (fuzz.mk), so an
 *                ordinary reply can pass the client's first 16 KiB buffer.
 * The replies do not depend on what was asked, only on when, so a run is
 * reproducible unless the client takes CONT_MS between two requests.
 */
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <unistd.h>
#include <linux/sockios.h>

#include "fuzz.h"
#include "pmuprobe.h"
#include "bus/ocd_rpc.h"
#include "bus/ocd_tcl.h"

#define PMU0        0x80011000u      /* rpi3-a53: cpu0 PMU */
#define PMU1        0x80013000u      /* cpu1 */
#define TIMEOUT_MS  2000u            /* never reached: the server closes */
#define MAX_EVALS   64
/* No request this long: send on.  Short under libFuzzer (`make fuzz`),
 * where the client answers in microseconds; long enough in the replay
 * under valgrind that a regression input takes the path it crashed on. */
#ifdef FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION
#define CONT_MS     2
#else
#define CONT_MS     50
#endif
#define FRAME_END   0x1A
/* Four times the client's reply bound (REPLY_MAX, lib/bus/ocd_rpc.c), in
 * bytes the client took (taken()): it must have hung up long before.
 * `make fuzz` builds lib/ with the macro below, which lowers that bound to
 * 1 MiB, so a client that reads past it is caught after 4 MiB, in
 * milliseconds, not after 256; the product and the replay in `make check`
 * keep 64 MiB and so 256 MiB here. */
#ifdef FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION
#define FLOOD_LIMIT ((size_t)4u << 20)
#else
#define FLOOD_LIMIT ((size_t)256u << 20)
#endif

struct fake_ocd {
    int listen_fd;
    unsigned port;
    const uint8_t *data;
    size_t size;
    bool flood;               /* the last frame, unended, repeats for ever */
};

/* The local socket of this process whose address is addr (in the client,
 * which runs in this process), connected to port; -1 when none is (the
 * client has closed it). */
static int local_socket(const struct sockaddr_in *addr, in_port_t port)
{
    for (int fd = 0; fd < FD_SETSIZE; fd++) {
        struct sockaddr_in a, b;
        socklen_t alen = sizeof(a), blen = sizeof(b);

        if (getsockname(fd, (struct sockaddr *)&a, &alen) == 0 && a.sin_family == AF_INET
            && a.sin_port == addr->sin_port && a.sin_addr.s_addr == addr->sin_addr.s_addr
            && getpeername(fd, (struct sockaddr *)&b, &blen) == 0 && b.sin_port == port)
            return fd;
    }
    return -1;
}

/* Of sent bytes on c, those the client has read: sent less what the
 * kernel still holds, in c's send queue (SIOCOUTQ: not yet acknowledged)
 * and in the client's receive queue (FIONREAD on its socket).  Loopback
 * buffers grow to tens of MiB (net.ipv4.tcp_rmem), more than FLOOD_LIMIT
 * in `make fuzz`, so what was sent alone says nothing.  0 when the
 * client's socket is gone: it hung up, and the next send fails. */
static size_t taken(int c, size_t sent)
{
    struct sockaddr_in me, peer;
    socklen_t mlen = sizeof(me), plen = sizeof(peer);
    int outq = 0, inq = 0, fd;

    if (getsockname(c, (struct sockaddr *)&me, &mlen) != 0
        || getpeername(c, (struct sockaddr *)&peer, &plen) != 0
        || ioctl(c, SIOCOUTQ, &outq) != 0 || (fd = local_socket(&peer, me.sin_port)) < 0
        || ioctl(fd, FIONREAD, &inq) != 0)
        return 0;
    return sent > (size_t)outq + (size_t)inq ? sent - (size_t)outq - (size_t)inq : 0;
}

/* Sends the unended tail p[0..len) over and over (a space when empty)
 * until the client hangs up: a peer that streams without end, which the
 * client must cut off at its reply bound (REPLY_MAX in lib/bus/ocd_rpc.c,
 * 64 MiB; 1 MiB in `make fuzz`) instead of taking all memory. */
static void flood(int c, const uint8_t *p, size_t len)
{
    static uint8_t buf[1u << 16];
    size_t fill = 0, sent = 0;
    ssize_t w;

    if (len == 0) {
        p = (const uint8_t *)" ";
        len = 1;
    }
    while (fill + len <= sizeof(buf)) {
        memcpy(buf + fill, p, len);
        fill += len;
    }
    if (fill == 0) {          /* a tail longer than the buffer: send it as it is */
        memcpy(buf, p, sizeof(buf));
        fill = sizeof(buf);
    }
    while ((w = send(c, buf, fill, MSG_NOSIGNAL)) > 0)
        if ((sent += (size_t)w) > FLOOD_LIMIT && taken(c, sent) > FLOOD_LIMIT)
            abort();          /* the client read on past any bound */
}

/* Bound once: a loopback port the client connects to for every input. */
static int listen_once(struct fake_ocd *f)
{
    static int fd = -1;
    static unsigned port;

    if (fd < 0) {
        struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
        socklen_t alen = sizeof(a);

        fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
        if (fd < 0 || bind(fd, (struct sockaddr *)&a, sizeof(a)) != 0 || listen(fd, 4) != 0 ||
            getsockname(fd, (struct sockaddr *)&a, &alen) != 0) {
            perror("fuzz_ocdreply: listen");
            abort();
        }
        port = ntohs(a.sin_port);
    }
    f->listen_fd = fd;
    f->port = port;
    return fd;
}

/* Sends the next frame: up to and including the next 0x1A, or the rest. */
static bool send_frame(int c, const struct fake_ocd *f, size_t *off)
{
    const uint8_t *end = memchr(f->data + *off, FRAME_END, f->size - *off);
    size_t len = end ? (size_t)(end - (f->data + *off)) + 1 : f->size - *off;

    if (!end && f->flood) {
        flood(c, f->data + *off, len);
        *off = f->size;
        return false;
    }
    while (len > 0) {
        ssize_t w = send(c, f->data + *off, len, MSG_NOSIGNAL);

        if (w <= 0)
            return false;
        *off += (size_t)w;
        len -= (size_t)w;
    }
    return true;
}

/*
 * The fake OpenOCD: one frame per request, as OpenOCD answers (the client
 * discards what it has read beyond a reply when it sends the next
 * request).  When no request comes for CONT_MS the client is waiting for
 * more of the same reply (a notification frame was skipped, or a result
 * holds 0x1A, spec/openocd.md 3.3-3.4), so the next frame goes anyway.
 * After the last frame: EOF, then the requests are read until the client
 * closes, so that none meets a reset connection.
 */
static void *serve(void *arg)
{
    const struct fake_ocd *f = arg;
    struct pollfd pfd = { .fd = f->listen_fd, .events = POLLIN };
    char buf[4096];
    size_t off = 0, owed = 0;

    /* Bounded: a client that never connected must not hang the run. */
    if (poll(&pfd, 1, (int)TIMEOUT_MS) != 1)
        return NULL;
    int c = accept(f->listen_fd, NULL, NULL);
    if (c < 0)
        return NULL;
    pfd.fd = c;
    while (off < f->size) {
        int pr = poll(&pfd, 1, CONT_MS);

        if (pr > 0) {
            ssize_t n = recv(c, buf, sizeof(buf), 0);

            if (n <= 0)
                break;
            for (ssize_t i = 0; i < n; i++)
                owed += buf[i] == FRAME_END;
        } else if (pr == 0) {
            owed++;
        }
        for (; owed > 0 && off < f->size; owed--)
            if (!send_frame(c, f, &off))
                off = f->size;
    }
    shutdown(c, SHUT_WR);
    while (recv(c, buf, sizeof(buf), 0) > 0)
        ;
    /* A client that closed first would keep its local port in TIME_WAIT;
     * a reset spares it.  A fuzzing run makes more connections than there
     * are local ports. */
    struct linger lg = { .l_onoff = 1, .l_linger = 0 };
    setsockopt(c, SOL_SOCKET, SO_LINGER, &lg, sizeof(lg));
    close(c);
    return NULL;
}

static void run_bus(unsigned port)
{
    struct pp_ocd_opts o = {
        .host = "127.0.0.1", .port = port, .timeout_ms = TIMEOUT_MS,
        .reconnect = false, .ap_hint = 0, .cover_gap_words = true,
    };
    char err[256];
    struct pp_bus *bus = pp_bus_ocd_new(&o, err, sizeof(err));

    if (!bus)
        return;
    /* Adjacent reads, a gap-covered pair, a write, another core. */
    struct pp_op ops[] = {
        { .addr = PMU0 + 0x000 }, { .addr = PMU0 + 0x008 }, { .addr = PMU0 + 0x00C },
        { .addr = PMU0 + 0x0F8 }, { .addr = PMU0 + 0xE04 },
        { .addr = PMU0 + 0xC00, .wdata = 0x80000001u, .write = true },
        { .addr = PMU1 + 0xE04 },
    };
    (void)pp_bus_run(bus, ops, sizeof(ops) / sizeof(ops[0]));

    struct pp_op rep[3 * 2];
    uint64_t t_ns[3];
    for (unsigned k = 0; k < 3; k++) {
        rep[2 * k] = (struct pp_op){ .addr = PMU0 + 0x0F8 };
        rep[2 * k + 1] = (struct pp_op){ .addr = PMU0 + 0x000 };
    }
    (void)pp_bus_run_repeat(bus, rep, 2, 3, 1000000, t_ns);
    pp_bus_close(bus);
}

/* Every element as a number and as a list again, as the access path
 * reads rows of target info and batch results. */
static void parse_text(const char *text)
{
    char **v;
    size_t n;
    uint64_t u64;
    uint32_t u32;

    (void)pp_tcl_parse_u64(text, &u64);
    if (pp_tcl_split(text, &v, &n) != 0)
        return;
    for (size_t i = 0; i < n; i++) {
        char **f;
        size_t nf;

        (void)pp_tcl_parse_u32(v[i], &u32);
        if (pp_tcl_split(v[i], &f, &nf) == 0)
            free(f);
    }
    free(v);
}

static void run_rpc(unsigned port)
{
    struct pp_ocd_rpc *r;
    char err[256];

    if (pp_ocd_connect("127.0.0.1", port, TIMEOUT_MS, &r, err, sizeof(err)) != PP_OK)
        return;
    for (unsigned i = 0; i < MAX_EVALS; i++) {
        if (i % 2 == 0) {
            struct pp_ocd_reply rep;

            if (pp_ocd_eval(r, "version", 0, &rep, err, sizeof(err)) != PP_OK)
                break;
            parse_text(rep.result);
            parse_text(rep.log);
            pp_ocd_reply_free(&rep);
        } else {
            char *reply;
            size_t len;

            if (pp_ocd_exchange(r, "dap names", 0, &reply, &len, err, sizeof(err)) != PP_OK)
                break;
            parse_text(reply);
            free(reply);
        }
    }
    pp_ocd_close(r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    struct fake_ocd f = { .data = data + 1, .size = size - 1, .flood = data[0] & 2 };
    pthread_t th;

    listen_once(&f);
    if (pthread_create(&th, NULL, serve, &f) != 0)
        abort();
    if (data[0] & 1)
        run_rpc(f.port);
    else
        run_bus(f.port);
    pthread_join(th, NULL);
    return 0;
}
