/*
 * cmd_convert.c - `pmuprobe convert [--format F] [-o OUT] FILE.bin`: turns a
 * binary capture (man/pmuprobe-bin.5) into any other format by replaying
 * its records through the same sinks `stream` writes with, so a converted
 * file is byte for byte what `stream --format F` would have written.
 */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "capture/binread.h"
#include "capture/sink.h"
#include "cli.h"

enum { OPT_LONG = 256, OPT_SEP, OPT_NO_METRICS, OPT_FORMAT };

void help_convert(FILE *out)
{
    fprintf(out,
        "Usage: pmuprobe convert [--format FORMAT] [-o OUT [-f]] [--long] [-x SEP]\n"
        "                        [--sep C] [--no-metrics] FILE.bin\n"
        "Turn a binary capture (stream --format bin) into another format.  FILE.bin\n"
        "may be '-' for standard input.  A capture cut short (the writer was killed)\n"
        "is converted up to its last complete record, with a warning.\n"
        "      --format FORMAT    csv, jsonl, perf, trace or bin (default: from the\n"
        "                         name of OUT: .csv .jsonl .json(trace) .txt(perf),\n"
        "                         else csv)\n"
        "  -o, --output OUT       write to OUT (default or '-': standard output)\n"
        "  -f, --force            overwrite OUT if it exists (without it an existing\n"
        "                         file is refused; devices such as /dev/null are fine;\n"
        "                         a symlink or hard link is replaced, not written through)\n"
        "      --long             csv: one row per sample, core and event\n"
        "  -x SEP                 csv in `perf stat -x SEP` field order\n"
        "      --sep C            csv field separator (default ',')\n"
        "      --no-metrics       leave out the derived metrics (IPC, MPKI, ...)\n"
        "OUT may not be FILE.bin itself (by any name, a link included): that would\n"
        "destroy the capture, so it is refused even with -f.\n"
        "Exit status: 0 converted, 2 bad arguments or FILE is not a readable\n"
        "capture, 4 the output could not be written (a closed pipe included), OUT\n"
        "exists without -f, or OUT is FILE.bin.\n");
}

struct convert_opts {
    const char *format, *output, *input;
    struct pp_sink_opts sink;
    bool force;
};

/* A separator is one character; "\t" spelled out is accepted for tabs. */
static bool parse_sep(const char *arg, char *sep)
{
    if (strcmp(arg, "\\t") == 0 || strcmp(arg, "tab") == 0) {
        *sep = '\t';
        return true;
    }
    if (strlen(arg) != 1 || arg[0] == '"' || arg[0] == '\n' || arg[0] == '\r')
        return false;
    *sep = arg[0];
    return true;
}

static const char *format_from_name(const char *path)
{
    static const struct { const char *ext, *format; } map[] = {
        { ".csv", "csv" }, { ".jsonl", "jsonl" }, { ".json", "trace" },
        { ".txt", "perf" }, { ".perf", "perf" }, { ".bin", "bin" },
    };
    const char *dot = path ? strrchr(path, '.') : NULL;

    for (size_t i = 0; dot && i < sizeof(map) / sizeof(map[0]); i++)
        if (strcmp(dot, map[i].ext) == 0)
            return map[i].format;
    return "csv";
}

/* The format is checked before OUT is created, so a typo leaves no empty
 * file behind. */
static int check_format(const char *format)
{
    char err[256];
    struct pp_sink *s = pp_sink_new(format, stdout, NULL, err, sizeof(err));

    if (!s) {
        cli_error("convert: %s", err);
        return EXIT_USAGE;
    }
    pp_sink_free(s);
    return EXIT_OK;
}

static int parse_convert_opts(int argc, char **argv, struct convert_opts *co)
{
    static const struct option longopts[] = {
        { "format", required_argument, NULL, OPT_FORMAT },
        { "output", required_argument, NULL, 'o' }, { "force", no_argument, NULL, 'f' },
        { "long", no_argument, NULL, OPT_LONG }, { "sep", required_argument, NULL, OPT_SEP },
        { "no-metrics", no_argument, NULL, OPT_NO_METRICS },
        { "help", no_argument, NULL, 'h' }, { NULL, 0, NULL, 0 },
    };
    int ch;

    *co = (struct convert_opts){ .sink = { .metrics = true } };
    while ((ch = cli_getopt(argc, argv, "o:fx:h", longopts, "convert")) != -1) {
        switch (ch) {
        case OPT_FORMAT: co->format = optarg; break;
        case 'o': co->output = optarg; break;
        case 'f': co->force = true; break;
        case OPT_LONG: co->sink.long_form = true; break;
        case OPT_NO_METRICS: co->sink.metrics = false; break;
        case 'x':
        case OPT_SEP:
            if (!parse_sep(optarg, &co->sink.sep)) {
                cli_error("convert: separator '%s': expected one character (or \\t)", optarg);
                return EXIT_USAGE;
            }
            co->sink.perf_x |= ch == 'x';
            break;
        case 'h': help_convert(stdout); return -1;
        default: return EXIT_USAGE;         /* said in one line */
        }
    }
    if (optind + 1 != argc) {
        cli_error(optind >= argc ? "convert: which capture? (pmuprobe convert FILE.bin)"
                                 : "convert: one capture at a time (pmuprobe convert "
                                   "FILE.bin [-o OUT])");
        return EXIT_USAGE;
    }
    co->input = argv[optind];
    if (!co->format)
        co->format = format_from_name(co->output && strcmp(co->output, "-") ? co->output : NULL);
    if (co->sink.long_form && co->sink.perf_x) {
        cli_error("convert: --long and -x are two different csv layouts; pick one");
        return EXIT_USAGE;
    }
    if ((co->sink.long_form || co->sink.sep) && strcmp(co->format, "csv") != 0) {
        cli_error("convert: --long, -x and --sep shape csv output, not %s", co->format);
        return EXIT_USAGE;
    }
    return check_format(co->format);
}

/* Replays every record; EXIT_OK or the exit code, having said why. */
static int replay(struct pp_binread *r, struct pp_sink *s, const char *in, const char *out)
{
    const struct pp_cap_sample *smp;
    struct pp_cap_summary sum;
    int rc;

    if (pp_sink_begin(s, pp_binread_meta(r)) != PP_OK) {
        cli_error("convert: %s", pp_sink_errmsg(s));
        return EXIT_OUTPUT;
    }
    while ((rc = pp_binread_next(r, &smp)) == 1)
        if (pp_sink_write(s, smp) != PP_OK) {
            cli_error("convert: %s", pp_sink_errmsg(s));
            return EXIT_OUTPUT;
        }
    if (rc < 0) {
        cli_error("convert: %s", pp_binread_errmsg(r));
        pp_sink_end(s, NULL);    /* what came before stays readable */
        return EXIT_USAGE;
    }
    if (pp_binread_truncated(r))
        cli_error("convert: warning: %s ends without its trailer after %llu records "
                  "(%zu bytes of a partial record ignored): the capture was cut short; "
                  "%s has no summary", in, (unsigned long long)pp_binread_records(r),
                  pp_binread_partial_bytes(r), out);
    if (pp_sink_end(s, pp_binread_summary(r, &sum) ? &sum : NULL) != PP_OK) {
        cli_error("convert: %s", pp_sink_errmsg(s));
        return EXIT_OUTPUT;
    }
    return EXIT_OK;
}

static int convert(const struct convert_opts *co, FILE *in, FILE *out)
{
    char err[256];
    struct pp_sink_opts so = co->sink;
    struct pp_binread *r;
    struct pp_sink *s;
    int rc;

    so.name = out == stdout ? "standard output" : co->output;
    s = pp_sink_new(co->format, out, &so, err, sizeof(err));
    if (!s) {                    /* only out of memory: the name was checked */
        cli_error("convert: %s", err);
        return EXIT_TARGET;
    }
    r = pp_binread_open(in, in == stdin ? "standard input" : co->input, err, sizeof(err));
    if (!r) {
        cli_error("convert: %s", err);
        pp_sink_free(s);
        return EXIT_USAGE;
    }
    rc = replay(r, s, in == stdin ? "standard input" : co->input, so.name);
    pp_binread_free(r);
    pp_sink_free(s);
    return rc;
}

/* Opening OUT with -f truncates it: when it is the capture being read
 * (the same name, a symlink or a hard link to it) the capture is gone
 * before its first record is read.  Compared by device and inode, so
 * every name of the file counts; only a regular file can be destroyed
 * this way (a device or a pipe as both ends is harmless here). */
static bool output_is_input(FILE *in, const char *output)
{
    struct stat si, so;

    if (!output || strcmp(output, "-") == 0 || stat(output, &so) != 0 ||
        fstat(fileno(in), &si) != 0)
        return false;
    return S_ISREG(so.st_mode) && so.st_dev == si.st_dev && so.st_ino == si.st_ino;
}

/* Converts with SIGPIPE ignored: a reader that closes the pipe early
 * (convert ... | head) is then a failed write (EPIPE), exit status 4 with
 * the reason, as in stream, not a silent death by SIGPIPE. */
static int convert_to(const struct convert_opts *co, FILE *in, FILE *out)
{
    struct sigaction ign, old;
    int rc;

    memset(&ign, 0, sizeof(ign));
    ign.sa_handler = SIG_IGN;
    sigemptyset(&ign.sa_mask);
    sigaction(SIGPIPE, &ign, &old);
    rc = convert(co, in, out);
    /* stdout is flushed here too, while a closed pipe is still EPIPE: left
     * to exit(), its last buffer would meet SIGPIPE.  After a failure
     * already reported, only the flush, not a second message. */
    if (out == stdout && rc != EXIT_OK)
        fflush(stdout);
    else if (!cli_close_output(out, co->output) && rc == EXIT_OK)
        rc = EXIT_OUTPUT;
    sigaction(SIGPIPE, &old, NULL);
    return rc;
}

int cmd_convert(const struct cli_opts *o, int argc, char **argv)
{
    struct convert_opts co;
    FILE *in, *out = stdout;
    int rc = parse_convert_opts(argc, argv, &co);

    (void)o;                     /* no target or path: a file in, a file out */
    if (rc != EXIT_OK)
        return rc < 0 ? EXIT_OK : rc;
    in = strcmp(co.input, "-") == 0 ? stdin : fopen(co.input, "rb");
    if (!in) {
        cli_error("convert: cannot open %s: %s", co.input, strerror(errno));
        return EXIT_USAGE;
    }
    if (output_is_input(in, co.output)) {
        cli_error("convert: the output %s is the capture being read (%s, the same file): "
                  "writing it would destroy the capture; write to another file", co.output,
                  in == stdin ? "standard input" : co.input);
        if (in != stdin)
            fclose(in);
        return EXIT_OUTPUT;
    }
    out = cli_create_output(co.output, co.force, strcmp(co.format, "bin") == 0 ? "wb" : "w");
    if (!out) {                  /* it said why: exists without --force, or cannot */
        if (in != stdin)
            fclose(in);
        return EXIT_OUTPUT;
    }
    rc = convert_to(&co, in, out);
    if (in != stdin)
        fclose(in);
    return rc;
}
