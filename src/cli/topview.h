/*
 * topview.h - the model behind `pmuprobe top`, and its drawing.
 *
 * The model (topview.c) is a struct pp_cap_out: the capture's writer
 * thread folds each record into per core x event state under a mutex
 * (deltas and the time they cover, gap and discontinuity markers, drop
 * and late counts).  The display side calls topview_tick about ten times
 * a second: it closes the display period (rate = sum of deltas / time they
 * cover, from the sample times, so the sampler may run much faster than
 * the display), pushes one value per event and metric into a fixed-size
 * history for the sparklines, and copies everything into a frame the
 * drawing reads without the lock.
 *
 * The drawing (topdraw.c) turns a frame into plain text (--batch) or an
 * ncurses screen.
 */
#ifndef PP_TOPVIEW_H
#define PP_TOPVIEW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "capture/capture.h"
#include "capture/record.h"

#define TOPVIEW_HIST 120u   /* display ticks kept: 12 s at the default 100 ms refresh */

/* What a core did over the last display period. */
enum topview_state {
    TOPVIEW_WAIT = 0,       /* nothing counted yet (baseline only, or no sample) */
    TOPVIEW_OK,             /* counted */
    TOPVIEW_GAP,            /* the latest sample of the core was a gap */
};

/* The recent values of one event (per second) or metric. */
struct topview_series {
    double now;                  /* over the last display period */
    bool   ok;                   /* now is valid */
    float  hist[TOPVIEW_HIST];   /* frame.nhist values, oldest first; NAN
                                  * for a tick where nothing was counted */
};

struct topview_event {
    char     name[PP_CAP_NAME_LEN];
    uint64_t total;              /* 64-bit count since the capture started */
    struct topview_series rate;  /* events per second */
};

struct topview_metric {
    char     name[PP_CAP_NAME_LEN];   /* "IPC", "L1D MPKI", "branch miss %" */
    struct topview_series val;
};

struct topview_core {
    unsigned cpu;
    char     type[24];
    enum topview_state state;
    int      cause;              /* enum pp_cause of the latest gap sample */
    uint64_t period_gaps;        /* gap samples in the last display period */
    uint64_t gaps;               /* gap samples since the start */
    unsigned why;                /* PP_EXT_WHY_* seen in the period, START left out */
    unsigned nev, nmetrics;
    struct topview_event  ev[PP_CAP_MAX_EVENTS];
    struct topview_metric metric[PP_CAP_MAX_METRICS];
};

/* A consistent copy of the model at one display tick. */
struct topview_frame {
    bool     begun;              /* the meta has arrived */
    bool     ended;              /* the capture's end has arrived */
    enum pp_cap_stop stop;       /* when ended */
    char     target[64], probe[64];
    double   requested_hz;       /* 0: as fast as the path allows */
    double   achieved_hz;        /* samples per second over the last period; 0 unknown */
    uint64_t samples;            /* sample records so far */
    uint64_t late;               /* started over half an interval after their deadline */
    uint64_t dropped;            /* lost to a full ring (DROP records) */
    uint64_t period_samples;     /* samples in the last display period */
    uint64_t elapsed_ns;         /* from the start to the latest sample */
    unsigned nhist;              /* history values per series */
    unsigned ncores;
    struct topview_core core[PP_CAP_MAX_CORES];
};

struct topview;

/* A model waiting for its capture's meta; NULL when out of memory. */
struct topview *topview_new(void);
void topview_free(struct topview *tv);

/* The capture output that feeds the model (begin, write, end). */
struct pp_cap_out topview_out(struct topview *tv);

/* A zeroed frame on the heap (frames are large: allocate, don't put them
 * on the stack).  Free with free(). */
struct topview_frame *topview_frame_new(void);

/*
 * Closes the display period and copies the model into *f.  A period with
 * no sample leaves the rates and the history as they were, so a sample
 * interval longer than the refresh does not flicker; f->period_samples
 * says whether anything new arrived.
 */
void topview_tick(struct topview *tv, struct topview_frame *f);

/* "2.38 G/s", "812 M/s", "60.2 K/s", "17 /s": three significant digits
 * and an SI prefix. */
const char *topview_fmt_rate(double per_s, char *buf, size_t n);

/* A value's sparkline level from 0 to levels - 1 on the scale lo .. hi
 * (the lowest and highest values shown, so that the shape of swings shows;
 * the number beside it gives the size).  Values spread over less than
 * TOPVIEW_MIN_SPAN of their size are a steady rate (the jitter of the
 * sample times): every one is mid height, a flat line.  -1 for NAN
 * (nothing counted: drawn as a gap mark). */
#define TOPVIEW_MIN_SPAN 0.02f
int topview_level(float v, float lo, float hi, int levels);

/* ---- drawing (topdraw.c) -------------------------------------------------------- */

enum topdraw_sort {
    TOPDRAW_SORT_CPU = 0,        /* cpu order */
    TOPDRAW_SORT_BUSY,           /* highest rate of the first event first */
    TOPDRAW_LARGE,               /* one core large: topdraw_view.large */
};

struct topdraw_view {
    bool metrics;                /* m: metrics instead of events */
    enum topdraw_sort sort;      /* c cycles cpu, busy, then each core large */
    unsigned large;              /* index of the core shown large */
    bool paused;                 /* space */
    bool help;                   /* h: the key line */
    bool utf8;                   /* block characters; ASCII otherwise */
};

/*
 * One plain-text frame (--batch): a header line, then per core a line with
 * its state (and "GAP cause" when it is a gap), a line per event with its
 * rate and total, and a line per metric.  Returns 0, or -1 on a write
 * error.
 */
int topdraw_text(FILE *out, const struct topview_frame *f);

/* Colors, once after initscr (without colors the screen uses attributes). */
void topdraw_start(void);

/* The ncurses screen (after initscr and topdraw_start). */
void topdraw_screen(const struct topview_frame *f, const struct topdraw_view *v);

/* The order the cores are drawn in, indices into f->core: cpu order, or
 * busiest first (the first event's rate as shown, three significant
 * digits, so that cores whose figures read the same keep cpu order
 * instead of trading places with every refresh; gaps last). */
void topdraw_order(const struct topview_frame *f, enum topdraw_sort sort, unsigned *idx);

/* c: cpu order -> busiest first -> each core large -> cpu order. */
void topdraw_cycle(struct topdraw_view *v, unsigned ncores);

#endif
