/*
 * plot.h - counters and derived metrics of a capture over time, per core
 * (`pmuprobe plot`).
 *
 * Three jobs, one file each:
 *   model.c   folds a capture's records into series of (time, value)
 *             points and the bands of time where a core had no trusted
 *             value (gap, discontinuity, dropped samples);
 *   axis.c    nice tick steps and SI-scaled labels ("1.2G/s");
 *   render.c  draws the model with cairo to SVG or PNG.
 * select.c turns the user's --events/--metric/--cpu into a selection
 * against the capture's description, with messages that list what the
 * capture has.  Nothing here prints.
 */
#ifndef PP_PLOT_H
#define PP_PLOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "capture/record.h"

#define PP_PLOT_MAX_PANELS (PP_CAP_MAX_EVENTS + PP_CAP_MAX_METRICS)
#define PP_PLOT_NAME_LEN   PP_CAP_NAME_LEN

/* What to draw: panel names (events as the capture names them, metric
 * names as metrics.c names them) and the cores (indices into meta.core). */
struct pp_plot_sel {
    unsigned npanels;
    struct {
        char name[PP_PLOT_NAME_LEN];
        bool metric;
    } panel[PP_PLOT_MAX_PANELS];
    uint64_t cores;                  /* bit k: meta.core[k] */
};

/*
 * Builds a selection.  events: comma-separated event names (NULL = every
 * event of the selected cores, in capture order); metrics: the --metric
 * arguments (case and spaces/dashes/underscores ignored: "ipc",
 * "l1d-mpki"); cpus: "0-3", "cpu1,cpu3", "all" or NULL = all.  An unknown
 * name or cpu gives PP_E_INVAL with err naming it and listing what the
 * capture has.
 */
int pp_plot_select(const struct pp_cap_meta *m, const char *events, const char *const *metrics,
                   unsigned nmetrics, const char *cpus, struct pp_plot_sel *sel, char *err,
                   size_t n);

/* The index of the core's event named name (its name as asked or its
 * mnemonic, any case), or of its metric (case, spaces, dashes and
 * underscores ignored); -1 when it has none. */
int pp_plot_find_event(const struct pp_cap_core *c, const char *name);
int pp_plot_find_metric(const struct pp_cap_core *c, const char *name);

/* Why a core has no value over a band of time: a gap cause (enum
 * pp_cause, < PP_CAP_NCAUSES), a discontinuity (PP_PLOT_WHY + bit of
 * PP_EXT_WHY_*), or dropped samples (all cores). */
#define PP_PLOT_WHY   PP_CAP_NCAUSES
#define PP_PLOT_DROP  (PP_PLOT_WHY + 16u)
#define PP_PLOT_NREASONS (PP_PLOT_DROP + 1u)

/* "core powered off", "EDPRSR.SR: core reset since last look", ... */
const char *pp_plot_reason_str(unsigned reason);
/* "core-off", "reset", "drop" */
const char *pp_plot_reason_name(unsigned reason);

/* One point; a NaN v lifts the pen: the line breaks there. */
struct pp_plot_point {
    double t;                        /* seconds since the capture started */
    double v;                        /* events per second, or the metric */
};

struct pp_plot_series {
    unsigned panel;                  /* index into the selection's panels */
    unsigned core;                   /* index into meta.core */
    unsigned idx;                    /* the core's event (or metric) index */
    size_t   npts, cap;
    struct pp_plot_point *pts;
};

struct pp_plot_band {
    unsigned core;                   /* index into meta.core; PP_CAP_MAX_CORES = all */
    unsigned reason;
    double   t0, t1;
};

struct pp_plot {
    struct pp_cap_meta meta;
    struct pp_plot_sel sel;
    unsigned nseries;                /* panel-major: panel p, core order */
    struct pp_plot_series *series;
    size_t   nbands, bands_cap;
    struct pp_plot_band *bands;
    double   t_end;                  /* time of the last sample */
    uint64_t samples, dropped;
    /* folding state */
    bool     have_prev;
    uint64_t prev_seq;
    double   prev_t;
    bool     drop_open;              /* a DROP record awaits the next sample */
    double   drop_t0;
    size_t   open_band[PP_CAP_MAX_CORES];        /* index into bands; SIZE_MAX = none */
    bool     was_read[PP_CAP_MAX_CORES];         /* core read in the previous sample */
};

/* A model for this capture and selection; NULL only when out of memory. */
struct pp_plot *pp_plot_new(const struct pp_cap_meta *m, const struct pp_plot_sel *sel);
/* Folds one record (sample or drop).  PP_OK or PP_E_NOMEM. */
int pp_plot_add(struct pp_plot *p, const struct pp_cap_sample *s);
void pp_plot_free(struct pp_plot *p);

/* Number of unbroken pieces (runs of two or more finite points, or
 * single points) in a series: what the renderer strokes. */
size_t pp_plot_pieces(const struct pp_plot_series *s);
/* The series of panel p and core k, or NULL when k is not selected. */
const struct pp_plot_series *pp_plot_series_of(const struct pp_plot *p, unsigned panel,
                                               unsigned core);

/* ---- axes (axis.c) ---- */

/* A step of 1, 2 or 5 x 10^k that cuts span into at most max_ticks
 * intervals; 1 when span is not positive. */
double pp_plot_nice_step(double span, unsigned max_ticks);
/* v with an SI prefix and unit: "1.2G/s", "850k/s", "0", "3.25" (no unit).
 * step: the tick step, so labels show the digits that differ. */
void pp_plot_si_label(double v, double step, const char *unit, char *buf, size_t n);

/* ---- rendering (render.c) ---- */

enum pp_plot_format { PP_PLOT_SVG, PP_PLOT_PNG };

struct pp_plot_style {
    unsigned width, height;          /* pixels; 0 = pp_plot_default_size */
};

/* The size used when the style leaves it 0: 1200 wide, 260 per panel plus
 * title and legend. */
void pp_plot_default_size(const struct pp_plot *p, unsigned *w, unsigned *h);

/* The legend's entries as drawn, in order: "cpu2 cortex-a76" per
 * selected core, then per reason with a band "cpu2: no value (core
 * powered off)" naming the cores it took ("all cores" for dropped
 * samples).  Copies at most max; returns how many there are. */
#define PP_PLOT_LEGEND_LEN 128u
unsigned pp_plot_legend(const struct pp_plot *p, char (*text)[PP_PLOT_LEGEND_LEN], unsigned max);

/* The smallest size the layout fits in. */
#define PP_PLOT_MIN_WIDTH  400u
#define PP_PLOT_MIN_PANEL  80u       /* pixels of height per panel */

/*
 * Draws the model to out.  PP_OK; PP_E_INVAL when the size is too small
 * to lay out (err says the minimum); PP_E_IO when out cannot be written;
 * PP_E_NOMEM.  Same model and style give the same bytes.
 */
int pp_plot_render(const struct pp_plot *p, const struct pp_plot_style *st,
                   enum pp_plot_format fmt, FILE *out, char *err, size_t n);

/* Frees the font caches cairo keeps for the process, so leak checkers
 * see none.  Call once at exit, when nothing else draws with cairo. */
void pp_plot_release_fonts(void);

#endif
