/*
 * trace_out.c - where the CLI writes the wire trace (--trace[=FILE],
 * PMUPROBE_TRACE): one line per record, seconds since the first record,
 * then the record's text (lib/trace.c writes it; pmuprobe.h says what
 * each layer shows).  The file is line buffered: a command that dies
 * leaves every record it made up to its last complete line.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"

struct trace_out {
    FILE *f;
    int level;
    uint64_t t0;
    bool started;
};

/* The one trace a pmuprobe run writes (global state stays in src/). */
static struct trace_out out;

static void write_rec(void *user, const struct pp_trace_rec *rec)
{
    struct trace_out *t = user;

    if (!t->started) {
        t->t0 = rec->t_ns;
        t->started = true;
    }
    fprintf(t->f, "%10.6f %s\n", (double)(rec->t_ns - t->t0) / 1e9, rec->text);
}

static int parse_level(const char *s, int *level)
{
    static const char *const names[] = { "apb", "dap", "wire" };

    for (int i = 0; i < 3; i++)
        if (strcmp(s, names[i]) == 0) {
            *level = PP_TRACE_APB + i;
            return EXIT_OK;
        }
    cli_error("--trace-level '%s': expected apb (APB accesses), dap (and each DP/AP "
              "access, the default) or wire (and each JTAG scan and round trip)", s);
    return EXIT_USAGE;
}

int cli_trace_open(const char *file, const char *level)
{
    int rc;

    out.level = PP_TRACE_DAP;
    if (level && (rc = parse_level(level, &out.level)) != EXIT_OK)
        return rc;
    if (!file || !*file || strcmp(file, "-") == 0) {
        out.f = stderr;
        return EXIT_OK;
    }
    out.f = fopen(file, "w");
    if (!out.f) {
        cli_error("--trace '%s': cannot create it: %s", file, strerror(errno));
        return EXIT_OUTPUT;
    }
    setvbuf(out.f, NULL, _IOLBF, 0);
    return EXIT_OK;
}

int cli_trace_start(struct pp_session *ps)
{
    if (!out.f)
        return EXIT_OK;
    if (pp_session_set_trace(ps, write_rec, &out, out.level) != PP_OK) {
        cli_error("--trace: out of memory");
        return EXIT_PATH;
    }
    return EXIT_OK;
}

int cli_trace_close(int rc)
{
    FILE *f = out.f;

    out.f = NULL;
    if (!f || f == stderr)
        return rc;
    if (fclose(f) != 0 && rc == EXIT_OK) {
        cli_error("--trace: writing the trace: %s", strerror(errno));
        return EXIT_OUTPUT;
    }
    return rc;
}
