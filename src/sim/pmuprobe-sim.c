/*
 * pmuprobe-sim - serves the simulated SoC of a target description as a
 * JTAG chain with an ADIv5 JTAG-DP over OpenOCD's remote_bitbang protocol
 * (0.12.0, spec/openocd.md 1), with a control channel for faults and
 * statistics.  See pmuprobe-sim(1).
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "simsrv.h"

#define MAX_FAULTS 32
#define DEFAULT_PORT 9999           /* what targets/openocd/ *.cfg expect */

enum { EXIT_OK = 0, EXIT_USAGE = 2, EXIT_SERVE = 3 };

struct opts {
    const char *target;
    unsigned port;
    const char *bind;               /* NULL: 127.0.0.1: it has no authentication */
    const char *unix_path;
    const char *control;
    const char *faults[MAX_FAULTS];
    unsigned nfaults;
    const char *sim_time;
    const char *port_file;
    const char *read_log;
    bool once;
};

/* The signal handler's only way out: a byte on this pipe wakes poll(). */
static int signal_pipe = -1;

static void on_signal(int sig)
{
    char b = (char)sig;
    int saved = errno;

    if (write(signal_pipe, &b, 1) < 0) {
        /* Pipe full: a wake-up is already pending. */
    }
    errno = saved;
}

static int setup_signals(char *err, size_t errlen)
{
    int p[2];
    struct sigaction sa;

    if (pipe(p) < 0) {
        snprintf(err, errlen, "pipe: %s", strerror(errno));
        return -1;
    }
    fcntl(p[0], F_SETFD, FD_CLOEXEC);
    fcntl(p[1], F_SETFD, FD_CLOEXEC);
    simsrv_set_nonblock(p[1]);
    signal_pipe = p[1];
    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    signal(SIGPIPE, SIG_IGN);
    return p[0];
}

static void usage(FILE *out)
{
    fprintf(out,
        "Usage: pmuprobe-sim [OPTIONS]\n"
        "       pmuprobe-sim ctl PATH|PORT COMMAND [ARGS...]\n"
        "Serve a simulated SoC as a JTAG-DP over OpenOCD's remote_bitbang protocol.\n"
        "\n"
        "Options:\n"
        "  -t, --target NAME|FILE  target description (default: a76-cluster)\n"
        "      --port N            loopback TCP port (default %d; 0 = any free port)\n"
        "      --bind ADDR         listen on this numeric address instead of 127.0.0.1\n"
        "                          (0.0.0.0 or :: = every interface).  The simulator has\n"
        "                          no authentication: anyone who reaches ADDR can drive\n"
        "                          it.  The control channel stays local\n"
        "      --unix PATH         listen on a UNIX socket instead (a stale socket at\n"
        "                          PATH is replaced; any other file is refused)\n"
        "      --control PATH|PORT control channel: a UNIX socket path (as --unix), or a\n"
        "                          loopback TCP port if all digits (0 = any free port)\n"
        "      --fault SPEC        inject a fault, e.g. cpu2:off, 0x81030000:error,\n"
        "                          dp:wait:500, dp:overrun; SPEC@TIME waits for that sim\n"
        "                          time, e.g. cpu1:off@200ms,cpu1:on@400ms (repeatable;\n"
        "                          a timed fault needs --sim-time realtime)\n"
        "      --sim-time MODE     deterministic or realtime target time\n"
        "      --port-file FILE    write the TCP port (and the control port) to FILE\n"
        "      --once              exit when the first client leaves\n"
        "      --read-log FILE     write one line per APB read: CLOCK_MONOTONIC ns,\n"
        "                          address and value (checks pmuprobe's sample times)\n"
        "  -h, --help              this help\n"
        "  -V, --version           print the version\n"
        "\n"
        "Control commands: fault SPEC, wait N, addr ADDR error|ok, write ADDR VALUE,\n"
        "read ADDR, apb-tck N, stats, stats reset, help, quit.  See pmuprobe-sim(1).\n",
        DEFAULT_PORT);
}

enum { OPT_PORT = 256, OPT_UNIX, OPT_CONTROL, OPT_FAULT, OPT_SIM_TIME, OPT_PORT_FILE, OPT_ONCE,
       OPT_BIND, OPT_READ_LOG };

static bool parse_port(const char *text, unsigned *port)
{
    char *end;
    unsigned long v = strtoul(text, &end, 10);

    if (!*text || *end || v > 65535)
        return false;
    *port = (unsigned)v;
    return true;
}

/* "HOST:PORT" (digits, dots, colons, brackets): an address, which only
 * --bind may name; --control takes a port or a UNIX socket path. */
static bool looks_like_address(const char *text)
{
    const char *colon = strrchr(text, ':');

    return colon && colon[1] && strspn(colon + 1, "0123456789") == strlen(colon + 1) &&
           strspn(text, "0123456789abcdefABCDEF.:[]") == strlen(text);
}

/* The listening addresses: loopback or a UNIX socket unless --bind says
 * otherwise, and the control channel always local: neither has authentication. */
static int check_addresses(const struct opts *o)
{
    if (o->bind && o->unix_path) {
        fprintf(stderr, "pmuprobe-sim: --bind sets the TCP address; --unix listens on a UNIX "
                "socket (give one of them)\n");
        return EXIT_USAGE;
    }
    if (o->control && looks_like_address(o->control)) {
        fprintf(stderr, "pmuprobe-sim: --control '%s': expected a loopback TCP port or a UNIX "
                "socket path; the control channel is never exposed beyond this host\n",
                o->control);
        return EXIT_USAGE;
    }
    return -1;
}

/* Returns -1 when the options are fine, else the exit status. */
static int parse_opts(int argc, char **argv, struct opts *o)
{
    static const struct option longopts[] = {
        { "target",    required_argument, NULL, 't' },
        { "port",      required_argument, NULL, OPT_PORT },
        { "bind",      required_argument, NULL, OPT_BIND },
        { "unix",      required_argument, NULL, OPT_UNIX },
        { "control",   required_argument, NULL, OPT_CONTROL },
        { "fault",     required_argument, NULL, OPT_FAULT },
        { "sim-time",  required_argument, NULL, OPT_SIM_TIME },
        { "port-file", required_argument, NULL, OPT_PORT_FILE },
        { "once",      no_argument,       NULL, OPT_ONCE },
        { "read-log",  required_argument, NULL, OPT_READ_LOG },
        { "help",      no_argument,       NULL, 'h' },
        { "version",   no_argument,       NULL, 'V' },
        { NULL, 0, NULL, 0 },
    };
    int ch;

    while ((ch = getopt_long(argc, argv, "t:hV", longopts, NULL)) != -1) {
        switch (ch) {
        case 't': o->target = optarg; break;
        case OPT_UNIX: o->unix_path = optarg; break;
        case OPT_BIND: o->bind = optarg; break;
        case OPT_CONTROL: o->control = optarg; break;
        case OPT_SIM_TIME: o->sim_time = optarg; break;
        case OPT_PORT_FILE: o->port_file = optarg; break;
        case OPT_ONCE: o->once = true; break;
        case OPT_READ_LOG: o->read_log = optarg; break;
        case OPT_PORT:
            if (!parse_port(optarg, &o->port)) {
                fprintf(stderr, "pmuprobe-sim: --port '%s': expected a TCP port, 0 to 65535%s\n",
                        optarg, strchr(optarg, ':') ? " (to listen on another address than "
                        "127.0.0.1, say so with --bind ADDR)" : "");
                return EXIT_USAGE;
            }
            break;
        case OPT_FAULT:
            if (o->nfaults == MAX_FAULTS) {
                fprintf(stderr, "pmuprobe-sim: too many --fault options (at most %d)\n",
                        MAX_FAULTS);
                return EXIT_USAGE;
            }
            o->faults[o->nfaults++] = optarg;
            break;
        case 'h': usage(stdout); return EXIT_OK;
        case 'V': printf("pmuprobe-sim %s\n", PACKAGE_VERSION); return EXIT_OK;
        default:
            fprintf(stderr, "Try 'pmuprobe-sim --help'.\n");
            return EXIT_USAGE;
        }
    }
    if (optind < argc) {
        fprintf(stderr, "pmuprobe-sim: unexpected argument '%s' (try 'pmuprobe-sim --help')\n",
                argv[optind]);
        return EXIT_USAGE;
    }
    return check_addresses(o);
}

/* --read-log: each APB read dated on this host's CLOCK_MONOTONIC, the
 * clock pmuprobe stamps its samples with, so a test on the same host can
 * check that a sample's window contains its read.  Buffered: flushed when
 * a client leaves and at exit. */
static void log_read(void *arg, uint32_t addr, uint32_t value)
{
    fprintf((FILE *)arg, "%llu 0x%08X 0x%08X\n", (unsigned long long)pp_mono_ns(), addr, value);
}

static int open_read_log(const struct opts *o, struct simsrv *s)
{
    if (!o->read_log)
        return EXIT_OK;
    s->read_log = fopen(o->read_log, "w");
    if (!s->read_log) {
        fprintf(stderr, "pmuprobe-sim: --read-log %s: %s\n", o->read_log, strerror(errno));
        return EXIT_USAGE;
    }
    pp_simjtag_set_read_hook(s->jtag, log_read, s->read_log);
    return EXIT_OK;
}

/* Target -> SoC -> TAP, as src/session.c builds the sim path. */
static int build_soc(const struct opts *o, struct simsrv *s)
{
    char path[512], err[512];

    if (pp_target_find(o->target, path, sizeof(path)) != PP_OK) {
        fprintf(stderr, "pmuprobe-sim: target '%s' not found: expected a file path or the "
                "name of a target in $PMUPROBE_TARGETS or the installed targets directory "
                "(e.g. a76-cluster, rpi3-a53, a7-soc)\n", o->target);
        return EXIT_USAGE;
    }
    if (pp_target_load(path, &s->target, err, sizeof(err)) != PP_OK) {
        fprintf(stderr, "pmuprobe-sim: %s\n", err);
        return EXIT_USAGE;
    }
    if (o->sim_time && strcmp(o->sim_time, "realtime") == 0) {
        s->target->time_mode = PP_TIME_REALTIME;
    } else if (o->sim_time && strcmp(o->sim_time, "deterministic") == 0) {
        s->target->time_mode = PP_TIME_DETERMINISTIC;
    } else if (o->sim_time) {
        fprintf(stderr, "pmuprobe-sim: --sim-time '%s': expected 'deterministic' or "
                "'realtime'\n", o->sim_time);
        return EXIT_USAGE;
    }
    s->target->time_asked = o->sim_time != NULL;
    s->sim = pp_sim_new(s->target, err, sizeof(err));
    if (!s->sim) {
        fprintf(stderr, "pmuprobe-sim: cannot build the simulated SoC from %s: %s\n",
                s->target->path, err);
        return EXIT_USAGE;
    }
    s->jtag = pp_simjtag_new(s->sim, err, sizeof(err));
    if (!s->jtag) {
        fprintf(stderr, "pmuprobe-sim: cannot build the JTAG-DP: %s\n", err);
        return EXIT_USAGE;
    }
    /* After the TAP: DP faults (dp:wait:N, dp:overrun) need it. */
    for (unsigned i = 0; i < o->nfaults; i++) {
        if (pp_sim_check_fault_time(s->sim, o->faults[i], err, sizeof(err)) != PP_OK ||
            pp_sim_apply_fault(s->sim, o->faults[i], err, sizeof(err)) != PP_OK) {
            fprintf(stderr, "pmuprobe-sim: --fault: %s\n", err);
            return EXIT_USAGE;
        }
    }
    return EXIT_OK;
}

/* Written to a temporary name first, so a script that waits for the file
 * never reads half of it. */
static int write_port_file(const char *file, unsigned port, int ctl_port)
{
    char tmp[1024];
    FILE *f;

    snprintf(tmp, sizeof(tmp), "%s.tmp", file);
    f = fopen(tmp, "w");
    if (!f) {
        fprintf(stderr, "pmuprobe-sim: --port-file %s: %s\n", file, strerror(errno));
        return EXIT_USAGE;
    }
    fprintf(f, "%u\n", port);
    if (ctl_port >= 0)
        fprintf(f, "%d\n", ctl_port);
    if (fclose(f) != 0 || rename(tmp, file) != 0) {
        fprintf(stderr, "pmuprobe-sim: --port-file %s: %s\n", file, strerror(errno));
        return EXIT_USAGE;
    }
    return EXIT_OK;
}

static int open_control(const struct opts *o, struct simsrv *s, int *ctl_port)
{
    char err[256];
    unsigned port;

    *ctl_port = -1;
    if (!o->control)
        return EXIT_OK;
    if (simsrv_is_port(o->control)) {
        if (!parse_port(o->control, &port)) {
            fprintf(stderr, "pmuprobe-sim: --control '%s': expected a TCP port, 0 to 65535, "
                    "or a UNIX socket path\n", o->control);
            return EXIT_USAGE;
        }
        s->ctl_listen_fd = simsrv_listen_tcp(port, &port, err, sizeof(err));
        *ctl_port = (int)port;
        if (s->ctl_listen_fd >= 0)
            fprintf(stderr, "pmuprobe-sim: control on 127.0.0.1:%u (loopback only)\n", port);
    } else {
        s->ctl_listen_fd = simsrv_listen_unix(o->control, err, sizeof(err));
        if (s->ctl_listen_fd >= 0) {
            snprintf(s->ctl_path, sizeof(s->ctl_path), "%s", o->control);
            fprintf(stderr, "pmuprobe-sim: control on unix:%s (UNIX socket, this host only)\n",
                    o->control);
        }
    }
    if (s->ctl_listen_fd < 0) {
        fprintf(stderr, "pmuprobe-sim: control channel: %s\n", err);
        return EXIT_SERVE;
    }
    return EXIT_OK;
}

/* Where it listens and who can reach it, on stderr: a
 * non-loopback --bind is allowed, since naming it is the consent, but it
 * never goes unremarked. */
static void say_where(const struct opts *o, const struct simsrv_bound *b)
{
    if (o->unix_path) {
        fprintf(stderr, "pmuprobe-sim: listening on unix:%s (UNIX socket, this host only)\n",
                o->unix_path);
        return;
    }
    if (b->loopback) {
        fprintf(stderr, "pmuprobe-sim: listening on %s (loopback only)\n", b->shown);
        return;
    }
    fprintf(stderr, "pmuprobe-sim: listening on %s (NOT loopback: reachable from the network)\n"
            "pmuprobe-sim: warning: --bind %s: the simulator has no authentication; anyone "
            "who can reach this address can drive the simulated SoC\n", b->shown, o->bind);
}

static int open_listener(const struct opts *o, struct simsrv *s, struct simsrv_bound *b)
{
    char err[256];

    memset(b, 0, sizeof(*b));
    if (o->unix_path) {
        s->listen_fd = simsrv_listen_unix(o->unix_path, err, sizeof(err));
        if (s->listen_fd >= 0)
            snprintf(s->unix_path, sizeof(s->unix_path), "%s", o->unix_path);
    } else if (o->bind) {
        s->listen_fd = simsrv_listen_bind(o->bind, o->port, b, err, sizeof(err));
    } else {
        s->listen_fd = simsrv_listen_tcp(o->port, &b->port, err, sizeof(err));
        b->loopback = true;
        snprintf(b->shown, sizeof(b->shown), "127.0.0.1:%u", b->port);
    }
    if (s->listen_fd < 0) {
        fprintf(stderr, "pmuprobe-sim: %s\n", err);
        return o->bind && strncmp(err, "--bind", 6) == 0 ? EXIT_USAGE : EXIT_SERVE;
    }
    return EXIT_OK;
}

/* The TAPs around the DAP (the target's jtag.chain), in OpenOCD's order. */
static void say_chain(const struct pp_target *t)
{
    const struct pp_jtag_chain *c = &t->jtag;

    if (!c->n)
        return;
    printf("pmuprobe-sim: JTAG chain, nearest TDO first:");
    for (unsigned i = 0; i < c->n; i++) {
        const struct pp_jtag_chain_tap *tp = &c->tap[i];

        if (tp->dap)
            printf("%s dap (IR 4, 0x%08X)", i ? "," : "", t->dp_idcode);
        else if (tp->no_idcode)
            printf("%s %s (IR %u, no IDCODE)", i ? "," : "", tp->name, tp->irlen);
        else
            printf("%s %s (IR %u, 0x%08X)", i ? "," : "", tp->name, tp->irlen, tp->ids[0]);
    }
    printf("\n");
}

static int open_sockets(const struct opts *o, struct simsrv *s)
{
    struct simsrv_bound b;
    int ctl_port, rc;

    rc = open_listener(o, s, &b);
    if (rc != EXIT_OK)
        return rc;
    rc = open_control(o, s, &ctl_port);
    if (rc != EXIT_OK)
        return rc;
    say_where(o, &b);
    printf("pmuprobe-sim: target %s, %u cores, JTAG-DP IDCODE 0x%08X, APB-AP #%u\n",
           s->target->name, s->target->ncores, s->target->dp_idcode, s->target->ap_index);
    say_chain(s->target);
    fflush(stdout);
    if (o->port_file && !o->unix_path)
        return write_port_file(o->port_file, b.port, ctl_port);
    return EXIT_OK;
}

static void accept_on(struct simsrv *s, int lfd, bool rbb)
{
    int fd = accept(lfd, NULL, NULL);

    if (fd < 0) {
        if (errno != EINTR && errno != EAGAIN && errno != ECONNABORTED)
            fprintf(stderr, "pmuprobe-sim: accept: %s\n", strerror(errno));
        return;
    }
    fcntl(fd, F_SETFD, FD_CLOEXEC);
    if (rbb)
        simsrv_rbb_attach(s, fd);
    else
        simsrv_ctl_attach(s, fd);
}

enum { SLOT_SIG, SLOT_RBB, SLOT_LISTEN, SLOT_CTL_LISTEN, SLOT_CTL0, NSLOTS = SLOT_CTL0 + SIMSRV_MAX_CTL };

/* One pass of the loop.  A second remote_bitbang client waits in the
 * listen backlog until the first leaves: serving one at a time that way
 * never closes a socket under an OpenOCD, which would abort it (spec
 * openocd.md 1.4). */
static void serve_once(struct simsrv *s)
{
    struct pollfd p[NSLOTS];

    for (size_t i = 0; i < NSLOTS; i++)
        p[i] = (struct pollfd){ .fd = -1 };
    p[SLOT_SIG] = (struct pollfd){ .fd = s->sig_fd, .events = POLLIN };
    if (s->cl.fd >= 0)
        p[SLOT_RBB] = (struct pollfd){ .fd = s->cl.fd, .events = simsrv_rbb_events(s) };
    else
        p[SLOT_LISTEN] = (struct pollfd){ .fd = s->listen_fd, .events = POLLIN };
    p[SLOT_CTL_LISTEN] = (struct pollfd){ .fd = s->ctl_listen_fd, .events = POLLIN };
    for (size_t i = 0; i < SIMSRV_MAX_CTL; i++)
        p[SLOT_CTL0 + i] = (struct pollfd){ .fd = s->ctl[i].fd, .events = POLLIN };

    if (poll(p, NSLOTS, -1) < 0) {
        if (errno != EINTR) {
            fprintf(stderr, "pmuprobe-sim: poll: %s\n", strerror(errno));
            s->quit = true;
        }
        return;
    }
    if (p[SLOT_SIG].revents) {
        fprintf(stderr, "pmuprobe-sim: signal received, exiting\n");
        s->quit = true;
        return;
    }
    for (size_t i = 0; i < SIMSRV_MAX_CTL; i++)
        if (p[SLOT_CTL0 + i].revents && s->ctl[i].fd >= 0)
            simsrv_ctl_on_input(s, &s->ctl[i]);
    if (p[SLOT_RBB].revents & POLLOUT)
        simsrv_rbb_on_output(s);
    else if (p[SLOT_RBB].revents && s->cl.fd >= 0)
        simsrv_rbb_on_input(s);
    if (p[SLOT_LISTEN].revents)
        accept_on(s, s->listen_fd, true);
    if (p[SLOT_CTL_LISTEN].revents)
        accept_on(s, s->ctl_listen_fd, false);
}

/* Removes the socket file this server bound, if that is still what the
 * path holds: a file put there since is not ours to delete. */
static void unlink_socket(const char *path)
{
    struct stat st;

    if (path[0] && lstat(path, &st) == 0 && S_ISSOCK(st.st_mode))
        unlink(path);
}

static void shutdown_server(struct simsrv *s)
{
    if (s->cl.fd >= 0)
        simsrv_rbb_detach(s, "server exiting");
    for (size_t i = 0; i < SIMSRV_MAX_CTL; i++)
        simsrv_ctl_close(&s->ctl[i]);
    if (s->listen_fd >= 0)
        close(s->listen_fd);
    if (s->ctl_listen_fd >= 0)
        close(s->ctl_listen_fd);
    unlink_socket(s->unix_path);
    unlink_socket(s->ctl_path);
    if (s->sig_fd >= 0)
        close(s->sig_fd);
    if (signal_pipe >= 0)
        close(signal_pipe);
    if (s->read_log)
        fclose(s->read_log);
    pp_simjtag_free(s->jtag);
    pp_sim_free(s->sim);
    pp_target_free(s->target);
    free(s);
}

static struct simsrv *new_server(bool once)
{
    struct simsrv *s = calloc(1, sizeof(*s));

    if (!s)
        return NULL;
    s->listen_fd = s->ctl_listen_fd = s->sig_fd = s->cl.fd = -1;
    for (size_t i = 0; i < SIMSRV_MAX_CTL; i++)
        s->ctl[i].fd = -1;
    s->once = once;
    return s;
}

int main(int argc, char **argv)
{
    struct opts o = { .target = "a76-cluster", .port = DEFAULT_PORT };
    struct simsrv *s;
    char err[256];
    int rc;

    if (argc > 1 && strcmp(argv[1], "ctl") == 0)
        return simsrv_ctl_client(argc, argv);
    rc = parse_opts(argc, argv, &o);
    if (rc >= 0)
        return rc;
    s = new_server(o.once);
    if (!s) {
        fprintf(stderr, "pmuprobe-sim: out of memory\n");
        return EXIT_SERVE;
    }
    rc = build_soc(&o, s);
    if (rc == EXIT_OK) {
        s->sig_fd = setup_signals(err, sizeof(err));
        if (s->sig_fd < 0) {
            fprintf(stderr, "pmuprobe-sim: %s\n", err);
            rc = EXIT_SERVE;
        }
    }
    if (rc == EXIT_OK)
        rc = open_read_log(&o, s);
    if (rc == EXIT_OK)
        rc = open_sockets(&o, s);
    while (rc == EXIT_OK && !s->quit)
        serve_once(s);
    shutdown_server(s);
    return rc;
}
