/*
 * session.h - internal side of the public session API: the session object
 * and the access-path openers (one file per path: path_<name>.c).
 */
#ifndef PP_SESSION_INTERNAL_H
#define PP_SESSION_INTERNAL_H

#include "pmuprobe.h"
#include "target/target.h"

struct pp_link;

/* Which step of opening an access path failed (pp_session.failed_at):
 * err says why in the library's words; the CLI words the first two after
 * its own options (--probe, --adapter, --jtag-chain) and keeps the others. */
enum pp_path_step {
    PP_STEP_NONE = 0,
    PP_STEP_SPEC,                   /* the text after "NAME:" is malformed */
    PP_STEP_ADAPTER,                /* opts->adapter is unknown or malformed */
    PP_STEP_CHAIN,                  /* opts->jtag_chain is malformed */
    PP_STEP_OPTS,                   /* an option the path does not take */
    PP_STEP_LINK,                   /* the link (USB, TCP) did not open */
    PP_STEP_RESET,                  /* the reset pulse (opts->reset) failed */
    PP_STEP_BUS,                    /* the link opened, the DP or OpenOCD
                                     * session behind it did not */
};

struct pp_session {
    struct pp_target *target;       /* as used: "type = auto" cores resolved */
    struct pp_target *described;    /* as the file said, when they differ */
    struct pp_sim *sim;             /* NULL on non-sim paths */
    struct pp_bus *bus;
    bool discovering;               /* target is the stand-in that opens a
                                     * path before discovery replaces it */
    struct pp_trace *trace;         /* the wire trace until a bus takes it
                                     * (pp_session_trace_bus), else NULL */
    enum pp_path_step failed_at;    /* set by a failed path opener */
};

/* The pending tracer, for a path opener to hand to its bus (which owns it
 * from there); NULL when none.  Clears s->trace. */
struct pp_trace *pp_session_take_trace(struct pp_session *s);
/* Gives a pending tracer to s->bus, once there is one. */
void pp_session_trace_bus(struct pp_session *s);
/* Tells the tracer (pending or the bus's) the cores of s->target, for
 * naming APB addresses: after every change of target. */
void pp_session_trace_target(struct pp_session *s);

/* An access path opener: builds s->bus (and s->sim) for s->target from the
 * text after "NAME:" ("" when none).  PP_E_INVAL for a bad spec. */
typedef int (*pp_path_open_fn)(struct pp_session *s, const char *spec,
                               const struct pp_open_opts *opts, char *err, size_t errlen);

/*
 * pp_session_open in its three steps, for the CLI (src/cli/session.c), which
 * opens paths of its own between begin and finish by setting s->bus:
 * begin allocates and loads the target; attach opens a library path
 * (PP_E_NOTFOUND when probe names none, err untouched); finish identifies
 * "type = auto" cores and leaves one warning per line in note (may be
 * empty).  On failure the caller closes s with pp_session_close.
 */
int pp_session_begin(const char *target, struct pp_session **out, char *err, size_t errlen);
/* The target a session uses without one: a76-cluster on the simulated SoC,
 * discovery on hardware (NULL). */
const char *pp_session_default_target(const char *probe);
/* "rbb:localhost:9999" -> 3 (the path's name is "rbb") and *spec =
 * "localhost:9999"; "ftdi@B" -> 4 and "@B" (an interface suffix belongs to
 * the spec).  The library's paths and the CLI's are found by it. */
size_t pp_probe_split(const char *probe, const char **spec);

/*
 * Replaces the stand-in target with one discovered from the live SoC
 * behind s->bus (discover.c); via names the path ("openocd").  note gets
 * one line per core discovery had to guess (unknown type, powered off);
 * it may be NULL.  pp_discover_text gives the same description as the
 * text of a target file (scan --save); *text is the caller's to free.
 */
int pp_session_discover(struct pp_session *s, const char *via, char *note, size_t notelen,
                        char *err, size_t errlen);
int pp_discover_text(struct pp_bus *bus, const char *via, char **text, char *note,
                     size_t notelen, char *err, size_t errlen);
/* Replaces the stand-in with the description in text (from discovery). */
int pp_session_use_text(struct pp_session *s, const char *via, const char *text, char *err,
                        size_t errlen);
/* Replaces the stand-in with t (the session owns it from here). */
void pp_session_adopt(struct pp_session *s, struct pp_target *t);
/*
 * pp_session_discover through a cache in dir (discover_cache.c): two
 * batches on a hit, whose file is then named in cached; a miss discovers
 * and stores.  dir NULL: no cache.  The library's pp_session_open does not
 * use it (a library should not write in its caller's home); the CLI does.
 */
int pp_session_discover_cached(struct pp_session *s, const char *via, const char *dir,
                               char *cached, size_t cachedlen, char *note, size_t notelen,
                               char *err, size_t errlen);

int pp_session_attach(struct pp_session *s, const char *probe, const struct pp_open_opts *opts,
                      char *err, size_t errlen);
int pp_session_finish(struct pp_session *s, char *note, size_t notelen);

int pp_path_open_sim(struct pp_session *s, const char *spec, const struct pp_open_opts *opts,
                     char *err, size_t errlen);
int pp_path_open_rbb(struct pp_session *s, const char *spec, const struct pp_open_opts *opts,
                     char *err, size_t errlen);
/* After discovery: gives an openocd bus the PMU blocks of s->target
 * (lib/bus/ocd_bus.c reads their side-effect-free windows whole); nothing
 * on other paths. */
void pp_path_openocd_target(struct pp_session *s);
int pp_path_open_openocd(struct pp_session *s, const char *spec,
                         const struct pp_open_opts *opts, char *err, size_t errlen);
int pp_path_open_ftdi(struct pp_session *s, const char *spec, const struct pp_open_opts *opts,
                      char *err, size_t errlen);
int pp_path_open_cmsisdap(struct pp_session *s, const char *spec,
                          const struct pp_open_opts *opts, char *err, size_t errlen);

/* The options only the simulated SoC takes (sim_time, faults), refused on
 * the hardware path name with PP_E_INVAL (path_rbb.c). */
int pp_path_no_sim_opts(struct pp_session *s, const char *name,
                        const struct pp_open_opts *opts, char *err, size_t errlen);
/* opts->jtag_chain into s->target's chain (own-stack paths: rbb, ftdi);
 * PP_E_INVAL when malformed.  pp_path_no_chain refuses it on the paths
 * whose chain is not pmuprobe's to drive. */
int pp_path_chain(struct pp_session *s, const struct pp_open_opts *opts, char *err,
                  size_t errlen);
int pp_path_no_chain(struct pp_session *s, const char *name, const struct pp_open_opts *opts,
                     char *err, size_t errlen);
/* A USB VID or PID of a probe spec (ftdi, cmsis-dap): hex, 0-FFFF, the
 * whole string.  False when empty or malformed (path_rbb.c). */
bool pp_path_hex16(const char *s, uint16_t *out);
/* What an own-stack path (rbb, ftdi) does once its link is open: the
 * opts->reset pulse, then the ADIv5 bus, which owns the link (and the
 * pending tracer) from then on; the link is closed on every failure.
 * The reset's message is "reset: WHY"; the bus's is its own. */
int pp_path_bus_over_link(struct pp_session *s, struct pp_link *link,
                          const struct pp_open_opts *opts, char *err, size_t errlen);

#endif
