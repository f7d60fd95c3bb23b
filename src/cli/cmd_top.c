/*
 * cmd_top.c - `pmuprobe top`: a live view of event rates and derived
 * metrics per core, refreshed about ten times a second while the capture
 * engine samples faster (default every 10 ms).
 *
 * The capture setup is the one `stream` and `stat` use (capture_cli.h);
 * its output is the model of topview.c.  This file runs the display loop:
 * an ncurses screen with keys, or --batch frames on stdout (like top -b)
 * for pipes, logs and tests.
 */
#include <curses.h>
#include <errno.h>
#include <getopt.h>
#include <langinfo.h>
#include <locale.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "capture_cli.h"
#include "topview.h"

#define NS_PER_MS 1000000ull
#define REFRESH_DEFAULT (100 * NS_PER_MS)
#define INTERVAL_DEFAULT (10 * NS_PER_MS)

enum { OPT_REFRESH = 500 };

/* Set by the handler, read by the display loop (src/, one per process). */

void help_top(FILE *out)
{
    fprintf(out,
        "Usage: pmuprobe [OPTIONS] top [-c CPUS] [-e [TYPE:]EVENTS]... [-i INTERVAL]\n"
        "                  [-d DURATION] [-n FRAMES] [--refresh TIME] [-b]\n"
        "Show, per core, the chosen events as rates (per second over the last\n"
        "refresh), sparklines of their recent history and the derived metrics (IPC,\n"
        "MPKI, miss %%), with a GAP marker and its cause for a core that cannot be\n"
        "read.  The counters are sampled every INTERVAL (default 10ms), faster than\n"
        "the screen is refreshed.\n");
    capcli_help_options(out, &(const struct capcli_help){ "10ms", false, true });
    fprintf(out,
        "  -n, --frames N         stop after N display frames, 1 to 4294967295;\n"
        "                         without -d or -n: until q or Ctrl-C\n"
        "      --count N          the same as --frames\n"
        "      --refresh TIME     display refresh period, 10ms to 1m (default 100ms; a\n"
        "                         bare number is milliseconds)\n"
        "  -b, --batch            no screen: print a plain-text frame per refresh to\n"
        "                         stdout (for pipes and logs, like top -b)\n"
        "Keys: q quit, space pause the display (sampling goes on), m metrics or\n"
        "events, c cycle the core order (cpu, busiest: equal rates keep cpu order)\n"
        "and a one-core large view, h show or hide the key line.  Block characters\n"
        "need a UTF-8 locale; ASCII is used otherwise.  The view ends when the\n"
        "capture does (-d, -n, q, Ctrl-C).\n"
        "Exit status as for stream: 0 done, 1 a core was refused, failed or had\n"
        "gaps, 2 bad arguments, 3 the access path failed, 4 stdout failed (--batch).\n");
}

struct top_opts {
    struct capcli_opts cap;
    uint64_t refresh_ns;
    unsigned frames;             /* 0: until the capture ends */
    bool batch;
};

/* ---- options ----------------------------------------------------------------------- */

/* A bare number is milliseconds, as for -i. */
static const struct cli_time refresh_time = { "--refresh", 10 * NS_PER_MS, 60000 * NS_PER_MS, true };

static int take_refresh(const char *arg, struct top_opts *to)
{
    return cli_parse_time(&refresh_time, arg, &to->refresh_ns) ? 1 : -1;
}

static int top_option(int ch, const char *arg, void *ctx)
{
    struct top_opts *to = ctx;
    uint64_t n;

    switch (ch) {
    case 'b': to->batch = true; return 1;
    case OPT_REFRESH: return take_refresh(arg, to);
    case 'n':
        /* Taken before the shared -n: in top it counts frames, as in top(1). */
        if (!cli_parse_count("--frames", arg, 1, UINT32_MAX, "a number of frames", &n))
            return -1;
        to->frames = (unsigned)n;
        return 1;
    default:
        return 0;
    }
}

static int parse_top_opts(int argc, char **argv, struct top_opts *to)
{
    static const struct option longopts[] = {
        CAPCLI_LONGOPTS,
        { "frames", required_argument, NULL, 'n' },
        { "ring", required_argument, NULL, CAPOPT_RING },
        { "policy", required_argument, NULL, CAPOPT_POLICY },
        { "refresh", required_argument, NULL, OPT_REFRESH },
        { "batch", no_argument, NULL, 'b' },
        { NULL, 0, NULL, 0 },
    };
    int rc;

    memset(to, 0, sizeof(*to));
    to->cap.interval_ns = INTERVAL_DEFAULT;
    to->refresh_ns = REFRESH_DEFAULT;
    rc = capcli_parse(argc, argv, CAPCLI_SHORTOPTS "b", longopts, "top", &to->cap,
                      top_option, to, help_top);
    if (rc != EXIT_OK)
        return rc;
    if (!to->batch && (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO))) {
        cli_error("top: the live view needs a terminal; use --batch (-b) for pipes and logs");
        return EXIT_USAGE;
    }
    return EXIT_OK;
}

/* ---- signals and time ------------------------------------------------------------------ */

/* The next display deadline; after a stall, start again from now rather
 * than drawing a burst of frames to catch up. */
static uint64_t next_tick(uint64_t next, uint64_t refresh_ns)
{
    uint64_t t = pp_mono_ns();

    next += refresh_ns;
    return next > t ? next : t + refresh_ns;
}

static void stop_and_wait(struct pp_cap *cap)
{
    pp_cap_stop(cap);
    pp_cap_wait(cap, UINT64_MAX);
}

/* ---- the capture's output --------------------------------------------------------------- */

/*
 * The topview model wrapped so that a failed display (--batch: stdout
 * closed or full) is the capture's stop reason.  The display writes on
 * this thread, not the capture's writer, so the failure is handed over
 * through `failed`; end() then reports it and the engine makes the stop
 * PP_CAP_STOP_SINK with msg, as when a stream's sink fails.  Without this
 * the stop the display asked for read as "stopped on request (signal)".
 */
struct top_out {
    struct pp_cap_out model;
    char msg[256];               /* written before failed is set */
    atomic_bool failed;
    uint64_t bytes;              /* --batch: frames written to stdout (this thread) */
};

static int tout_begin(void *ctx, const struct pp_cap_meta *m)
{
    struct top_out *t = ctx;

    return t->model.begin(t->model.ctx, m);
}

static int tout_write(void *ctx, const struct pp_cap_sample *s)
{
    struct top_out *t = ctx;

    return t->model.write(t->model.ctx, s);
}

static int tout_end(void *ctx, const struct pp_cap_summary *sum)
{
    struct top_out *t = ctx;
    int rc = t->model.end(t->model.ctx, sum);

    return atomic_load(&t->failed) ? PP_E_IO : rc;
}

static const char *tout_errmsg(void *ctx)
{
    struct top_out *t = ctx;

    return atomic_load(&t->failed) ? t->msg : t->model.errmsg(t->model.ctx);
}

static void top_out_init(struct top_out *t, struct topview *tv)
{
    t->model = topview_out(tv);
    t->msg[0] = '\0';
    t->bytes = 0;
    atomic_init(&t->failed, false);
}

/* errno holds why the frame could not be written (EPIPE, ENOSPC). */
static void display_failed(struct top_out *t, const char *what)
{
    snprintf(t->msg, sizeof(t->msg), "writing %s: %s", what, strerror(errno ? errno : EIO));
    atomic_store(&t->failed, true);
}

/* ---- --batch ----------------------------------------------------------------------------- */

/* One frame to stdout, counted for the summary once it is out: drawn in
 * memory first, so what a failed write left unsent is not counted.  0 or
 * -1 (errno says why). */
static int print_frame(struct top_out *out, const struct topview_frame *f)
{
    char *buf = NULL;
    size_t len = 0, done;
    FILE *m = open_memstream(&buf, &len);

    if (!m)
        return -1;
    if (topdraw_text(m, f) != 0 || fclose(m) != 0) {
        free(buf);
        return -1;
    }
    errno = 0;
    done = fwrite(buf, 1, len, stdout);
    free(buf);
    if (done != len || fflush(stdout) != 0 || ferror(stdout))
        return -1;
    out->bytes += len;
    return 0;
}

/* A frame is worth a line when something new arrived beyond the baseline. */
static bool worth_printing(const struct topview_frame *f)
{
    return f->period_samples > 0 && f->samples > 1;
}

static int run_batch(struct pp_cap *cap, struct topview *tv, struct top_out *out,
                     const struct top_opts *to)
{
    struct topview_frame *f = topview_frame_new();
    uint64_t next = pp_mono_ns() + to->refresh_ns;
    unsigned shown = 0;
    bool done = false;

    if (!f) {
        stop_and_wait(cap);
        cli_error("out of memory");
        return EXIT_PATH;
    }
    while (!done) {
        uint64_t t = pp_mono_ns();

        done = pp_cap_wait(cap, next > t ? next - t : 0);
        if (capcli_stop_signal() && !done)
            pp_cap_stop(cap);
        next = next_tick(next, to->refresh_ns);
        topview_tick(tv, f);
        if (!worth_printing(f))
            continue;
        if (print_frame(out, f) != 0) {
            /* The summary says why (the capture's stop reason). */
            display_failed(out, "stdout");
            stop_and_wait(cap);
            free(f);
            return EXIT_OUTPUT;
        }
        if (to->frames && ++shown >= to->frames && !done) {
            pp_cap_finish(cap);          /* the planned end: not "stopped on request" */
            pp_cap_wait(cap, UINT64_MAX);
            done = true;
        }
    }
    free(f);
    return EXIT_OK;
}

/* ---- the screen ---------------------------------------------------------------------------- */

struct screen {
    SCREEN *scr;
    struct topdraw_view view;
    struct topview_frame *shown, *scratch;   /* scratch takes ticks while paused */
};

static bool screen_open(struct screen *sc)
{
    const char *term = getenv("TERM");

    memset(sc, 0, sizeof(*sc));
    sc->shown = topview_frame_new();
    sc->scratch = topview_frame_new();
    if (!sc->shown || !sc->scratch) {
        cli_error("out of memory");
        return false;
    }
    /* ncursesw draws multibyte characters in the locale's encoding. */
    setlocale(LC_CTYPE, "");
    sc->view = (struct topdraw_view){ .help = true,
                                      .utf8 = strcmp(nl_langinfo(CODESET), "UTF-8") == 0 };
    sc->scr = newterm(NULL, stdout, stdin);
    if (!sc->scr) {
        cli_error("top: cannot drive the terminal (TERM=%s); use --batch (-b)",
                  term ? term : "unset");
        return false;
    }
    cbreak();
    noecho();
    keypad(stdscr, TRUE);
    curs_set(0);
    topdraw_start();
    return true;
}

static void screen_close(struct screen *sc)
{
    if (sc->scr) {
        endwin();
        delscreen(sc->scr);
    }
    free(sc->shown);
    free(sc->scratch);
    setlocale(LC_CTYPE, "C");
}

/* Handles one key; false when it asks to quit. */
static bool screen_key(struct screen *sc, int ch)
{
    switch (ch) {
    case 'q': case 'Q':
        return false;
    case ' ':
        sc->view.paused = !sc->view.paused;
        break;
    case 'm': case 'M':
        sc->view.metrics = !sc->view.metrics;
        break;
    case 'c': case 'C':
        topdraw_cycle(&sc->view, sc->shown->ncores);
        break;
    case 'h': case 'H':
        sc->view.help = !sc->view.help;
        break;
    default:                    /* KEY_RESIZE and others: just redraw */
        break;
    }
    return true;
}

static int wait_ms(uint64_t next)
{
    uint64_t t = pp_mono_ns();

    return next > t ? (int)((next - t + NS_PER_MS - 1) / NS_PER_MS) : 0;
}

static void run_screen(struct pp_cap *cap, struct topview *tv, struct screen *sc,
                       const struct top_opts *to)
{
    uint64_t next = pp_mono_ns() + to->refresh_ns;
    unsigned frames = 0;

    topdraw_screen(sc->shown, &sc->view);
    while (!pp_cap_wait(cap, 0)) {
        int ch;

        timeout(wait_ms(next));
        ch = getch();
        if (ch != ERR && !screen_key(sc, ch)) {
            capcli_stop_reason("the q key");
            stop_and_wait(cap);
            return;
        }
        if (capcli_stop_signal())
            pp_cap_stop(cap);
        if (pp_mono_ns() >= next) {
            next = next_tick(next, to->refresh_ns);
            topview_tick(tv, sc->view.paused ? sc->scratch : sc->shown);
            if (to->frames && !sc->view.paused && sc->shown->period_samples &&
                ++frames >= to->frames)
                pp_cap_finish(cap);
        } else if (ch == ERR) {
            continue;
        }
        topdraw_screen(sc->shown, &sc->view);
    }
}

/* ---- the command ------------------------------------------------------------------------------ */

static int worse(int a, int b)
{
    return a > b ? a : b;
}

/* out must outlive the capture (pp_cap_start keeps the pointer). */
static int start(struct pp_cap *cap, const struct pp_cap_out *out)
{
    int rc = pp_cap_start(cap, out);

    if (rc == PP_OK)
        return EXIT_OK;
    cli_error("cannot start the capture: %s", pp_strerror(rc));
    return rc == PP_E_NOMEM ? EXIT_PATH : EXIT_TARGET;
}

/* *bytes: what --batch wrote to stdout, CAPCLI_BYTES_UNKNOWN on the screen. */
static int run(struct pp_cap *cap, struct topview *tv, const struct top_opts *to,
               uint64_t *bytes)
{
    struct top_out tout;
    struct pp_cap_out out = { .ctx = &tout, .begin = tout_begin, .write = tout_write,
                              .end = tout_end, .errmsg = tout_errmsg };
    struct screen sc;
    int rc;

    top_out_init(&tout, tv);
    *bytes = CAPCLI_BYTES_UNKNOWN;
    if (to->batch) {
        rc = start(cap, &out);
        if (rc == EXIT_OK)
            rc = run_batch(cap, tv, &tout, to);
        *bytes = tout.bytes;
        return rc;
    }
    if (!screen_open(&sc)) {
        screen_close(&sc);
        return EXIT_USAGE;
    }
    rc = start(cap, &out);
    if (rc == EXIT_OK)
        run_screen(cap, tv, &sc, to);
    screen_close(&sc);
    return rc;
}

int cmd_top(const struct cli_opts *o, int argc, char **argv)
{
    struct capcli_signals old;
    struct top_opts to;
    struct session s;
    struct pp_cap *cap;
    struct topview *tv;
    uint64_t bytes;
    int worst, rc = parse_top_opts(argc, argv, &to);

    if (rc != EXIT_OK)
        return rc < 0 ? EXIT_OK : rc;
    rc = capcli_setup(o, &to.cap, &s, &cap, &worst);
    if (rc != EXIT_OK)
        return rc;
    tv = topview_new();
    if (!tv) {
        cli_error("out of memory");
        capcli_close(cap, &s);
        return EXIT_PATH;
    }
    /* Before the screen starts: ncurses then keeps our handlers instead of
     * its own, which would exit without stopping the capture. */
    capcli_signals_catch(&old);
    rc = run(cap, tv, &to, &bytes);
    capcli_signals_restore(&old);
    if (rc == EXIT_OK || rc == EXIT_OUTPUT) {
        if (!to.cap.quiet)
            capcli_summary_bytes(cap, "top", to.batch ? "stdout" : "the screen", bytes);
        else
            capcli_report_failure(cap, to.batch ? "stdout" : "the screen");
        rc = worse(rc, capcli_exit_code(cap));
    }
    rc = worse(rc, worst);
    capcli_close(cap, &s);
    topview_free(tv);
    return rc;
}
