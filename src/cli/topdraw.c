/*
 * topdraw.c - what `pmuprobe top` shows: a frame of the model (topview.h)
 * as plain text for --batch, or as an ncurses screen: a header with the
 * target, the access path and the achieved vs requested rate, then a
 * block per core with its events as rates and sparklines (or its derived
 * metrics), gap markers with their cause, and discontinuities.
 */
#include <curses.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "pmu/diag.h"
#include "pmu/extend.h"
#include "topview.h"

#define TEXT_NAME_W 20      /* --batch: event or metric name column */
#define NAME_W   16         /* screen: name column ("L1D_CACHE_REFILL") */
#define VALUE_W  9          /* screen: rate or value column ("2.40 G/s") */
#define SPARK_MIN 10        /* narrowest sparkline worth drawing */
#define BLOCK_MIN (1 + NAME_W + 1 + VALUE_W + 2 + SPARK_MIN + 1)
#define LARGE_ROWS_MAX 4    /* sparkline height in the one-core view */

enum { PAIR_GAP = 1, PAIR_MARK, PAIR_SPARK };

/* ---- shared wording --------------------------------------------------------------------- */

/* The lowest PP_EXT_WHY_* bit's name, or NULL when none. */
static const char *why_name(unsigned why)
{
    return why ? pp_ext_why_name(why & -why) : NULL;
}

static const char *fmt_num(double v, bool rate, char *buf, size_t n)
{
    if (rate)
        return topview_fmt_rate(v, buf, n);
    snprintf(buf, n, "%.3f", v);
    return buf;
}

static const char *fmt_value(const struct topview_series *s, bool rate, char *buf, size_t n)
{
    if (!s->ok) {
        snprintf(buf, n, "-");
        return buf;
    }
    return fmt_num(s->now, rate, buf, n);
}

/* --batch: "top - T on P - 1.20 s - ..."; the screen: the same, shorter. */
static void fmt_header(const struct topview_frame *f, bool brief, char *buf, size_t n)
{
    char req[48];

    if (f->requested_hz > 0)
        snprintf(req, sizeof(req), "%.1f/s", f->requested_hz);
    else
        snprintf(req, sizeof(req), "as fast as possible");
    if (brief)
        snprintf(buf, n, "%s on %s  %.1f s  %.1f/s of %s  late %" PRIu64 "  dropped %"
                 PRIu64, f->target, f->probe, (double)f->elapsed_ns / 1e9, f->achieved_hz, req,
                 f->late, f->dropped);
    else
        snprintf(buf, n, "top - %s on %s - %.2f s - %.1f samples/s of %s - late %" PRIu64
                 " - dropped %" PRIu64, f->target, f->probe, (double)f->elapsed_ns / 1e9,
                 f->achieved_hz, req, f->late, f->dropped);
}

/* "ok", "waiting", "GAP core-off (core powered off), 12 gap samples"
 * (shorter on the screen); then markers for what happened during the
 * period. */
static void fmt_state(const struct topview_core *c, bool brief, char *buf, size_t n)
{
    size_t used;

    if (c->state == TOPVIEW_GAP && brief)
        used = (size_t)snprintf(buf, n, "GAP %s: %s", pp_cause_name(c->cause),
                                pp_cause_str(c->cause));
    else if (c->state == TOPVIEW_GAP)
        used = (size_t)snprintf(buf, n, "GAP %s (%s), %" PRIu64 " gap samples",
                                pp_cause_name(c->cause), pp_cause_str(c->cause), c->gaps);
    else
        used = (size_t)snprintf(buf, n, "%s", c->state == TOPVIEW_OK ? "ok" : "waiting");
    if (used < n && c->state != TOPVIEW_GAP && c->period_gaps)
        used += (size_t)snprintf(buf + used, n - used, "  gap %s", pp_cause_name(c->cause));
    if (used < n && c->why)
        snprintf(buf + used, n - used, "  discontinuity: %s", why_name(c->why));
}

/* ---- plain text (--batch) ------------------------------------------------------------------ */

static void text_core(FILE *out, const struct topview_core *c)
{
    char state[160], val[32];

    fmt_state(c, false, state, sizeof(state));
    fprintf(out, "cpu%-3u %-14s %s\n", c->cpu, c->type, state);
    for (unsigned i = 0; i < c->nev; i++)
        fprintf(out, "    %-*s %12s  total %" PRIu64 "\n", TEXT_NAME_W, c->ev[i].name,
                fmt_value(&c->ev[i].rate, true, val, sizeof(val)), c->ev[i].total);
    for (unsigned j = 0; j < c->nmetrics; j++)
        fprintf(out, "    %-*s %12s\n", TEXT_NAME_W, c->metric[j].name,
                fmt_value(&c->metric[j].val, false, val, sizeof(val)));
}

int topdraw_text(FILE *out, const struct topview_frame *f)
{
    char head[256];

    fmt_header(f, false, head, sizeof(head));
    fprintf(out, "%s\n", head);
    for (unsigned k = 0; k < f->ncores; k++)
        text_core(out, &f->core[k]);
    fputc('\n', out);
    return fflush(out) == 0 && !ferror(out) ? 0 : -1;
}

/* ---- sparklines ------------------------------------------------------------------------------ */

/* Index 0 is an empty cell, 1..8 eighths of a cell. */
static const char *const blocks_utf8[9] = {
    " ", "\u2581", "\u2582", "\u2583", "\u2584", "\u2585", "\u2586", "\u2587", "\u2588",
};
static const char *const blocks_ascii[9] = { " ", "_", ".", "-", "~", "=", "+", "*", "#" };

struct spark {
    int y, x, width, height;     /* bottom row is y + height - 1 */
    bool utf8;
};

/* The lowest and highest values among hist[from, to); false when none. */
static bool visible_range(const struct topview_series *s, unsigned from, unsigned to,
                          float *lo, float *hi)
{
    bool any = false;

    for (unsigned i = from; i < to; i++) {
        float v = s->hist[i];

        if (isnan(v))
            continue;
        *lo = any && *lo < v ? *lo : v;
        *hi = any && *hi > v ? *hi : v;
        any = true;
    }
    return any;
}

/* One column: a value of level l (1 .. 8 * height) fills l eighths from the
 * bottom; a tick where nothing was counted shows a gap mark at the bottom. */
static void spark_column(const struct spark *sp, int x, int level)
{
    const char *const *g = sp->utf8 ? blocks_utf8 : blocks_ascii;

    for (int r = 0; r < sp->height; r++) {
        int y = sp->y + sp->height - 1 - r;
        int cell = level - 8 * r;

        if (level < 0) {
            mvaddstr(y, x, r == 0 ? (sp->utf8 ? "\u00b7" : "!") : " ");
            continue;
        }
        mvaddstr(y, x, g[cell < 0 ? 0 : cell > 8 ? 8 : cell]);
    }
}

/* The newest values at the right edge, scaled from the lowest to the
 * highest value shown (topview_level). */
static void draw_spark(const struct spark *sp, const struct topview_series *s, unsigned nhist)
{
    unsigned n, from;
    float lo = 0.0f, hi = 0.0f;
    int x0;

    if (sp->width <= 0)
        return;
    n = nhist < (unsigned)sp->width ? nhist : (unsigned)sp->width;
    from = nhist - n;
    x0 = sp->x + sp->width - (int)n;
    visible_range(s, from, nhist, &lo, &hi);
    attron(COLOR_PAIR(PAIR_SPARK));
    for (unsigned i = 0; i < n; i++) {
        int l = topview_level(s->hist[from + i], lo, hi, 8 * sp->height);

        spark_column(sp, x0 + (int)i, l < 0 ? -1 : l + 1);
    }
    attroff(COLOR_PAIR(PAIR_SPARK));
}

/* ---- the screen --------------------------------------------------------------------------------- */

static void put(int y, int x, const char *s)
{
    if (y < 0 || y >= LINES || x >= COLS)
        return;
    mvaddnstr(y, x, s, COLS - x);
}

static void draw_header(const struct topview_frame *f, const struct topdraw_view *v)
{
    char head[256];

    fmt_header(f, true, head, sizeof(head));
    attron(A_REVERSE);
    mvhline(0, 0, ' ', COLS);
    put(0, 0, head);
    if (v->paused)
        put(0, COLS > 8 ? COLS - 8 : 0, " PAUSED ");
    attroff(A_REVERSE);
    if (v->help)
        put(1, 0, "q quit  space pause  m metrics/events  c order: cpu, busiest, one core  "
                  "h hide");
}

static void draw_core_title(int y, int x, int w, const struct topview_core *c)
{
    char title[48], state[160];
    int n;

    if (w <= 0 || y >= LINES)
        return;
    n = snprintf(title, sizeof(title), "cpu%u %s ", c->cpu, c->type);
    attron(A_BOLD);
    mvaddnstr(y, x, title, w);
    attroff(A_BOLD);
    if (n >= w)
        return;
    fmt_state(c, true, state, sizeof(state));
    if (c->state == TOPVIEW_GAP || c->period_gaps || c->why)
        attron(COLOR_PAIR(c->state == TOPVIEW_GAP ? PAIR_GAP : PAIR_MARK) | A_BOLD);
    mvaddnstr(y, x + n, state, w - n);
    attroff(COLOR_PAIR(PAIR_GAP) | COLOR_PAIR(PAIR_MARK) | A_BOLD);
}

/* name, value, then a one-row sparkline filling the rest of w. */
static void draw_series_line(int y, int x, int w, const char *name,
                             const struct topview_series *s, bool rate, unsigned nhist,
                             bool utf8)
{
    char val[32], line[NAME_W + 40];
    struct spark sp = { .y = y, .x = x + NAME_W + 1 + VALUE_W + 2,
                        .width = w - (NAME_W + 1 + VALUE_W + 2), .height = 1, .utf8 = utf8 };

    if (w <= 0)
        return;
    snprintf(line, sizeof(line), "%-*.*s %*s", NAME_W, NAME_W, name, VALUE_W,
             fmt_value(s, rate, val, sizeof(val)));
    mvaddnstr(y, x, line, w);
    if (sp.width >= SPARK_MIN / 2)
        draw_spark(&sp, s, nhist);
}

static int block_rows(const struct topview_core *c, bool metrics)
{
    return 1 + (int)(metrics ? (c->nmetrics ? c->nmetrics : 1) : c->nev);
}

static void draw_block(int y, int x, int w, const struct topview_core *c,
                       const struct topview_frame *f, const struct topdraw_view *v)
{
    draw_core_title(y, x, w, c);
    if (v->metrics && !c->nmetrics) {
        put(y + 1, x + 1, "(no metric from these events)");
        return;
    }
    if (v->metrics)
        for (unsigned j = 0; j < c->nmetrics && y + 1 + (int)j < LINES; j++)
            draw_series_line(y + 1 + (int)j, x + 1, w - 1, c->metric[j].name,
                             &c->metric[j].val, false, f->nhist, v->utf8);
    else
        for (unsigned i = 0; i < c->nev && y + 1 + (int)i < LINES; i++)
            draw_series_line(y + 1 + (int)i, x + 1, w - 1, c->ev[i].name, &c->ev[i].rate,
                             true, f->nhist, v->utf8);
}

struct order {
    unsigned k;
    double key;
};

static int by_key_desc(const void *a, const void *b)
{
    const struct order *p = a, *q = b;

    if (p->key != q->key)
        return p->key < q->key ? 1 : -1;
    return p->k < q->k ? -1 : p->k > q->k;
}

/* v to three significant digits, as topview_fmt_rate shows it. */
static double as_shown(double v)
{
    double scale;

    if (!(v > 0) || !isfinite(v))
        return v;
    scale = pow(10.0, floor(log10(v)) - 2.0);
    return round(v / scale) * scale;
}

void topdraw_order(const struct topview_frame *f, enum topdraw_sort sort, unsigned *idx)
{
    struct order o[PP_CAP_MAX_CORES];

    for (unsigned k = 0; k < f->ncores; k++) {
        const struct topview_core *c = &f->core[k];

        o[k].k = k;
        o[k].key = sort != TOPDRAW_SORT_BUSY ? -(double)k
                   : c->state == TOPVIEW_GAP || !c->nev || !c->ev[0].rate.ok ? -1.0
                   : as_shown(c->ev[0].rate.now);
    }
    qsort(o, f->ncores, sizeof(o[0]), by_key_desc);
    for (unsigned k = 0; k < f->ncores; k++)
        idx[k] = o[k].k;
}

/* Height of the row of blocks starting at idx[b]: its tallest block. */
static int row_height(const struct topview_frame *f, const unsigned *idx, unsigned b,
                      unsigned ncol, bool metrics)
{
    int h = 0;

    for (unsigned c = b; c < b + ncol && c < f->ncores; c++) {
        int r = block_rows(&f->core[idx[c]], metrics);

        h = r > h ? r : h;
    }
    return h;
}

/* A blank line between rows of blocks when everything fits with it. */
static int row_gap(const struct topview_frame *f, const unsigned *idx, unsigned ncol,
                   bool metrics, int rows)
{
    int need = 0;

    for (unsigned b = 0; b < f->ncores; b += ncol)
        need += row_height(f, idx, b, ncol, metrics) + 1;
    return need - 1 <= rows ? 1 : 0;
}

static void draw_blocks(const struct topview_frame *f, const struct topdraw_view *v, int top)
{
    unsigned idx[PP_CAP_MAX_CORES];
    unsigned ncol = COLS / BLOCK_MIN < 1 ? 1u : (unsigned)(COLS / BLOCK_MIN);
    int y = top, w, gap;

    if (ncol > f->ncores)
        ncol = f->ncores ? f->ncores : 1;
    w = COLS / (int)ncol;
    topdraw_order(f, v->sort, idx);
    gap = row_gap(f, idx, ncol, v->metrics, LINES - top);
    for (unsigned b = 0; b < f->ncores; b += ncol) {
        int h = row_height(f, idx, b, ncol, v->metrics);

        if (y + h > LINES) {
            char more[96];

            snprintf(more, sizeof(more), "... %u more core(s): a larger terminal, or c for "
                     "one core large", f->ncores - b);
            put(LINES - 1, 0, more);
            return;
        }
        for (unsigned c = b; c < b + ncol && c < f->ncores; c++)
            draw_block(y, (int)(c - b) * w, w - 1, &f->core[idx[c]], f, v);
        y += h + gap;
    }
}

/* One series of the large view: name, value, the range shown and the
 * total, then a sparkline h rows high across the screen. */
static void draw_large_series(int y, int h, const char *name, const struct topview_series *s,
                              const struct topview_event *ev, const struct topview_frame *f,
                              const struct topdraw_view *v)
{
    float lo = 0.0f, hi = 0.0f;
    char info[160], a[32], b[32];
    size_t used = 0;

    draw_series_line(y, 1, NAME_W + 1 + VALUE_W, name, s, ev != NULL, f->nhist, v->utf8);
    if (visible_range(s, 0, f->nhist, &lo, &hi))
        used = (size_t)snprintf(info, sizeof(info), "range %s .. %s",
                                fmt_num(lo, ev != NULL, a, sizeof(a)),
                                fmt_num(hi, ev != NULL, b, sizeof(b)));
    if (ev && used < sizeof(info))
        snprintf(info + used, sizeof(info) - used, "%stotal %" PRIu64, used ? "   " : "",
                 ev->total);
    if (used || ev)
        put(y, NAME_W + VALUE_W + 5, info);
    draw_spark(&(struct spark){ .y = y + 1, .x = 3, .width = COLS - 4, .height = h,
                                .utf8 = v->utf8 }, s, f->nhist);
}

/* One core: every event and metric with its range and total, and a taller
 * sparkline across the screen. */
static void draw_large(const struct topview_frame *f, const struct topdraw_view *v, int top)
{
    const struct topview_core *c;
    int nser, h, y = top + 1;

    if (!f->ncores)
        return;
    c = &f->core[v->large < f->ncores ? v->large : 0];
    nser = (int)(c->nev + c->nmetrics);
    h = nser ? (LINES - y) / nser - 1 : 0;
    h = h > LARGE_ROWS_MAX ? LARGE_ROWS_MAX : h;
    draw_core_title(top, 0, COLS, c);
    for (int i = 0; i < nser && y < LINES; i++) {
        bool is_ev = i < (int)c->nev;
        const struct topview_series *s = is_ev ? &c->ev[i].rate
                                               : &c->metric[i - (int)c->nev].val;
        const char *name = is_ev ? c->ev[i].name : c->metric[i - (int)c->nev].name;

        if (h < 1) {
            draw_series_line(y++, 1, COLS - 2, name, s, is_ev, f->nhist, v->utf8);
            continue;
        }
        draw_large_series(y, h, name, s, is_ev ? &c->ev[i] : NULL, f, v);
        y += h + 1;
    }
}

void topdraw_start(void)
{
    if (!has_colors())
        return;
    start_color();
    use_default_colors();
    init_pair(PAIR_GAP, COLOR_RED, -1);
    init_pair(PAIR_MARK, COLOR_YELLOW, -1);
    init_pair(PAIR_SPARK, COLOR_GREEN, -1);
}

void topdraw_screen(const struct topview_frame *f, const struct topdraw_view *v)
{
    int top = v->help ? 3 : 2;

    erase();
    draw_header(f, v);
    if (!f->begun)
        put(top, 0, "waiting for the first sample ...");
    else if (v->sort == TOPDRAW_LARGE)
        draw_large(f, v, top);
    else
        draw_blocks(f, v, top);
    refresh();
}

void topdraw_cycle(struct topdraw_view *v, unsigned ncores)
{
    switch (v->sort) {
    case TOPDRAW_SORT_CPU:
        v->sort = TOPDRAW_SORT_BUSY;
        break;
    case TOPDRAW_SORT_BUSY:
        v->sort = ncores ? TOPDRAW_LARGE : TOPDRAW_SORT_CPU;
        v->large = 0;
        break;
    case TOPDRAW_LARGE:
        if (++v->large >= ncores)
            v->sort = TOPDRAW_SORT_CPU;
        break;
    }
}
