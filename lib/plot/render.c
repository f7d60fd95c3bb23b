/*
 * render.c - the plot model drawn with cairo (plot.h): SVG through
 * cairo's SVG surface, PNG through an image surface.
 *
 * Layout, top to bottom: title and a line of facts; one panel per event
 * or metric, stacked, sharing the time axis (labelled under the last);
 * the legend (one colour per core, one shade per reason for a band).
 * Colours belong to the core's index in the capture, not to the
 * selection, so cpu2 keeps its colour whatever --cpu says.  Nothing here
 * reads the clock or the environment: the same model gives the same bytes.
 */
#include <cairo.h>
#include <cairo-svg.h>
#include <fontconfig/fontconfig.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "errmsg.h"
#include "pmuprobe.h"
#include "plot/plot.h"

#define FONT        "sans-serif"
#define TITLE_H     58.0
#define MARGIN_L    86.0
#define MARGIN_R    28.0
#define PANEL_HEAD  26.0     /* the panel's name above its plot area */
#define PANEL_GAP   16.0
#define AXIS_H      44.0     /* time tick labels and "time (s)" */
#define LEGEND_ROW  22.0
#define LEGEND_PAD  10.0
#define SWATCH_W    26.0
#define LINE_W      1.6    /* the last core's line */
#define LINE_STEP   1.2    /* each core before it a step wider, up to LINE_NEST steps */
#define LINE_NEST   4u
#define LANE_H      14.0   /* a core's band: its lane at the plot's top */
#define MIN_PLOT_H  40.0
#define DEFAULT_W   1200u
#define DEFAULT_PLOT_H 200.0

struct rgb {
    double r, g, b;
};

/* Ten hues that stay apart on white and for the common colour
 * blindnesses (the "tableau 10" set). */
static const struct rgb core_colours[] = {
    { 0.122, 0.467, 0.706 }, { 1.000, 0.498, 0.055 }, { 0.173, 0.627, 0.173 },
    { 0.839, 0.153, 0.157 }, { 0.580, 0.404, 0.741 }, { 0.549, 0.337, 0.294 },
    { 0.890, 0.467, 0.761 }, { 0.498, 0.498, 0.498 }, { 0.737, 0.741, 0.133 },
    { 0.090, 0.745, 0.812 },
};

static const struct rgb ink = { 0.15, 0.15, 0.15 };
static const struct rgb faint = { 0.40, 0.40, 0.40 };
static const struct rgb grid = { 0.88, 0.88, 0.88 };

static struct rgb core_colour(unsigned core)
{
    return core_colours[core % (sizeof(core_colours) / sizeof(core_colours[0]))];
}

/* The core's place among the selected ones, and how many there are. */
static unsigned core_slot(const struct pp_plot *p, unsigned core, unsigned *n)
{
    unsigned slot = 0;

    *n = 0;
    for (unsigned k = 0; k < p->meta.ncores; k++) {
        if (!(p->sel.cores >> k & 1u))
            continue;
        slot += k < core;
        (*n)++;
    }
    return slot;
}

/* Series are drawn in core order, each narrower than the one before, so
 * where cores have the same value every line still shows as a stripe
 * around the next instead of being hidden under it. */
static double core_line_w(const struct pp_plot *p, unsigned core)
{
    unsigned n, slot = core_slot(p, core, &n), wider = n - 1 - slot;

    return LINE_W + LINE_STEP * (wider < LINE_NEST ? wider : LINE_NEST);
}

/* Shades for bands: grey for a core that is off, warm for locks and
 * authentication, violet for a discontinuity, red for lost samples. */
static struct rgb reason_colour(unsigned reason)
{
    if (reason == PP_PLOT_DROP)
        return (struct rgb){ 0.85, 0.10, 0.10 };
    if (reason >= PP_PLOT_WHY)
        return (struct rgb){ 0.55, 0.30, 0.75 };
    if (reason == 1 || reason == 2)      /* debug-off, core-off */
        return (struct rgb){ 0.35, 0.35, 0.35 };
    return (struct rgb){ 0.95, 0.60, 0.10 };
}

struct layout {
    double w, h;
    double x0, x1;           /* plot area, horizontally */
    double plot_h;           /* plot area height of one panel */
    double legend_y, legend_h;
    double tmax;
};

static void set_rgb(cairo_t *cr, struct rgb c)
{
    cairo_set_source_rgb(cr, c.r, c.g, c.b);
}

static void font(cairo_t *cr, double size, bool bold)
{
    cairo_select_font_face(cr, FONT, CAIRO_FONT_SLANT_NORMAL,
                           bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL);
    cairo_set_font_size(cr, size);
}

static double text_w(cairo_t *cr, const char *s)
{
    cairo_text_extents_t e;

    cairo_text_extents(cr, s, &e);
    return e.x_advance;
}

/* align: 0 left, 0.5 centre, 1 right of x. */
static void text_at(cairo_t *cr, double x, double y, double align, const char *s)
{
    cairo_move_to(cr, x - align * text_w(cr, s), y);
    cairo_show_text(cr, s);
}

/* ---- legend ---------------------------------------------------------------- */

struct legend_item {
    char text[PP_PLOT_LEGEND_LEN];
    bool band;               /* a shaded swatch, not a line */
    unsigned key;            /* core index or reason */
};

#define MAX_ITEMS (PP_CAP_MAX_CORES + PP_PLOT_NREASONS)

static bool reason_used(const struct pp_plot *p, unsigned reason)
{
    for (size_t b = 0; b < p->nbands; b++)
        if (p->bands[b].reason == reason)
            return true;
    return false;
}

/* "cpu1, cpu2: no value (core powered off)": whose values a reason took
 * (dropped samples take every core's). */
static void band_text(const struct pp_plot *p, unsigned reason, char *buf, size_t n)
{
    uint64_t cores = 0;
    size_t len = 0;

    for (size_t b = 0; b < p->nbands; b++) {
        const struct pp_plot_band *band = &p->bands[b];

        if (band->reason == reason && band->core < PP_CAP_MAX_CORES)
            cores |= (uint64_t)1 << band->core;
    }
    buf[0] = '\0';
    if (reason == PP_PLOT_DROP)
        len = (size_t)snprintf(buf, n, "all cores");
    for (unsigned k = 0; k < p->meta.ncores && len < n; k++)
        if (cores >> k & p->sel.cores >> k & 1u)
            len += (size_t)snprintf(buf + len, n - len, "%scpu%u", len ? ", " : "",
                                    p->meta.core[k].cpu);
    if (len < n)
        snprintf(buf + len, n - len, ": no value (%s)", pp_plot_reason_str(reason));
}

static unsigned legend_items(const struct pp_plot *p, struct legend_item *it)
{
    unsigned n = 0;

    for (unsigned k = 0; k < p->meta.ncores; k++) {
        if (!(p->sel.cores >> k & 1u))
            continue;
        it[n] = (struct legend_item){ .key = k };
        snprintf(it[n++].text, sizeof(it->text), "cpu%u %s", p->meta.core[k].cpu,
                 p->meta.core[k].type);
    }
    for (unsigned r = 0; r < PP_PLOT_NREASONS; r++) {
        if (!reason_used(p, r))
            continue;
        it[n] = (struct legend_item){ .band = true, .key = r };
        band_text(p, r, it[n++].text, sizeof(it->text));
    }
    return n;
}

unsigned pp_plot_legend(const struct pp_plot *p, char (*text)[PP_PLOT_LEGEND_LEN], unsigned max)
{
    struct legend_item it[MAX_ITEMS];
    unsigned n = legend_items(p, it);

    for (unsigned i = 0; i < n && i < max; i++)
        memcpy(text[i], it[i].text, PP_PLOT_LEGEND_LEN);   /* same size, terminated */
    return n;
}

/* Flows the items into rows as wide as the page; returns the rows used
 * and, with draw, draws them from y. */
static unsigned legend_flow(cairo_t *cr, const struct pp_plot *p, double w, double y, bool draw)
{
    struct legend_item it[MAX_ITEMS];
    unsigned n = legend_items(p, it), rows = 1;
    double x = MARGIN_L;

    font(cr, 12, false);
    for (unsigned i = 0; i < n; i++) {
        double iw = SWATCH_W + 6 + text_w(cr, it[i].text) + 22;

        if (x > MARGIN_L && x + iw > w - MARGIN_R) {
            x = MARGIN_L;
            rows++;
        }
        if (draw) {
            double cy = y + (rows - 1) * LEGEND_ROW + LEGEND_ROW / 2;

            if (it[i].band) {
                struct rgb c = reason_colour(it[i].key);

                cairo_set_source_rgba(cr, c.r, c.g, c.b, 0.22);
                cairo_rectangle(cr, x, cy - 7, SWATCH_W, 14);
                cairo_fill(cr);
            } else {
                set_rgb(cr, core_colour(it[i].key));
                cairo_set_line_width(cr, 3.0);
                cairo_move_to(cr, x, cy);
                cairo_line_to(cr, x + SWATCH_W, cy);
                cairo_stroke(cr);
            }
            set_rgb(cr, ink);
            text_at(cr, x + SWATCH_W + 6, cy + 4, 0, it[i].text);
        }
        x += iw;
    }
    return rows;
}

/* ---- layout ---------------------------------------------------------------- */

static double legend_height(const struct pp_plot *p, double w)
{
    cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_A8, 1, 1);
    cairo_t *cr = cairo_create(s);
    unsigned rows = legend_flow(cr, p, w, 0, false);

    cairo_destroy(cr);
    cairo_surface_destroy(s);
    return rows * LEGEND_ROW + 2 * LEGEND_PAD;
}

static double fixed_height(unsigned npanels)
{
    return TITLE_H + npanels * (PANEL_HEAD + PANEL_GAP) + AXIS_H;
}

void pp_plot_default_size(const struct pp_plot *p, unsigned *w, unsigned *h)
{
    unsigned np = p->sel.npanels ? p->sel.npanels : 1;

    *w = DEFAULT_W;
    *h = (unsigned)ceil(fixed_height(np) + np * DEFAULT_PLOT_H + legend_height(p, DEFAULT_W));
}

static int lay_out(const struct pp_plot *p, const struct pp_plot_style *st, struct layout *l,
                   char *err, size_t n)
{
    unsigned w = st->width, h = st->height, dw, dh, np = p->sel.npanels ? p->sel.npanels : 1;
    double need;

    pp_plot_default_size(p, &dw, &dh);
    l->w = w ? w : dw;
    l->legend_h = legend_height(p, l->w);
    need = fixed_height(np) + np * MIN_PLOT_H + l->legend_h;
    if (l->w < PP_PLOT_MIN_WIDTH || (h && h < need)) {
        pp_errmsg(err, n, "%ux%u is too small for %u panel%s: at least %ux%.0f", (unsigned)l->w,
                  h ? h : dh, np, np == 1 ? "" : "s", PP_PLOT_MIN_WIDTH, ceil(need));
        return PP_E_INVAL;
    }
    l->h = h ? h : dh;
    l->x0 = MARGIN_L;
    l->x1 = l->w - MARGIN_R;
    l->plot_h = floor((l->h - fixed_height(np) - l->legend_h) / np);
    l->legend_y = l->h - l->legend_h + LEGEND_PAD;
    l->tmax = p->t_end > 0 ? p->t_end : 1.0;
    return PP_OK;
}

static double panel_top(const struct layout *l, unsigned j)
{
    return TITLE_H + PANEL_HEAD + j * (PANEL_HEAD + l->plot_h + PANEL_GAP);
}

static double x_of(const struct layout *l, double t)
{
    return l->x0 + (l->x1 - l->x0) * t / l->tmax;
}

/* ---- title ----------------------------------------------------------------- */

static void format_interval(uint64_t ns, char *buf, size_t n)
{
    if (ns == 0)
        snprintf(buf, n, "as fast as the path allows");
    else if (ns % 1000000000u == 0)
        snprintf(buf, n, "every %llu s", (unsigned long long)(ns / 1000000000u));
    else if (ns % 1000000u == 0)
        snprintf(buf, n, "every %llu ms", (unsigned long long)(ns / 1000000u));
    else if (ns % 1000u == 0)
        snprintf(buf, n, "every %llu us", (unsigned long long)(ns / 1000u));
    else
        snprintf(buf, n, "every %llu ns", (unsigned long long)ns);
}

static unsigned selected_cores(const struct pp_plot *p)
{
    unsigned n = 0;

    for (unsigned k = 0; k < p->meta.ncores; k++)
        n += p->sel.cores >> k & 1u;
    return n;
}

static void draw_title(cairo_t *cr, const struct pp_plot *p, const struct layout *l)
{
    char line[512], iv[64];
    unsigned nc = selected_cores(p);

    set_rgb(cr, ink);
    font(cr, 17, true);
    snprintf(line, sizeof(line), "%s via %s", p->meta.target[0] ? p->meta.target : "capture",
             p->meta.probe[0] ? p->meta.probe : "?");
    text_at(cr, l->x0, 26, 0, line);
    format_interval(p->meta.interval_ns, iv, sizeof(iv));
    snprintf(line, sizeof(line), "%u core%s, sampled %s: %llu samples over %.3g s", nc,
             nc == 1 ? "" : "s", iv, (unsigned long long)p->samples, p->t_end);
    if (p->dropped) {
        size_t len = strlen(line);

        snprintf(line + len, sizeof(line) - len, "; %llu samples dropped",
                 (unsigned long long)p->dropped);
    }
    font(cr, 12, false);
    set_rgb(cr, faint);
    text_at(cr, l->x0, 46, 0, line);
}

/* ---- panels ---------------------------------------------------------------- */

static double panel_max(const struct pp_plot *p, unsigned j)
{
    double m = 0.0;

    for (unsigned i = 0; i < p->nseries; i++) {
        const struct pp_plot_series *s = &p->series[i];

        for (size_t q = 0; s->panel == j && q < s->npts; q++)
            if (isfinite(s->pts[q].v) && s->pts[q].v > m)
                m = s->pts[q].v;
    }
    return m;
}

/* "cycles (CPU_CYCLES) per second", "IPC = instructions / cycles". */
static void panel_title(const struct pp_plot *p, unsigned j, char *buf, size_t n)
{
    const char *name = p->sel.panel[j].name;

    snprintf(buf, n, "%s", name);
    for (unsigned i = 0; i < p->nseries; i++) {
        const struct pp_plot_series *s = &p->series[i];
        const struct pp_cap_core *c = &p->meta.core[s->core];

        if (s->panel != j)
            continue;
        if (p->sel.panel[j].metric) {
            const struct pp_cap_metric *m = &c->metric[s->idx];

            snprintf(buf, n, "%s = %s / %s%s", name, c->ev[m->num].name, c->ev[m->den].name,
                     m->scale == 1000.0 ? " x 1000" : m->scale == 100.0 ? " x 100" : "");
        } else if (strcmp(c->ev[s->idx].mnemonic, name) != 0) {
            snprintf(buf, n, "%s (%s) per second", name, c->ev[s->idx].mnemonic);
        } else {
            snprintf(buf, n, "%s per second", name);
        }
        return;
    }
}

static void draw_y_axis(cairo_t *cr, const struct layout *l, double top, double ymax,
                        double step, bool metric)
{
    char lab[48];

    font(cr, 11, false);
    cairo_set_line_width(cr, 1.0);
    for (double v = 0; v <= ymax + step * 1e-6; v += step) {
        double y = round(top + l->plot_h - l->plot_h * v / ymax) + 0.5;

        set_rgb(cr, grid);
        cairo_move_to(cr, l->x0, y);
        cairo_line_to(cr, l->x1, y);
        cairo_stroke(cr);
        pp_plot_si_label(v, step, metric ? "" : "/s", lab, sizeof(lab));
        set_rgb(cr, faint);
        text_at(cr, l->x0 - 7, y + 4, 1.0, lab);
    }
}

static void draw_x_grid(cairo_t *cr, const struct layout *l, double top, bool labels)
{
    double step = pp_plot_nice_step(l->tmax, (unsigned)fmax(2.0, (l->x1 - l->x0) / 110.0));
    char lab[48];

    font(cr, 11, false);
    cairo_set_line_width(cr, 1.0);
    for (double t = 0; t <= l->tmax + step * 1e-6; t += step) {
        double x = round(x_of(l, t)) + 0.5;

        set_rgb(cr, grid);
        cairo_move_to(cr, x, top);
        cairo_line_to(cr, x, top + l->plot_h);
        cairo_stroke(cr);
        if (!labels)
            continue;
        pp_plot_si_label(t, step, "", lab, sizeof(lab));
        set_rgb(cr, faint);
        text_at(cr, x, top + l->plot_h + 16, 0.5, lab);
    }
    if (labels) {
        set_rgb(cr, ink);
        text_at(cr, (l->x0 + l->x1) / 2, top + l->plot_h + 34, 0.5, "time (s)");
    }
}

/* Dropped samples concern every core: their band shades the whole height.
 * A core's own band shades only that core's lane along the top (lanes in
 * core order), so that one core's gap does not read as every core's; a
 * strip in the core's colour along the lane's top says whose it is. */
static void draw_band(cairo_t *cr, const struct pp_plot *p, const struct layout *l,
                      const struct pp_plot_band *b, double top, bool label)
{
    struct rgb c = reason_colour(b->reason);
    double xa = x_of(l, b->t0), xb = x_of(l, b->t1), y = top, h = l->plot_h;
    char lab[96];

    if (xb - xa < 2.0)       /* a one-sample gap must still show */
        xb = xa + 2.0;
    if (b->core < PP_CAP_MAX_CORES) {
        unsigned n;

        y = top + core_slot(p, b->core, &n) * LANE_H;
        h = fmin(LANE_H, top + l->plot_h - y);
    }
    cairo_set_source_rgba(cr, c.r, c.g, c.b, 0.18);
    cairo_rectangle(cr, xa, y, xb - xa, h);
    cairo_fill(cr);
    set_rgb(cr, b->core < PP_CAP_MAX_CORES ? core_colour(b->core) : c);
    cairo_rectangle(cr, xa, y, xb - xa, 3);
    cairo_fill(cr);
    if (!label)
        return;
    if (b->core < PP_CAP_MAX_CORES)
        snprintf(lab, sizeof(lab), "cpu%u %s", p->meta.core[b->core].cpu,
                 pp_plot_reason_name(b->reason));
    else
        snprintf(lab, sizeof(lab), "%s", pp_plot_reason_name(b->reason));
    font(cr, 10, false);
    if (text_w(cr, lab) + 8 > xb - xa || h < LANE_H)
        return;
    set_rgb(cr, ink);
    text_at(cr, xa + 4, y + LANE_H - 2, 0, lab);
}

static void draw_bands(cairo_t *cr, const struct pp_plot *p, const struct layout *l,
                       double top, bool label)
{
    for (size_t i = 0; i < p->nbands; i++) {
        const struct pp_plot_band *b = &p->bands[i];

        if (b->core >= PP_CAP_MAX_CORES || (p->sel.cores >> b->core & 1u))
            draw_band(cr, p, l, b, top, label);
    }
}

/* Points of a piece that fall in one half-pixel column: drawing them all
 * only grows the file, so a column keeps its first, lowest, highest and
 * last point (in time order), which draws the same envelope. */
struct column {
    long key;
    size_t n;
    double x, first, last, lo, hi;
    size_t ilo, ihi;
};

static void column_flush(cairo_t *cr, const struct column *c)
{
    double a = c->ilo < c->ihi ? c->lo : c->hi, b = c->ilo < c->ihi ? c->hi : c->lo;

    if (c->n == 1)
        return;
    if (a != c->first)
        cairo_line_to(cr, c->x, a);
    if (b != a)
        cairo_line_to(cr, c->x, b);
    if (c->last != b)
        cairo_line_to(cr, c->x, c->last);
}

/* Adds (x, y), the q-th point of the piece, drawing what a finished
 * column needs. */
static void column_add(cairo_t *cr, struct column *c, size_t q, double x, double y)
{
    long key = lround(floor(x * 2.0));

    if (q > 0 && key == c->key) {
        c->n++;
        c->last = y;
        if (y < c->lo) {
            c->lo = y;
            c->ilo = c->n;
        }
        if (y > c->hi) {
            c->hi = y;
            c->ihi = c->n;
        }
        return;
    }
    if (q > 0)
        column_flush(cr, c);
    *c = (struct column){ .key = key, .n = 1, .x = x, .first = y, .last = y, .lo = y, .hi = y };
    if (q == 0)
        cairo_move_to(cr, x, y);
    cairo_line_to(cr, x, y);   /* after move_to: a piece of one point is a dot */
}

/* Each unbroken piece is its own stroke; a piece of one point is a dot
 * (a zero-length segment with round caps). */
static void draw_series(cairo_t *cr, const struct pp_plot *p, const struct layout *l,
                        const struct pp_plot_series *s, double top, double ymax)
{
    struct column col = { 0 };
    size_t in = 0;           /* points in the piece so far */

    set_rgb(cr, core_colour(s->core));
    cairo_set_line_width(cr, core_line_w(p, s->core));
    for (size_t q = 0; q <= s->npts; q++) {
        bool ok = q < s->npts && isfinite(s->pts[q].v);

        if (!ok) {
            if (in) {
                column_flush(cr, &col);
                cairo_stroke(cr);
            }
            in = 0;
            continue;
        }
        column_add(cr, &col, in++, x_of(l, s->pts[q].t),
                   top + l->plot_h - l->plot_h * s->pts[q].v / ymax);
    }
}

static void draw_panel(cairo_t *cr, const struct pp_plot *p, const struct layout *l, unsigned j)
{
    double top = panel_top(l, j), ymax = panel_max(p, j) * 1.05, step;
    bool metric = p->sel.panel[j].metric;
    char title[160];

    if (!(ymax > 0))
        ymax = 1.0;
    step = pp_plot_nice_step(ymax, (unsigned)fmax(2.0, fmin(6.0, l->plot_h / 36.0)));
    ymax = ceil(ymax / step - 1e-9) * step;
    panel_title(p, j, title, sizeof(title));
    set_rgb(cr, ink);
    font(cr, 13, true);
    text_at(cr, l->x0, top - 8, 0, title);
    draw_x_grid(cr, l, top, j + 1 == p->sel.npanels);
    draw_y_axis(cr, l, top, ymax, step, metric);
    cairo_save(cr);
    cairo_rectangle(cr, l->x0, top, l->x1 - l->x0, l->plot_h);
    cairo_clip(cr);
    draw_bands(cr, p, l, top, j == 0);
    for (unsigned i = 0; i < p->nseries; i++)
        if (p->series[i].panel == j)
            draw_series(cr, p, l, &p->series[i], top, ymax);
    cairo_restore(cr);
    set_rgb(cr, faint);
    cairo_set_line_width(cr, 1.0);
    cairo_rectangle(cr, l->x0 + 0.5, round(top) + 0.5, l->x1 - l->x0 - 1, round(l->plot_h));
    cairo_stroke(cr);
}

static void draw(cairo_t *cr, const struct pp_plot *p, const struct layout *l)
{
    cairo_set_source_rgb(cr, 1, 1, 1);
    cairo_paint(cr);
    cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND);
    cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
    draw_title(cr, p, l);
    for (unsigned j = 0; j < p->sel.npanels; j++)
        draw_panel(cr, p, l, j);
    legend_flow(cr, p, l->w, l->legend_y, true);
}

/* ---- output ---------------------------------------------------------------- */

static cairo_status_t write_out(void *closure, const unsigned char *data, unsigned int len)
{
    return fwrite(data, 1, len, closure) == len ? CAIRO_STATUS_SUCCESS : CAIRO_STATUS_WRITE_ERROR;
}

static int status_err(cairo_status_t st, char *err, size_t n)
{
    if (st == CAIRO_STATUS_SUCCESS)
        return PP_OK;
    pp_errmsg(err, n, "drawing failed: %s", cairo_status_to_string(st));
    if (st == CAIRO_STATUS_NO_MEMORY)
        return PP_E_NOMEM;
    return st == CAIRO_STATUS_WRITE_ERROR ? PP_E_IO : PP_E_INVAL;
}

static int render_svg(const struct pp_plot *p, const struct layout *l, FILE *out, char *err,
                      size_t n)
{
    cairo_surface_t *s = cairo_svg_surface_create_for_stream(write_out, out, l->w, l->h);
    cairo_t *cr;
    cairo_status_t st;

    /* Pixels, not cairo's default points, so the SVG is the size asked. */
    cairo_svg_surface_set_document_unit(s, CAIRO_SVG_UNIT_PX);
    cr = cairo_create(s);
    draw(cr, p, l);
    st = cairo_status(cr);
    cairo_destroy(cr);
    cairo_surface_finish(s);
    if (st == CAIRO_STATUS_SUCCESS)
        st = cairo_surface_status(s);
    cairo_surface_destroy(s);
    return status_err(st, err, n);
}

static int render_png(const struct pp_plot *p, const struct layout *l, FILE *out, char *err,
                      size_t n)
{
    cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, (int)l->w, (int)l->h);
    cairo_t *cr = cairo_create(s);
    cairo_status_t st;

    draw(cr, p, l);
    st = cairo_status(cr);
    cairo_destroy(cr);
    if (st == CAIRO_STATUS_SUCCESS)
        st = cairo_surface_write_to_png_stream(s, write_out, out);
    cairo_surface_destroy(s);
    return status_err(st, err, n);
}

int pp_plot_render(const struct pp_plot *p, const struct pp_plot_style *st,
                   enum pp_plot_format fmt, FILE *out, char *err, size_t n)
{
    struct layout l;
    int rc = lay_out(p, st, &l, err, n);

    if (rc != PP_OK)
        return rc;
    return fmt == PP_PLOT_PNG ? render_png(p, &l, out, err, n) : render_svg(p, &l, out, err, n);
}

void pp_plot_release_fonts(void)
{
    /* cairo keeps its font faces, and fontconfig's patterns through them,
     * for the life of the process, and fontconfig its configuration; this
     * hands them back, cairo's first as they point into fontconfig's. */
    cairo_debug_reset_static_data();
    FcFini();
}
