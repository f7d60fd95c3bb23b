/*
 * simsrv_ctl.c - the control channel of pmuprobe-sim: one command per
 * line, one reply line each, "ok ..." or "error ...".  Faults go to the
 * simulated SoC or the TAP; statistics come from both and from the
 * server's own counters.  Also the `pmuprobe-sim ctl` companion that sends
 * one command and prints the reply.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "simsrv.h"

#define MAX_ARGS 8

static const char commands_help[] =
    "commands: fault SPEC[@[+]TIME]..., wait N, addr ADDR error|ok, write ADDR VALUE, "
    "read ADDR, apb-tck N, stats, stats reset, help, quit";

void simsrv_ctl_attach(struct simsrv *s, int fd)
{
    for (size_t i = 0; i < SIMSRV_MAX_CTL; i++) {
        if (s->ctl[i].fd < 0) {
            s->ctl[i].fd = fd;
            s->ctl[i].len = 0;
            return;
        }
    }
    /* Full: say so rather than leave the caller waiting for a reply. */
    static const char busy[] = "error too many control connections\n";

    if (send(fd, busy, sizeof(busy) - 1, MSG_NOSIGNAL | MSG_DONTWAIT) < 0)
        fprintf(stderr, "pmuprobe-sim: control: %s\n", strerror(errno));
    close(fd);
}

void simsrv_ctl_close(struct simsrv_ctl *c)
{
    if (c->fd >= 0)
        close(c->fd);
    c->fd = -1;
    c->len = 0;
}

static bool parse_ulong(const char *text, unsigned long max, unsigned long *v)
{
    char *end;

    errno = 0;
    *v = strtoul(text, &end, 0);
    return *text && *text != '-' && !*end && errno == 0 && *v <= max;
}

static void reply(char *out, size_t outlen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void reply(char *out, size_t outlen, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(out, outlen, fmt, ap);
    va_end(ap);
}

static void cmd_fault(struct simsrv *s, int argc, char **argv, char *out, size_t outlen)
{
    char err[256];

    if (argc < 2) {
        reply(out, outlen, "error fault: expected a SPEC such as cpu1:off, cpu0:oslock, "
              "0x80030000:error, dp:wait:500, dp:overrun, each optionally @+TIME from now "
              "(cpu1:off@+200ms) or @TIME of sim time");
        return;
    }
    /* All checked before any is applied: a refused one leaves no half. */
    for (int i = 1; i < argc; i++) {
        if (pp_sim_check_fault_time(s->sim, argv[i], err, sizeof(err)) != PP_OK) {
            reply(out, outlen, "error %s", err);
            return;
        }
    }
    for (int i = 1; i < argc; i++) {
        if (pp_sim_apply_fault(s->sim, argv[i], err, sizeof(err)) != PP_OK) {
            reply(out, outlen, "error %s", err);
            return;
        }
    }
    reply(out, outlen, "ok fault %s%s", argv[1], argc > 2 ? " ..." : "");
}

static void cmd_wait(struct simsrv *s, int argc, char **argv, char *out, size_t outlen)
{
    unsigned long n;

    if (argc != 2 || !parse_ulong(argv[1], 1000000, &n)) {
        reply(out, outlen, "error wait: expected the number of DPACC/APACC scans to "
              "answer WAIT, 0 to 1000000");
        return;
    }
    pp_simjtag_set_wait(s->jtag, (unsigned)n);
    reply(out, outlen, "ok wait %s", argv[1]);
}

static void cmd_apb_tck(struct simsrv *s, int argc, char **argv, char *out, size_t outlen)
{
    unsigned long n;

    if (argc != 2 || !parse_ulong(argv[1], 1000000, &n)) {
        reply(out, outlen, "error apb-tck: expected the TCKs an AP access takes, "
              "0 to 1000000");
        return;
    }
    pp_simjtag_set_apb_tck(s->jtag, (unsigned)n);
    reply(out, outlen, "ok apb-tck %s", argv[1]);
}

static void cmd_addr(struct simsrv *s, int argc, char **argv, char *out, size_t outlen)
{
    unsigned long addr;
    bool on;

    if (argc != 3 || !parse_ulong(argv[1], UINT32_MAX, &addr)
        || (strcmp(argv[2], "error") != 0 && strcmp(argv[2], "ok") != 0)) {
        reply(out, outlen, "error addr: expected 'addr ADDR error' or 'addr ADDR ok', "
              "e.g. addr 0x80030000 error");
        return;
    }
    on = strcmp(argv[2], "error") == 0;
    if (pp_sim_set_addr_error(s->sim, (uint32_t)addr, on) != PP_OK) {
        reply(out, outlen, "error addr %s: the simulated SoC refused it", argv[1]);
        return;
    }
    reply(out, outlen, "ok addr %s %s", argv[1], argv[2]);
}

/* Another agent on the SoC's APB (on-target software, a second debugger):
 * the access goes to the simulated SoC directly, between the client's
 * batches, with the SoC's own access rules (an error response is
 * reported). */
static void cmd_write(struct simsrv *s, int argc, char **argv, char *out, size_t outlen)
{
    unsigned long addr, val;

    if (argc != 3 || !parse_ulong(argv[1], UINT32_MAX, &addr) ||
        !parse_ulong(argv[2], UINT32_MAX, &val)) {
        reply(out, outlen, "error write: expected 'write ADDR VALUE', "
              "e.g. write 0x80030400 0x03");
        return;
    }
    if (pp_sim_apb_write(s->sim, (uint32_t)addr, (uint32_t)val) != PP_OP_OK) {
        reply(out, outlen, "error write %s: error response", argv[1]);
        return;
    }
    reply(out, outlen, "ok write %s %s", argv[1], argv[2]);
}

static void cmd_read(struct simsrv *s, int argc, char **argv, char *out, size_t outlen)
{
    unsigned long addr;
    uint32_t val;

    if (argc != 2 || !parse_ulong(argv[1], UINT32_MAX, &addr)) {
        reply(out, outlen, "error read: expected 'read ADDR', e.g. read 0x80030C00");
        return;
    }
    if (pp_sim_apb_read(s->sim, (uint32_t)addr, &val) != PP_OP_OK) {
        reply(out, outlen, "error read %s: error response", argv[1]);
        return;
    }
    reply(out, outlen, "ok read %s 0x%08" PRIX32, argv[1], val);
}

/* Appends " PREFIX.key=value" for every counter. */
static size_t put_stats(char *out, size_t outlen, size_t at, const char *prefix,
                        const struct pp_simjtag_stats *j, const struct simsrv_counts *c)
{
    const struct { const char *key; uint64_t v; } kv[] = {
        { "tck", j->tck }, { "ir_scans", j->ir_scans }, { "dr_scans", j->dr_scans },
        { "dpacc", j->dpacc }, { "apacc", j->apacc }, { "waits", j->waits },
        { "sticky", j->sticky }, { "ap_reads", j->ap_reads }, { "ap_writes", j->ap_writes },
        { "resets", j->resets }, { "srst", j->srst }, { "round_trips", c->round_trips },
        { "bytes_in", c->bytes_in }, { "bytes_out", c->bytes_out },
        { "samples", c->samples }, { "queues", c->blinks },
    };

    for (size_t i = 0; i < sizeof(kv) / sizeof(kv[0]) && at < outlen; i++)
        at += (size_t)snprintf(out + at, outlen - at, " %s.%s=%" PRIu64,
                               prefix, kv[i].key, kv[i].v);
    return at;
}

static void stats_delta(const struct pp_simjtag_stats *now, const struct pp_simjtag_stats *base,
                        struct pp_simjtag_stats *d)
{
    d->tck = now->tck - base->tck;
    d->ir_scans = now->ir_scans - base->ir_scans;
    d->dr_scans = now->dr_scans - base->dr_scans;
    d->dpacc = now->dpacc - base->dpacc;
    d->apacc = now->apacc - base->apacc;
    d->waits = now->waits - base->waits;
    d->sticky = now->sticky - base->sticky;
    d->ap_reads = now->ap_reads - base->ap_reads;
    d->ap_writes = now->ap_writes - base->ap_writes;
    d->resets = now->resets - base->resets;
    d->srst = now->srst - base->srst;
}

/* The current client's figures, or the last one's once it has gone. */
static void cmd_stats(struct simsrv *s, char *out, size_t outlen)
{
    struct pp_simjtag_stats total, client;
    struct pp_sim_stats sim;
    bool connected = s->cl.fd >= 0;
    size_t at;

    pp_simjtag_get_stats(s->jtag, &total);
    pp_sim_get_stats(s->sim, &sim);
    stats_delta(connected ? &total : &s->last_jtag, &s->cl.base, &client);
    at = (size_t)snprintf(out, outlen, "ok clients=%u connected=%d faults=%" PRIu64, s->clients,
                          connected, sim.faults - s->faults_base);
    at = put_stats(out, outlen, at, "total", &total, &s->total);
    put_stats(out, outlen, at, "client", &client, connected ? &s->cl.counts : &s->last_counts);
}

static void cmd_stats_reset(struct simsrv *s, char *out, size_t outlen)
{
    struct pp_sim_stats sim;

    pp_sim_get_stats(s->sim, &sim);
    s->faults_base = sim.faults;
    pp_simjtag_reset_stats(s->jtag);
    memset(&s->total, 0, sizeof(s->total));
    memset(&s->cl.counts, 0, sizeof(s->cl.counts));
    memset(&s->cl.base, 0, sizeof(s->cl.base));
    memset(&s->last_counts, 0, sizeof(s->last_counts));
    memset(&s->last_jtag, 0, sizeof(s->last_jtag));
    reply(out, outlen, "ok stats reset");
}

void simsrv_ctl_exec(struct simsrv *s, const char *line, char *out, size_t outlen)
{
    char buf[SIMSRV_CTL_LINE], *argv[MAX_ARGS + 1], *save = NULL, *tok;
    int argc = 0;

    snprintf(buf, sizeof(buf), "%s", line);
    for (tok = strtok_r(buf, " \t\r", &save); tok && argc <= MAX_ARGS;
         tok = strtok_r(NULL, " \t\r", &save))
        argv[argc++] = tok;
    if (argc == 0) {
        reply(out, outlen, "error empty command; %s", commands_help);
    } else if (argc > MAX_ARGS) {
        reply(out, outlen, "error %s: too many arguments (at most %d)", argv[0], MAX_ARGS - 1);
    } else if (strcmp(argv[0], "fault") == 0) {
        cmd_fault(s, argc, argv, out, outlen);
    } else if (strcmp(argv[0], "wait") == 0) {
        cmd_wait(s, argc, argv, out, outlen);
    } else if (strcmp(argv[0], "apb-tck") == 0) {
        cmd_apb_tck(s, argc, argv, out, outlen);
    } else if (strcmp(argv[0], "addr") == 0) {
        cmd_addr(s, argc, argv, out, outlen);
    } else if (strcmp(argv[0], "write") == 0) {
        cmd_write(s, argc, argv, out, outlen);
    } else if (strcmp(argv[0], "read") == 0) {
        cmd_read(s, argc, argv, out, outlen);
    } else if (strcmp(argv[0], "stats") == 0 && argc == 1) {
        cmd_stats(s, out, outlen);
    } else if (strcmp(argv[0], "stats") == 0 && argc == 2 && strcmp(argv[1], "reset") == 0) {
        cmd_stats_reset(s, out, outlen);
    } else if (strcmp(argv[0], "stats") == 0) {
        reply(out, outlen, "error stats: expected 'stats' or 'stats reset'");
    } else if (strcmp(argv[0], "help") == 0) {
        reply(out, outlen, "ok %s", commands_help);
    } else if (strcmp(argv[0], "quit") == 0) {
        s->quit = true;
        reply(out, outlen, "ok quit");
    } else {
        reply(out, outlen, "error unknown command '%s'; %s", argv[0], commands_help);
    }
}

static bool send_line(int fd, const char *text)
{
    size_t len = strlen(text), off = 0;

    while (off < len) {
        ssize_t w = send(fd, text + off, len - off, MSG_NOSIGNAL);

        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return false;
        off += (size_t)w;
    }
    return send(fd, "\n", 1, MSG_NOSIGNAL) == 1;
}

/* Runs every complete line received; a line longer than the buffer is
 * refused and the connection closed, since its end cannot be found. */
void simsrv_ctl_on_input(struct simsrv *s, struct simsrv_ctl *c)
{
    char out[2048];
    ssize_t r = recv(c->fd, c->line + c->len, sizeof(c->line) - 1 - c->len, 0);
    char *nl;

    if (r < 0 && errno == EINTR)
        return;
    if (r <= 0) {
        simsrv_ctl_close(c);
        return;
    }
    c->len += (size_t)r;
    c->line[c->len] = '\0';
    while (c->fd >= 0 && (nl = memchr(c->line, '\n', c->len)) != NULL) {
        size_t used = (size_t)(nl - c->line) + 1;

        *nl = '\0';
        simsrv_ctl_exec(s, c->line, out, sizeof(out));
        for (char *p = out; (p = strpbrk(p, "\r\n")) != NULL; )
            *p = ' ';   /* one reply line, whatever the messages hold */
        if (!send_line(c->fd, out))
            simsrv_ctl_close(c);
        memmove(c->line, c->line + used, c->len - used);
        c->len -= used;
        c->line[c->len] = '\0';
    }
    if (c->fd >= 0 && c->len == sizeof(c->line) - 1) {
        send_line(c->fd, "error command line too long");
        simsrv_ctl_close(c);
    }
}

/* --- the `ctl` companion --------------------------------------------- */

static int read_reply(int fd, char *buf, size_t len)
{
    size_t n = 0;

    while (n + 1 < len) {
        ssize_t r = recv(fd, buf + n, len - 1 - n, 0);

        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            break;
        n += (size_t)r;
        if (memchr(buf, '\n', n))
            break;
    }
    buf[n] = '\0';
    buf[strcspn(buf, "\n")] = '\0';
    return n > 0 ? 0 : -1;
}

/* Exit status: 0 "ok", 1 "error", 2 usage, 3 no server or no reply. */
int simsrv_ctl_client(int argc, char **argv)
{
    char line[SIMSRV_CTL_LINE], rep[4096], err[256];
    size_t at = 0;
    int fd;

    /* argv: pmuprobe-sim ctl ADDR COMMAND [ARGS...] */
    if (argc < 4) {
        fprintf(stderr, "usage: pmuprobe-sim ctl PATH|PORT COMMAND [ARGS...]\n");
        return 2;
    }
    for (int i = 3; i < argc; i++) {
        int w = snprintf(line + at, sizeof(line) - at, "%s%s", i > 3 ? " " : "", argv[i]);

        if (w < 0 || (size_t)w >= sizeof(line) - at) {
            fprintf(stderr, "pmuprobe-sim ctl: command too long\n");
            return 2;
        }
        at += (size_t)w;
    }
    fd = simsrv_connect(argv[2], err, sizeof(err));
    if (fd < 0) {
        fprintf(stderr, "pmuprobe-sim ctl: %s (is pmuprobe-sim running with --control?)\n", err);
        return 3;
    }
    if (!send_line(fd, line) || read_reply(fd, rep, sizeof(rep)) < 0) {
        fprintf(stderr, "pmuprobe-sim ctl: no reply from %s\n", argv[2]);
        close(fd);
        return 3;
    }
    close(fd);
    printf("%s\n", rep);
    return strncmp(rep, "ok", 2) == 0 ? 0 : 1;
}
