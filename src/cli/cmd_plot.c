/*
 * cmd_plot.c - `pmuprobe plot [OPTIONS] CAPTURE -o FILE`: draws a binary
 * capture (man/pmuprobe-bin.5) as rates or metrics over time, one panel
 * per event or metric and one colour per core, to SVG or PNG
 * (lib/plot/plot.h).  The image is drawn in memory first, so a drawing
 * that fails leaves no file behind.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "capture/binread.h"
#include "cli.h"
#include "plot/plot.h"

enum { OPT_METRIC = 256, OPT_WIDTH, OPT_HEIGHT, OPT_FORMAT };

void help_plot(FILE *out)
{
    fprintf(out,
        "Usage: pmuprobe plot [OPTIONS] CAPTURE -o FILE.svg|FILE.png\n"
        "Draw a binary capture (stream --format bin) as event rates per second, or\n"
        "derived metrics, over time: one panel per event or metric, one colour per\n"
        "core, each core's line wider than the next one's so equal values stay\n"
        "visible.  Where a core had no trusted value (powered off, locked, read\n"
        "error, counter discontinuity) its line breaks and its lane along the\n"
        "panel's top is shaded, the legend naming the core and the cause; dropped\n"
        "samples (all cores) shade the whole panel.  CAPTURE may be '-' for\n"
        "standard input; a capture cut short is drawn up to its last complete\n"
        "record, with a warning.\n"
        "  -o, --output FILE      the image to write ('-': standard output)\n"
        "  -e, --events LIST      events to draw, comma-separated, by the name used\n"
        "                         when capturing or the catalog mnemonic (default:\n"
        "                         every event, unless --metric is given)\n"
        "      --metric NAME      a derived metric the capture has (IPC, L1D MPKI,\n"
        "                         branch miss %%, ...; case and dashes ignored, e.g.\n"
        "                         ipc, l1d-mpki); repeatable\n"
        "  -c, --cpu CPUS         cores to draw: cpu2, 0-3, 0,2 or all (default all)\n"
        "      --format FMT       svg or png (default: from FILE's extension)\n"
        "      --width PX         image width (default 1200)\n"
        "      --height PX        image height (default: 200 per panel plus title,\n"
        "                         time axis and legend)\n"
        "  -f, --force            overwrite FILE if it exists (a symlink or hard link\n"
        "                         is replaced, not written through)\n"
        "Exit status: 0 drawn, 2 bad arguments, CAPTURE unreadable or a name the\n"
        "capture lacks, 4 FILE could not be written.\n");
}

struct plot_opts {
    const char *input, *output, *events, *cpus, *format;
    const char *metrics[PP_CAP_MAX_METRICS];
    unsigned nmetrics;
    struct pp_plot_style style;
    bool force;
};

static bool parse_px(const char *opt, const char *arg, unsigned *px)
{
    uint32_t v;

    if (!parse_u32(arg, &v) || v == 0 || v > 20000) {
        cli_error("plot: %s '%s': expected pixels, 1 to 20000", opt, arg);
        return false;
    }
    *px = v;
    return true;
}

/* svg or png: --format wins, else the output's extension. */
static int pick_format(const struct plot_opts *po, enum pp_plot_format *fmt)
{
    const char *f = po->format, *dot = strrchr(po->output, '.');

    if (!f && dot && strchr(dot, '/') == NULL)
        f = dot + 1;
    *fmt = PP_PLOT_SVG;
    if (f && strcasecmp(f, "svg") == 0)
        return EXIT_OK;
    if (f && strcasecmp(f, "png") == 0) {
        *fmt = PP_PLOT_PNG;
        return EXIT_OK;
    }
    if (po->format)
        cli_error("plot: --format '%s': expected svg or png", po->format);
    else
        cli_error("plot: cannot tell the format of '%s' from its name: use .svg or .png, "
                  "or --format svg|png", po->output);
    return EXIT_USAGE;
}

static int parse_option(int ch, struct plot_opts *po)
{
    switch (ch) {
    case 'o': po->output = optarg; return EXIT_OK;
    case 'e': po->events = optarg; return EXIT_OK;
    case 'c': po->cpus = optarg; return EXIT_OK;
    case 'f': po->force = true; return EXIT_OK;
    case OPT_FORMAT: po->format = optarg; return EXIT_OK;
    case OPT_WIDTH: return parse_px("--width", optarg, &po->style.width) ? EXIT_OK : EXIT_USAGE;
    case OPT_HEIGHT:
        return parse_px("--height", optarg, &po->style.height) ? EXIT_OK : EXIT_USAGE;
    case OPT_METRIC:
        if (po->nmetrics == PP_CAP_MAX_METRICS) {
            cli_error("plot: too many --metric options (at most %u)", PP_CAP_MAX_METRICS);
            return EXIT_USAGE;
        }
        po->metrics[po->nmetrics++] = optarg;
        return EXIT_OK;
    case 'h': help_plot(stdout); return -1;
    default: return EXIT_USAGE;             /* said in one line */
    }
}

static int parse_plot_opts(int argc, char **argv, struct plot_opts *po)
{
    static const struct option longopts[] = {
        { "output", required_argument, NULL, 'o' }, { "events", required_argument, NULL, 'e' },
        { "metric", required_argument, NULL, OPT_METRIC }, { "cpu", required_argument, NULL, 'c' },
        { "format", required_argument, NULL, OPT_FORMAT },
        { "width", required_argument, NULL, OPT_WIDTH },
        { "height", required_argument, NULL, OPT_HEIGHT },
        { "force", no_argument, NULL, 'f' }, { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 },
    };
    int ch, rc;

    *po = (struct plot_opts){ .output = NULL };
    while ((ch = cli_getopt(argc, argv, "o:e:c:fh", longopts, "plot")) != -1)
        if ((rc = parse_option(ch, po)) != EXIT_OK)
            return rc;
    if (optind + 1 != argc) {
        cli_error(optind >= argc ? "plot: which capture? (pmuprobe plot CAPTURE -o FILE.svg)"
                                 : "plot: one capture at a time");
        return EXIT_USAGE;
    }
    po->input = argv[optind];
    if (!po->output) {
        cli_error("plot: where to? -o FILE.svg or -o FILE.png");
        return EXIT_USAGE;
    }
    return EXIT_OK;
}

/* Folds every record into the model; EXIT_OK or the exit code, having
 * said why. */
static int read_capture(struct pp_binread *r, struct pp_plot *p, const char *in)
{
    const struct pp_cap_sample *smp;
    int rc;

    while ((rc = pp_binread_next(r, &smp)) == 1)
        if (pp_plot_add(p, smp) != PP_OK) {
            cli_error("plot: %s: record %llu does not fit the capture's description "
                      "(or out of memory)", in, (unsigned long long)pp_binread_records(r));
            return EXIT_USAGE;
        }
    if (rc < 0) {
        cli_error("plot: %s", pp_binread_errmsg(r));
        return EXIT_USAGE;
    }
    if (pp_binread_truncated(r))
        cli_error("plot: warning: %s ends without its trailer after %llu records "
                  "(%zu bytes of a partial record ignored): the capture was cut short; "
                  "drawing what is complete", in, (unsigned long long)pp_binread_records(r),
                  pp_binread_partial_bytes(r));
    return EXIT_OK;
}

/* The drawing, in memory: *buf (malloc'd, *len bytes). */
static int draw(const struct plot_opts *po, const struct pp_plot *p, enum pp_plot_format fmt,
                char **buf, size_t *len)
{
    char err[256];
    FILE *mem = open_memstream(buf, len);
    int rc;

    if (!mem) {
        cli_error("plot: %s", strerror(errno));
        return EXIT_OUTPUT;
    }
    rc = pp_plot_render(p, &po->style, fmt, mem, err, sizeof(err));
    if (fclose(mem) != 0 && rc == PP_OK)
        rc = PP_E_NOMEM;
    if (rc == PP_E_INVAL) {
        cli_error("plot: %s", err);
        return EXIT_USAGE;
    }
    if (rc != PP_OK) {
        cli_error("plot: %s", rc == PP_E_NOMEM ? "out of memory" : err);
        return EXIT_OUTPUT;
    }
    return EXIT_OK;
}

static int write_image(const struct plot_opts *po, const char *buf, size_t len)
{
    FILE *out = cli_create_output(po->output, po->force, "wb");   /* prints why */
    bool ok;

    if (!out)
        return EXIT_OUTPUT;
    ok = fwrite(buf, 1, len, out) == len;
    if (!ok)
        cli_error("plot: writing '%s': %s", po->output, strerror(errno));
    if (!cli_close_output(out, po->output))
        ok = false;
    return ok ? EXIT_OK : EXIT_OUTPUT;
}

static int plot_model(const struct plot_opts *po, struct pp_binread *r, const char *in,
                      enum pp_plot_format fmt)
{
    const struct pp_cap_meta *m = pp_binread_meta(r);
    struct pp_plot_sel sel;
    struct pp_plot *p;
    char err[1200], *buf = NULL;
    size_t len = 0;
    int rc;

    if (pp_plot_select(m, po->events, po->metrics, po->nmetrics, po->cpus, &sel, err,
                       sizeof(err)) != PP_OK) {
        cli_error("plot: %s: %s", in, err);
        return EXIT_USAGE;
    }
    p = pp_plot_new(m, &sel);
    if (!p) {
        cli_error("plot: out of memory");
        return EXIT_OUTPUT;
    }
    rc = read_capture(r, p, in);
    if (rc == EXIT_OK) {
        rc = draw(po, p, fmt, &buf, &len);
        pp_plot_release_fonts();
    }
    if (rc == EXIT_OK)
        rc = write_image(po, buf, len);
    free(buf);
    pp_plot_free(p);
    return rc;
}

int cmd_plot(const struct cli_opts *o, int argc, char **argv)
{
    struct plot_opts po;
    enum pp_plot_format fmt;
    struct pp_binread *r;
    const char *in;
    char err[256];
    FILE *f;
    int rc = parse_plot_opts(argc, argv, &po);

    (void)o;                     /* no target or path: a file in, an image out */
    if (rc != EXIT_OK)
        return rc < 0 ? EXIT_OK : rc;
    if ((rc = pick_format(&po, &fmt)) != EXIT_OK)
        return rc;
    if (!cli_output_ok(po.output, po.force))   /* before reading a long capture */
        return EXIT_OUTPUT;
    in = strcmp(po.input, "-") == 0 ? "standard input" : po.input;
    f = strcmp(po.input, "-") == 0 ? stdin : fopen(po.input, "rb");
    if (!f) {
        cli_error("plot: cannot open %s: %s", po.input, strerror(errno));
        return EXIT_USAGE;
    }
    r = pp_binread_open(f, in, err, sizeof(err));
    if (!r) {
        cli_error("plot: %s", err);
        rc = EXIT_USAGE;
    } else {
        rc = plot_model(&po, r, in, fmt);
        pp_binread_free(r);
    }
    if (f != stdin)
        fclose(f);
    return rc;
}
