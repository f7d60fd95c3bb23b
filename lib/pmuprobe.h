/*
 * pmuprobe.h - public interface of libpmuprobe.
 *
 * libpmuprobe reaches the Performance Monitors of Arm cores from outside the
 * chip, over CoreSight external debug: probe -> Debug Port -> APB-AP -> the
 * PMU's external register block.  Every call returns a pp_err; no function
 * prints.  Objects hang off handles: two probes in one process work.
 */
#ifndef PMUPROBE_H
#define PMUPROBE_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Call results.  One list, so the enum, the names and the messages cannot
 * drift apart (libusb keeps them in step by comment only). */
#define PP_ERRORS(X)                                                        \
    X(PP_OK,            0,  "success")                                      \
    X(PP_E_INVAL,      -1,  "invalid argument")                             \
    X(PP_E_NOMEM,      -2,  "out of memory")                                \
    X(PP_E_IO,         -3,  "input/output error")                           \
    X(PP_E_PARSE,      -4,  "malformed input")                              \
    X(PP_E_NOTFOUND,   -5,  "not found")                                    \
    X(PP_E_SLVERR,     -6,  "APB error response")                           \
    X(PP_E_FAULT,      -7,  "access fault")                                 \
    X(PP_E_WAIT,       -8,  "target still answering WAIT after retries")    \
    X(PP_E_LINK,       -9,  "probe link lost")                              \
    X(PP_E_UNSUPPORTED,-10, "not supported by this target or path")         \
    X(PP_E_BUSY,       -11, "resource already in use")                      \
    X(PP_E_PROTO,      -12, "garbled reply from the probe")                 \
    X(PP_E_TIMEOUT,    -13, "timed out")

enum pp_err {
#define PP_ERR_ENUM(name, value, msg) name = value,
    PP_ERRORS(PP_ERR_ENUM)
#undef PP_ERR_ENUM
};

/* "APB error response"; never NULL, also for unknown codes. */
const char *pp_strerror(int err);
/* "PP_E_SLVERR"; never NULL. */
const char *pp_errname(int err);

/* Per-operation status of a bus batch.  Kept apart from pp_err: a batch
 * call has one result, each of its operations has its own status. */
#define PP_OP_STATUSES(X)                                                   \
    X(PP_OP_PENDING, 0, "pending",  "not run yet")                          \
    X(PP_OP_OK,      1, "ok",       "ok")                                   \
    X(PP_OP_SLVERR,  2, "error",    "APB error response")                   \
    X(PP_OP_FAULT,   3, "fault",    "access fault (AP or bus)")             \
    X(PP_OP_WAIT,    4, "wait",     "wait timeout")                         \
    X(PP_OP_LINK,    5, "link",     "probe link lost")

enum pp_op_status {
#define PP_OPST_ENUM(name, value, shortname, msg) name = value,
    PP_OP_STATUSES(PP_OPST_ENUM)
#undef PP_OPST_ENUM
};

const char *pp_op_status_str(int st);      /* "APB error response" */
const char *pp_op_status_name(int st);     /* "error" */
/* The pp_err a failed operation status stands for (PP_OK for PP_OP_OK). */
int pp_op_status_err(int st);

/* One 32-bit APB access. */
struct pp_op {
    uint32_t addr;       /* APB address, word aligned */
    uint32_t wdata;      /* data to write (write ops) */
    uint32_t rdata;      /* data read (read ops, valid when st == PP_OP_OK) */
    uint8_t  write;      /* 1 = write, 0 = read */
    uint8_t  st;         /* enum pp_op_status, set by pp_bus_run */
};

struct pp_bus;           /* an access path: sim, rbb, ftdi, openocd */
struct pp_target;        /* a parsed target description */
struct pp_sim;           /* the simulated SoC */

/* Bus statistics: what the path spent, for benchmarks and `--stats`. */
struct pp_bus_stats {
    uint64_t batches;        /* pp_bus_run calls */
    uint64_t ops;            /* operations carried */
    uint64_t round_trips;    /* link round trips (0 for in-process) */
    uint64_t tck;            /* JTAG clocks (0 where not applicable) */
};

/*
 * Runs ops[0..n) in as few round trips as the path allows.  Every operation
 * ends with its own status; an error response on one does not stop the
 * others (the path clears and re-issues as needed).  Returns PP_OK when all
 * succeeded, else the pp_err of the first failed operation.
 */
int  pp_bus_run(struct pp_bus *bus, struct pp_op *ops, size_t n);
/* The batch ops[0..n) count times, interval_ns apart, results in
 * ops[k * n + i] and read times in t_ns[k] (see lib/bus/bus.h).
 * PP_E_UNSUPPORTED when the path has no repeat mode. */
int  pp_bus_run_repeat(struct pp_bus *bus, struct pp_op *ops, size_t n, unsigned count,
                       uint64_t interval_ns, uint64_t *t_ns);
int  pp_bus_read32(struct pp_bus *bus, uint32_t addr, uint32_t *val);
int  pp_bus_write32(struct pp_bus *bus, uint32_t addr, uint32_t val);
void pp_bus_get_stats(const struct pp_bus *bus, struct pp_bus_stats *out);
const char *pp_bus_name(const struct pp_bus *bus);
/* Last error detail of the path (e.g. "connection refused: 127.0.0.1:3335");
 * empty string when none. */
const char *pp_bus_errmsg(const struct pp_bus *bus);
void pp_bus_close(struct pp_bus *bus);

/* ==== sessions, cores and counter sets ===================================
 *
 * The model: a session is one target (a target description, by name or
 * path) reached over one access path.  It knows the target's cores; on a
 * core a counter set claims the PMU, programs and starts the counters, and
 * reads them as 64-bit values.  The bus underneath stays available for raw
 * register access (pp_bus_run...).  Objects are opaque and owned by the
 * caller through the open/close pairs; one session must be used by one
 * thread at a time (nothing inside locks), separate sessions are
 * independent.  Functions that can fail with a reason take err/errlen and
 * write a one-line message there (err may be NULL).
 */
struct pp_session;       /* target + access path (+ the simulated SoC) */
struct pp_counters;      /* counters programmed on one core */

/* How the simulated SoC keeps time (probe "sim" only). */
enum pp_sim_time {
    PP_SIM_TIME_DEFAULT = 0,     /* as the target description says */
    PP_SIM_TIME_DETERMINISTIC,   /* target time advances with bus activity */
    PP_SIM_TIME_REALTIME,        /* target time follows CLOCK_MONOTONIC */
};

/*
 * The wire trace: what the session sends to the target and what came
 * back, one record per access, for the day a real board misbehaves (the
 * CLI's --trace).  Layers, from the top; a level traces its layer and
 * every layer above it:
 *   PP_TRACE_APB   each APB access of a batch: address, the register it
 *                  names when the target knows it ("cpu0 PMCR"), value,
 *                  status (every path);
 *   PP_TRACE_DAP   each DP and AP register access of the own JTAG stack
 *                  (DPACC/APACC: DPIDR, CTRL/STAT, SELECT, RDBUFF, CSW,
 *                  TAR, DRW, BD0-3), with its ACK (OK, WAIT) and, for a
 *                  DRW or BDn, the APB address and register it reached;
 *                  on OpenOCD each command sent and the size of its reply;
 *   PP_TRACE_WIRE  each JTAG IR/DR scan with its TDI and TDO bits, and each
 *                  link round trip with its TCK and byte counts.
 * Records arrive in order, from inside the call that made them (after the
 * round trip that carried them), on the thread that made the access (a
 * capture's sampler thread while it runs).  Nothing is
 * traced, and nothing costs more than a pointer test, when no function is
 * set.
 */
enum pp_trace_layer {
    PP_TRACE_OFF  = 0,
    PP_TRACE_APB  = 1,
    PP_TRACE_DAP  = 2,
    PP_TRACE_WIRE = 3,
};

struct pp_trace_rec {
    int layer;               /* enum pp_trace_layer of this record */
    uint64_t t_ns;           /* CLOCK_MONOTONIC when recorded */
    bool write;
    uint32_t addr;           /* APB address; DP/AP: the register's address */
    uint64_t value;          /* written, or read (APB and DAP records) */
    const char *reg;         /* APB: "cpu0 PMCR"; DAP: "CTRL/STAT", "TAR", "DRW",
                              * ...; "" when unknown */
    const char *status;      /* "ok", "error", "WAIT", "OK", ...; "" when none */
    unsigned retry;          /* DAP: the WAIT recoveries before this access in
                              * its batch (0: first try) */
    const char *text;        /* the whole record as one line, no newline */
};

typedef void (*pp_trace_fn)(void *user, const struct pp_trace_rec *rec);

/* Options of pp_session_open; zero-initialise and set what you need. */
struct pp_open_opts {
    int sim_time;                /* enum pp_sim_time */
    /* Faults injected into the simulated SoC before anything is read, as
     * the CLI's --fault ("cpu1:powerdown"); probe "sim" only. */
    const char *const *faults;
    unsigned nfaults;
    /* The wire trace (see above): trace(trace_user, rec) for every record
     * of a layer <= trace_level; NULL: no trace.  Set before the path
     * opens, so discovery's accesses are traced too. */
    pp_trace_fn trace;
    void *trace_user;
    int trace_level;             /* enum pp_trace_layer; 0 with trace set: DAP */
    /* "ftdi": the TCK to request, in kHz, rounded down to what the
     * adapter's divisor gives (30 MHz / (1 + divisor)); 0: 15000.  The
     * other paths ignore it: the simulated SoC has no clock, a
     * remote_bitbang server and OpenOCD (its "adapter speed") set their
     * own. */
    unsigned speed_khz;
    /* "ftdi": the adapter's pin layout, as the CLI's --adapter: a name
     * ("minimodule", "ft232h", "ft4232h", ...) or
     * "custom:init=VALUE/DIR[,vidpid=VID:PID][,trst=SIG][,srst=SIG]";
     * NULL: the generic layout of the chip found.  PP_E_INVAL when
     * unknown or malformed.  The other paths ignore it. */
    const char *adapter;
    /* "openocd": on a lost connection to OpenOCD, reconnect, attach again
     * and re-run the batch once (for up to 10 s), as the CLI's
     * --reconnect.  The other paths ignore it. */
    bool reconnect;
    /* "rbb", "ftdi": pulse these reset pins (PP_RESET_TRST, PP_RESET_SRST)
     * for 100 ms after the link opens and before the JTAG-DP is examined,
     * as the CLI's reset command, so that a DP that does not answer before
     * the reset can still be reached.  PP_E_UNSUPPORTED when the adapter
     * layout (or the remote_bitbang server) has no such pin, and on "sim"
     * and "openocd" (OpenOCD resets with its own reset_config).  0: no
     * pulse. */
    unsigned reset;
    /* "rbb", "ftdi": the TAPs on the JTAG chain, from the TDI end or the
     * TDO end, as the CLI's --jtag-chain ("tdi,dap,pl:irlen=6,tdo"; see
     * pmuprobe(1)); replaces the target description's jtag.chain.  NULL:
     * the target's, else what the chain shows by itself.  PP_E_INVAL when
     * malformed, and on "sim" and "openocd" (OpenOCD has its own). */
    const char *jtag_chain;
};
/* Bits of pp_open_opts.reset. */
#define PP_RESET_TRST 1u             /* nTRST: the TAP reset */
#define PP_RESET_SRST 2u             /* nSRST: the system reset */

/*
 * Opens a session.  target: a target description file path, or the name
 * of one in $PMUPROBE_TARGETS or the installed targets directory
 * ("a76-cluster"), or NULL: then "sim" builds a76-cluster and any other
 * path discovers the SoC from the live ROM tables (one walk: a batch per
 * component, then one for the cores' MIDRs and one for their PMCFGRs).
 * probe, as the CLI's --probe:
 *   "sim"                    the simulated SoC, in process
 *   "rbb:HOST:PORT"          remote_bitbang over TCP (e.g. pmuprobe-sim)
 *   "rbb:unix:PATH"          remote_bitbang over a UNIX socket
 *   "openocd[:HOST[:PORT]]"  a client of a running OpenOCD, over its TCL
 *                            RPC port (default localhost:6666; an IPv6
 *                            address in brackets, "openocd:[::1]:6666";
 *                            all digits: a port, "openocd:6667")
 *   "ftdi[:VID:PID[:SERIAL]][@A|B|C|D][,desc=TEXT][,usb=BUS-PORT.PORT][,sync]"
 *                            an FTDI MPSSE adapter driven by pmuprobe's own
 *                            JTAG stack (VID:PID in hex; default: any
 *                            2232H/4232H/232H; opts->adapter names its
 *                            pins, opts->speed_khz its clock)
 * Cores described "type = auto" are identified from the silicon before
 * this returns.  opts may be NULL (every field zero).
 * Returns PP_OK and *out (free with pp_session_close); PP_E_NOTFOUND (no
 * such target, or no such FTDI adapter), PP_E_PARSE (bad description),
 * PP_E_INVAL (bad probe spec or option, unknown path), PP_E_UNSUPPORTED
 * (an option the path cannot honour, an adapter without MPSSE),
 * PP_E_BUSY (adapter claimed by another program, or permission denied),
 * PP_E_IO/PP_E_LINK/PP_E_PROTO (path failed), PP_E_NOMEM; err says why.
 */
int pp_session_open(const char *target, const char *probe, const struct pp_open_opts *opts,
                    struct pp_session **out, char *err, size_t errlen);
/* Closes the bus and frees everything; open counter sets must be closed
 * first.  NULL is a no-op. */
void pp_session_close(struct pp_session *s);
/* Starts, changes or (fn NULL) stops the session's wire trace, as
 * pp_open_opts.trace does at open.  PP_E_NOMEM, else PP_OK. */
int pp_session_set_trace(struct pp_session *s, pp_trace_fn fn, void *user, int level);
/* The session's bus for raw access; owned by the session, valid until
 * pp_session_close. */
struct pp_bus *pp_session_bus(struct pp_session *s);
/* The target's name ("a76-cluster"); owned by the session. */
const char *pp_session_target_name(const struct pp_session *s);

/* What the target description (and, where read, the silicon) says about a
 * core.  Strings are static, never freed. */
struct pp_core_info {
    unsigned cpu;                /* logical number, as "cpuN" on the CLI */
    unsigned cluster;            /* cluster index */
    const char *type;            /* "cortex-a76" */
    const char *pretty;          /* "Cortex-A76" */
    uint32_t midr;               /* MIDR_EL1 as read over the bus ... */
    bool     midr_valid;         /* ... when this is true */
    uint32_t debug_base;         /* external debug register block */
    uint32_t pmu_base;           /* PMU register block */
    unsigned counters;           /* event counters (PMCR.N), cycle counter extra */
};

/* Number of cores the session's target has; cores are indexed 0..n-1. */
unsigned pp_session_ncores(const struct pp_session *s);
/* Fills *out for core index i (not the cpu number); reads MIDR in one bus
 * batch.  PP_E_INVAL when i is out of range; a failed MIDR read only
 * clears midr_valid. */
int pp_session_core(struct pp_session *s, unsigned i, struct pp_core_info *out);

/*
 * Takes the PMU of cpu (its cpu number) and counts events, a comma list as
 * on the CLI ("cycles,instructions", "L1D_CACHE_REFILL", "r0x11:u").  In
 * order: resolves the events for the core type, reads the PMU and refuses
 * (PP_E_BUSY, nothing written) when someone else uses it (spec 3: claim
 * tag 1 or counters in use), sets the external claim tag, programs and
 * starts the counters from zero.  Errors: PP_E_NOTFOUND (no such cpu or
 * event), PP_E_PARSE, PP_E_BUSY (too many events, or PMU in use),
 * PP_E_SLVERR/PP_E_FAULT (core powered down, locked...), the path's
 * errors; err says why.  *out is freed by pp_counters_close.
 */
int pp_counters_open(struct pp_session *s, unsigned cpu, const char *events,
                     struct pp_counters **out, char *err, size_t errlen);
/* Number of events in the set, in the order given. */
size_t pp_counters_count(const struct pp_counters *c);
/* Name of event i as given ("cycles"); owned by the set, NULL if out of range. */
const char *pp_counters_name(const struct pp_counters *c, size_t i);
/*
 * Reads every counter of the set in one bus batch into values[0..n) (n at
 * most pp_counters_count), in event order, as counts since the open.  The
 * counters are 32 bits wide on the bus; the set extends them to 64 bits
 * by accumulating differences, so read at least once per 2^32 events
 * (about a second at 4 GHz).  Returns PP_OK or the error of the first
 * failed read (values then unchanged).
 */
int pp_counters_read(struct pp_counters *c, uint64_t *values, size_t n);
/* Stops the set's counters, releases the claim tag and frees the set.
 * Returns the stop's bus error, if any (the set is freed anyway); NULL is
 * PP_OK. */
int pp_counters_close(struct pp_counters *c);

#ifdef __cplusplus
}
#endif
#endif /* PMUPROBE_H */
