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

/*
 * A duration as a person writes it, in the units the command line's
 * -i/-d and the simulator's fault times take: a decimal number with an
 * optional fraction and a unit, ns, us, ms, s, m or h ("500us", "10ms",
 * "1.5s", "5m"), nothing else (no sign, no blanks, no hex), below
 * about 292 years.  Returns PP_OK and *ns (rounded to the nearest ns),
 * or PP_E_PARSE with err saying what is accepted (*ns unchanged), or
 * PP_E_INVAL for a NULL text or ns.  No I/O.
 */
int pp_parse_duration(const char *text, uint64_t *ns, char *err, size_t errlen);

/* Per-operation status of a bus batch.  Kept apart from pp_err: a batch
 * call has one result, each of its operations has its own status. */
#define PP_OP_STATUSES(X)                                                   \
    X(PP_OP_PENDING, 0, "pending",  "not run yet")                          \
    X(PP_OP_OK,      1, "ok",       "ok")                                   \
    X(PP_OP_SLVERR,  2, "error",    "APB error response")                   \
    X(PP_OP_FAULT,   3, "fault",    "access fault (AP or bus)")             \
    X(PP_OP_WAIT,    4, "wait",     "wait timeout")                         \
    X(PP_OP_LINK,    5, "link",     "probe link lost")                      \
    X(PP_OP_SKIPPED, 6, "skipped",  "not carried in this repetition (once)")

enum pp_op_status {
#define PP_OPST_ENUM(name, value, shortname, msg) name = value,
    PP_OP_STATUSES(PP_OPST_ENUM)
#undef PP_OPST_ENUM
};

const char *pp_op_status_str(int st);      /* "APB error response" */
const char *pp_op_status_name(int st);     /* "error" */
/* The pp_err a failed operation status stands for (PP_OK for PP_OP_OK and
 * PP_OP_SKIPPED, which are not failures). */
int pp_op_status_err(int st);

/* One 32-bit APB access. */
struct pp_op {
    uint32_t addr;       /* APB address, word aligned */
    uint32_t wdata;      /* data to write (write ops) */
    uint32_t rdata;      /* data read (read ops, valid when st == PP_OP_OK) */
    uint8_t  write;      /* 1 = write, 0 = read */
    uint8_t  st;         /* enum pp_op_status, set by pp_bus_run */
    uint8_t  once;       /* pp_bus_run_repeat: 1 = needed in the first
                          * repetition only.  A path that honours it does
                          * not carry the op in the others and sets their
                          * copies' st to PP_OP_SKIPPED; one that does not
                          * carries it every time.  pp_bus_run ignores it. */
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
 * ops[k * n + i] and read times in t_ns[k] (see lib/bus/bus.h), set even
 * when the call fails as a whole: then spread evenly over the call.
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
    /* How the DP is reached, as the CLI's --transport: "jtag" (NULL: the
     * same) or "swd", on "cmsis-dap" and "ftdi".  A CMSIS-DAP probe
     * connects in SWD, sends the line reset and JTAG-to-SWD sequences and
     * reads DPIDR.  On "ftdi" SWDIO must be wired to TDI (through a
     * resistor, ~470 ohm) and TDO, as OpenOCD's swd-resistor-hack.cfg:
     * pmuprobe switches a SWJ-DP from JTAG to SWD and runs its own SWD
     * engine over the MPSSE's JTAG shifts; built-in adapter layouts with a
     * buffered JTAG connector are refused with it.  jtag_chain is refused
     * with "swd", and so is "swd" on the other paths (PP_E_INVAL). */
    const char *transport;
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
 *   "cmsis-dap[:VID:PID][:SERIAL]"
 *                            a CMSIS-DAP v2 probe over USB, in JTAG mode,
 *                            DP/AP accesses as its DAP_Transfer
 *                            (opts->speed_khz: its SWJ clock, 0 for 1000)
 * Cores described "type = auto" are identified from the silicon before
 * this returns.  opts may be NULL (every field zero).
 * Returns PP_OK and *out (free with pp_session_close); PP_E_NOTFOUND (no
 * such target, or no such FTDI adapter or CMSIS-DAP probe), PP_E_PARSE (bad description),
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

/* ==== status, registers, events, discovery ================================
 *
 * What the CLI's status, read/write, events and scan commands show, as
 * data.  Same rules as above: one thread per session at a time, err may be
 * NULL, results are PP_OK or a negative pp_err.
 */

/* Why a core's PMU does or does not answer (spec/arm-pmu-coresight.md 2.1,
 * 2.7).  The values are fixed: captures store a cause as its number, so
 * causes are only ever appended. */
#define PP_CAUSES(X)                                                               \
    X(PP_CAUSE_NONE,          0, "none",          "PMU accessible")                \
    X(PP_CAUSE_DEBUG_OFF,     1, "debug-off",     "debug power domain off or block absent") \
    X(PP_CAUSE_CORE_OFF,      2, "core-off",      "core powered off")              \
    X(PP_CAUSE_DOUBLE_LOCK,   3, "double-lock",   "OS double lock set")            \
    X(PP_CAUSE_OS_LOCK,       4, "os-lock",       "OS lock set")                   \
    X(PP_CAUSE_PMU_DISABLED,  5, "pmu-disabled",  "external PMU access disabled by authentication") \
    X(PP_CAUSE_SOFTWARE_LOCK, 6, "software-lock", "software lock set (memory-mapped access)") \
    X(PP_CAUSE_UNKNOWN,       7, "unknown",       "cause not identified")          \
    X(PP_CAUSE_DP_WAIT,       8, "dp-wait",       "debug port kept answering WAIT") \
    X(PP_CAUSE_TAKEN_OVER,    9, "taken-over",    "another agent reprogrammed, disabled or claimed the counters")

enum pp_cause {
#define PP_CAUSE_ENUM(name, value, shortname, msg) name = value,
    PP_CAUSES(PP_CAUSE_ENUM)
#undef PP_CAUSE_ENUM
};

/* "os-lock" (the CLI's --json "cause"); never NULL: "unknown" for a
 * number not in the list.  Static. */
const char *pp_cause_name(int cause);
/* "OS lock set"; never NULL.  Static. */
const char *pp_cause_str(int cause);

/*
 * One core's state as its external debug block tells it, and whether its
 * PMU answers; the facts `pmuprobe status --json` prints.  Each raw
 * register carries a valid flag (false: its read got an error response).
 * The decoded flags (powered ... halted) mean something only when
 * edprsr_valid and, for all but powered, powered.
 */
struct pp_core_status {
    unsigned cpu;                /* cpu number, as "cpuN" */
    const char *type;            /* "Cortex-A76"; static */
    bool pmu_ok;                 /* the PMU answered (its PMCFGR read) */
    int cause;                   /* enum pp_cause; PP_CAUSE_NONE when pmu_ok */
    char evidence[192];          /* the values that prove it, one line:
                                  * "EDPRSR=0x00000021: PU OSLK"; never empty */
    const char *remedy;          /* what to do, one line; static; NULL when
                                  * nothing is wrong (pmu_ok) */
    bool powered;                /* EDPRSR.PU: core power domain on */
    bool oslock;                 /* OS lock set (Armv7.0: DBGOSLSR.OSLK) */
    bool doublelock;             /* OS double lock set */
    bool halted;                 /* core in Debug state */
    bool nid_enabled;            /* external non-invasive debug enabled
                                  * (DBGAUTHSTATUS.NSNID == 0b11; spec 3.5);
                                  * valid with authstatus_valid */
    uint32_t edprsr;      bool edprsr_valid;      /* debug+0x314, read once */
    uint32_t authstatus;  bool authstatus_valid;  /* DBGAUTHSTATUS, debug+0xFB8 */
    uint32_t pmcfgr;      bool pmcfgr_valid;      /* PMCFGR, pmu+0xE00 */
    uint32_t oslsr;       bool oslsr_valid;       /* Armv7 DBGOSLSR, debug+0x304
                                                   * (read on PMUv2 cores only) */
};

/*
 * Diagnoses core index i (as pp_session_core: not the cpu number) in one
 * bus batch: a probe of the PMU (PMCFGR), then EDPRSR, DBGAUTHSTATUS and,
 * on Armv7, DBGOSLSR, and names the first blocking condition in the
 * architecture's order (core off, double lock, OS lock, PMU access
 * disabled).  EDPRSR is read once: the read clears its sticky bits, so a
 * second diagnosis right after may see less.  A core that does not answer
 * is a result (PP_OK, pmu_ok false, cause set), not an error.  Errors:
 * PP_E_INVAL (i out of range), PP_E_LINK / PP_E_WAIT (the path failed;
 * *out then undefined); err says why.
 */
int pp_core_status(struct pp_session *s, unsigned i, struct pp_core_status *out,
                   char *err, size_t errlen);

/* One field of a register, decoded. */
struct pp_reg_field {
    const char *name;            /* "E", "N", "evtCount"; static */
    unsigned lsb, width;         /* bits [lsb + width - 1 : lsb] */
    uint64_t value;              /* the field's value, shifted down */
    const char *meaning;         /* what this value means where the map
                                  * enumerates it ("PMUv3", "enabled"),
                                  * else NULL; static */
    const char *desc;            /* what the field is ("enable all
                                  * counters"); static */
};

#define PP_REG_MAX_FIELDS 32

/* A register read by name, with its fields.  Plain data: nothing to free. */
struct pp_reg_value {
    char name[24];               /* canonical: "PMCR", "PMEVCNTR3", "pmu+0x600" */
    const char *block;           /* "pmu" or "debug"; static */
    const char *desc;            /* what the register is; static */
    uint32_t offset;             /* within its block */
    uint32_t addr;               /* APB address (of the low word) */
    uint64_t value;              /* the value read */
    unsigned width;              /* 32, or 64 for a 64-bit counter (PMCCNTR
                                  * on PMUv3) read whole */
    size_t nfields;
    struct pp_reg_field fields[PP_REG_MAX_FIELDS];
    char text[2048];             /* what `pmuprobe read` prints for it: the
                                  * line "cpu0 PMCR 0x81030E04 = 0x41013000",
                                  * then one line per field, '\n'-terminated */
};

/*
 * Reads register name of cpu (its cpu number) and decodes it.  name is an
 * Arm register name, any case ("PMCR", "PMCR_EL0", "PMEVCNTR3",
 * "PMCEID1", "EDPRSR", "MIDR", "pmu.PMCR") or a block offset
 * ("pmu+0xE04", "debug+0x314"), as the CLI's `read` takes it.  One bus
 * batch; a 64-bit counter (PMCCNTR on PMUv3) is read high, low, high word
 * in it so a carry between the reads is seen, and comes back whole
 * (width 64); "PMCCNTR_HI" reads the high word alone.  Errors:
 * PP_E_NOTFOUND (no such cpu, or no such register on that core: err names
 * it and suggests the closest names, "did you mean PMCR?"); PP_E_INVAL
 * (a write-only register, a malformed offset); PP_E_SLVERR / PP_E_FAULT
 * (the access failed: err carries the core's diagnosis as the CLI prints
 * it, cause, evidence and remedy, on one line); the path's errors.  On
 * failure *out holds name, block, offset and addr where they were known,
 * value 0 and no fields.
 */
int pp_reg_read(struct pp_session *s, unsigned cpu, const char *name, struct pp_reg_value *out,
                char *err, size_t errlen);
/*
 * Writes value to register name of cpu (names as pp_reg_read), in one bus
 * batch.  A 32-bit register takes 0..0xFFFFFFFF; a 64-bit counter
 * (PMCCNTR on PMUv3) takes the whole value, written low word then high
 * word (a running counter may carry between the two).  Read-only
 * registers are refused.  Errors: PP_E_NOTFOUND (as pp_reg_read),
 * PP_E_INVAL (read-only register, value too wide, malformed offset),
 * PP_E_SLVERR / PP_E_FAULT with the diagnosis in err, the path's errors.
 */
int pp_reg_write(struct pp_session *s, unsigned cpu, const char *name, uint64_t value,
                 char *err, size_t errlen);

/* One PMU event of a core. */
struct pp_event_info {
    uint16_t code;               /* event number, as PMEVTYPER.evtCount */
    const char *name;            /* Arm mnemonic, "L1D_CACHE_REFILL"; NULL for
                                  * a code the core advertises that no
                                  * catalog knows; static */
    const char *desc;            /* short description; static */
    const char *component;       /* "L1D", "L2", "BPU", ...; NULL if none; static */
    bool common;                 /* a common event (0x0000-0x003F,
                                  * 0x4000-0x403F) with a PMCEID bit */
    bool checked;                /* advertised comes from the core's PMCEID:
                                  * false for an IMPLEMENTATION DEFINED event
                                  * (PMCEID cannot tell), and for every event
                                  * when PMCEID could not be read */
    bool advertised;             /* the core's PMCEID0-3 has its bit set */
};

/*
 * The events of cpu (its cpu number), as `pmuprobe events` lists them:
 * the core type's catalog, in code order, then the common events the core
 * advertises that its catalog lacks.  Reads PMCEID0-1 (PMUv3p1: 0-3) in
 * one bus batch to set advertised.  A core that does not answer still
 * gets its catalog: PP_OK with every checked false, and err (when given)
 * holds a note with the diagnosis ("PMCEID unreadable on cpu1: core
 * powered off (EDPRSR=...)"); otherwise err is "".  *out is the caller's,
 * freed with pp_events_free; *n its length.  Errors: PP_E_NOTFOUND (no
 * such cpu, or no catalog for its type), PP_E_NOMEM, PP_E_LINK (the path
 * failed: neither PMCEID nor the diagnosis came back).
 */
int pp_events_list(struct pp_session *s, unsigned cpu, struct pp_event_info **out, size_t *n,
                   char *err, size_t errlen);
/* Frees a list from pp_events_list; NULL is a no-op. */
void pp_events_free(struct pp_event_info *list);

/* One CoreSight component found by walking the ROM tables. */
struct pp_component {
    uint32_t addr;               /* base of its 4 KB block */
    uint32_t rom;                /* the ROM table that lists it (0: the root) */
    unsigned depth;              /* 0 = root ROM table */
    int status;                  /* PP_OK, or the error reading its IDs
                                  * (then only addr, rom, depth, kind mean
                                  * something) */
    unsigned cls;                /* CIDR1.CLASS: 0x1 ROM table, 0x9 CoreSight */
    uint16_t part;               /* PIDR part number */
    uint16_t designer;           /* JEP106, 0x23B = Arm */
    uint32_t devarch;            /* DEVARCH (class 0x9), else 0 */
    const char *kind;            /* "ROM table", "debug", "PMU", "CTI", "ETM",
                                  * "other", "unreadable"; static */
    char name[64];               /* "Cortex-A76 PMU", as `scan` prints it */
    int cpu;                     /* the cpu number of the session's core whose
                                  * debug, PMU or CTI block this is; -1 when
                                  * none */
};

/*
 * Walks the ROM tables from the target's ROM base as `pmuprobe scan` does
 * (nested class 0x1 and 0x9 tables, depth first; a bus batch per
 * component) and returns every component in walk order, each tied to the
 * session's core whose block it is (by the bases pp_session_core gives).  *out is the
 * caller's, freed with pp_scan_free; *n its length.  Errors: PP_E_NOMEM,
 * PP_E_LINK and the path's errors, PP_E_SLVERR / PP_E_FAULT / PP_E_PARSE
 * when the root table cannot be read or is malformed (err names the
 * address).  A component whose IDs are unreadable is listed with its
 * status, not an error.
 */
int pp_scan(struct pp_session *s, struct pp_component **out, size_t *n, char *err,
            size_t errlen);
/* Frees a list from pp_scan; NULL is a no-op. */
void pp_scan_free(struct pp_component *list);

/* ==== capture ============================================================
 *
 * A capture samples the counters of several cores of a session at a steady
 * rate, on two threads of its own: a sampler thread that drives the bus
 * (one bus batch per sample for every core) and a writer thread that hands
 * each sample to an optional file (the CLI's stream formats) and to the
 * caller, either through a callback or through a queue the caller pulls
 * from (pp_capture_next, pp_capture_next_batch).  While a capture runs its
 * sampler thread alone uses the session: the caller must not touch the
 * session (nor its bus or counter sets) until pp_capture_close.  One capture per session at a time.
 *
 * A sample is one core's slice of one read: its 64-bit counts since the
 * start and the deltas since the previous sample, in the order of the
 * events asked for.  The first sample of every core is the baseline (its
 * deltas are 0), so count = N gives N + 1 samples per core.  When a core
 * cannot be read, or its values are not trusted (powered down, locked,
 * counters taken over by someone else...), its slice is a gap: no values,
 * and a cause (enum pp_cause: PP_CAUSE_CORE_OFF "core-off", ... named by
 * pp_cause_name).  The engine retries such a core (every 100 ms) and its
 * counts resume with a sample whose untrusted deltas are 0 (discont).
 */
struct pp_capture;

/* Flags of struct pp_capture_opts. */
#define PP_CAPTURE_FORCE      (1u << 0)  /* take counters someone else uses
                                          * (CLI --steal); else PP_E_BUSY */
#define PP_CAPTURE_SNAPSHOT   (1u << 1)  /* force the snapshot copies, all
                                          * events of a core at one instant
                                          * (Cortex-A55/A76; CLI
                                          * --snapshot); a core without the
                                          * block refuses the start.  With
                                          * neither this nor PP_CAPTURE_LIVE
                                          * a core uses its block when it
                                          * has one and it copies the events'
                                          * counters (0-5), unless cycles
                                          * are counted alone */
#define PP_CAPTURE_NO_REPEAT  (1u << 2)  /* never use the path's repeat mode */
#define PP_CAPTURE_REALTIME   (1u << 3)  /* read CLOCK_REALTIME per sample
                                          * (else t_real_ns is derived from
                                          * the start's) */
#define PP_CAPTURE_NO_EDPRSR  (1u << 4)  /* do not read EDPRSR per sample
                                          * (power cycles then show only as
                                          * failed reads; CLI --no-edprsr) */
#define PP_CAPTURE_PULL       (1u << 5)  /* queue samples for pp_capture_next
                                          * also when file is set (see below) */
#define PP_CAPTURE_LIVE       (1u << 6)  /* force live counter reads on every
                                          * core (CLI --live); not with
                                          * PP_CAPTURE_SNAPSHOT */

/* One core's slice of one sample.  Valid during the callback, or until the
 * next pp_capture_next / pp_capture_close in pull mode; copy what you keep. */
struct pp_sample {
    uint64_t seq;            /* sample number, 0 (baseline), 1, 2, ...; a jump
                              * means samples dropped or missed, counted in
                              * pp_capture_stats */
    uint64_t t_ns;           /* start of the read window since the capture's
                              * start (CLOCK_MONOTONIC; target-side time on
                              * paths with a repeat mode) */
    uint64_t t_real_ns;      /* the same instant as CLOCK_REALTIME */
    unsigned core;           /* index in the capture, 0..pp_capture_ncores-1 */
    unsigned cpu;            /* the core's cpu number ("cpuN") */
    bool     gap;            /* no values: the core could not be read or its
                              * values are not trusted; see cause */
    int      cause;          /* gap: enum pp_cause (pp_cause_name); else 0 */
    bool     baseline;       /* the capture's first sample (seq 0): deltas 0 */
    uint32_t discont;        /* bit i: deltas[i] is not trusted and reads 0
                              * (baseline, power cycle, reset, counter
                              * restarted); 0 when all are */
    unsigned nvalues;        /* events; 0 in a gap */
    const uint64_t *values;  /* totals since the start, event order; NULL in a gap */
    const uint64_t *deltas;  /* since the core's previous sample; NULL in a gap */
};

/* Called on the capture's writer thread, once per core per sample, in
 * sample order; may call pp_capture_stop (nothing else of the capture).
 * A slow callback delays sampling (see the queue below), it loses nothing. */
typedef void (*pp_sample_fn)(void *user, const struct pp_sample *s);

/* Options of pp_capture_start; zero-initialise and set what you need. */
struct pp_capture_opts {
    const char *events;      /* comma list as the CLI's -e ("cycles,instructions",
                              * "L1D_CACHE_REFILL", "r0x11:u"), resolved for each
                              * core's type; NULL: "cycles,instructions" */
    const unsigned *cpus;    /* cpu numbers to sample; NULL or ncpus 0: every core */
    unsigned ncpus;
    uint64_t interval_ns;    /* between samples; 0: as fast as the path allows */
    uint64_t duration_ns;    /* stop after this long; samples a slow path could
                              * not take in time are counted as missed */
    uint64_t count;          /* stop after this many intervals (count + 1 samples);
                              * with duration_ns 0 as well: until pp_capture_stop */
    unsigned flags;          /* PP_CAPTURE_* */
    const char *file;        /* optional: also write the capture to this file
                              * (created or truncated), as `pmuprobe stream -o`
                              * does; NULL: no file */
    const char *format;      /* the file's format: "bin", "csv", "jsonl", "perf",
                              * "trace"; NULL: "csv" */
    pp_sample_fn on_sample;  /* callback mode when set */
    void *user;              /* its first argument */
    unsigned queue;          /* pull mode: samples (records of every core) the
                              * queue holds; 0: 1024 */
};

/*
 * Starts a capture on s: resolves the events for each core, takes and
 * programs every core's PMU (the ownership check of pp_counters_open:
 * PP_E_BUSY when someone else uses it, unless PP_CAPTURE_FORCE), then
 * starts the sampler and writer threads and returns.  A core that does
 * not answer while programming (powered down, locked) stays in the
 * capture: its samples are gaps until it can be programmed.
 *
 * Samples go to the file (when set) and then:
 *   - on_sample set: to the callback;
 *   - on_sample NULL, and file NULL or PP_CAPTURE_PULL: to a bounded queue
 *     that pp_capture_next (or pp_capture_next_batch) empties.  When the
 *     queue is full the writer thread waits for the puller (until half of
 *     it is free); the engine's ring (8192 samples) then
 *     fills and the sampler waits too: samples are taken late (counted in
 *     pp_capture_stats.late), never dropped.  So keep pulling until
 *     pp_capture_next returns PP_CAPTURE_END;
 *   - otherwise (file only): nowhere else.
 * *out is set before the first callback runs; free it with
 * pp_capture_close.  Errors, with err saying why (nothing left programmed
 * or running, no file left behind): PP_E_INVAL (bad options: NULL s/o/out, count with
 * duration, a callback with PP_CAPTURE_PULL), PP_E_NOTFOUND (no such
 * cpu, unknown event: err names it, or format), PP_E_PARSE (malformed
 * event list), PP_E_BUSY (too many events, or a PMU in use),
 * PP_E_UNSUPPORTED (snapshot on a core without the block, fewer counters
 * than events), PP_E_IO (the file could not be created; a thread could not
 * start), PP_E_LINK (the path died while programming), PP_E_NOMEM.
 */
int pp_capture_start(struct pp_session *s, const struct pp_capture_opts *o,
                     struct pp_capture **out, char *err, size_t errlen);

/* pp_capture_next's value once the capture has ended and every queued
 * sample was pulled (a positive value: no pp_err is positive). */
#define PP_CAPTURE_END 2

/*
 * Pull mode: the next core slice into *out, waiting up to timeout_ns
 * (0: do not wait; UINT64_MAX: until one comes).  Returns 1 (a sample),
 * 0 (none within timeout_ns), PP_CAPTURE_END (the capture ended and all
 * its samples were pulled; again on every later call), or PP_E_INVAL (c
 * or out NULL, or not in pull mode).  One thread pulls at a time.
 */
int pp_capture_next(struct pp_capture *c, struct pp_sample *out, uint64_t timeout_ns);

/*
 * Pull mode, many slices per call: the rows of a batch are the core
 * slices pp_capture_next would hand out one by one, in the same order,
 * written into arrays the caller owns (struct of arrays, one element per
 * row, so each array is a column a caller such as NumPy can take whole).
 * Set max and the arrays; a NULL array (other than values) is skipped.
 */
struct pp_sample_batch {
    size_t max;              /* rows the arrays hold (at least 1) */
    size_t stride;           /* values per row in values and deltas: at
                              * least pp_capture_nevents */
    uint64_t *seq;           /* [max] pp_sample.seq */
    uint64_t *t_ns;          /* [max] pp_sample.t_ns */
    uint64_t *t_real_ns;     /* [max] pp_sample.t_real_ns */
    uint32_t *core;          /* [max] pp_sample.core (index in the capture) */
    uint32_t *cpu;           /* [max] pp_sample.cpu */
    uint8_t  *gap;           /* [max] 1: a gap row; its values, deltas and
                              * discont are 0 and mean nothing */
    int32_t  *cause;         /* [max] gap: enum pp_cause; else 0 */
    uint32_t *discont;       /* [max] pp_sample.discont */
    uint64_t *values;        /* [max * stride] row r's totals at r * stride,
                              * event order; required */
    uint64_t *deltas;        /* [max * stride] likewise */
    uint64_t fill_ns;        /* after the first row, wait up to this long
                              * for max rows (0: take only what is queued):
                              * fewer, fuller batches for a fast capture,
                              * each row at most fill_ns later */
    size_t n;                /* set by the call: rows written */
};

/*
 * Waits up to timeout_ns (as pp_capture_next) for the first row, then
 * up to b->fill_ns for b->max rows (or the end), then takes every row
 * queued, up to b->max.  A record's slices may be split between two
 * batches.  Returns 1 (b->n
 * rows, at least one), 0 (none within timeout_ns; b->n 0),
 * PP_CAPTURE_END (ended, every row pulled; b->n 0) or PP_E_INVAL (c or b
 * NULL, max 0, values NULL, stride below pp_capture_nevents, not in pull
 * mode).  No bus access: it only copies what the engine queued.  Mixes
 * with pp_capture_next; one thread pulls at a time.
 */
int pp_capture_next_batch(struct pp_capture *c, struct pp_sample_batch *b, uint64_t timeout_ns);

/* Asks the capture to end (the file is completed, the queue keeps what was
 * taken); returns at once.  Any thread, also from the callback; not from a
 * signal handler. */
void pp_capture_stop(struct pp_capture *c);

/* Waits up to timeout_ns (UINT64_MAX: for ever) for the capture to end:
 * 1 when it has (the file is complete, every callback has returned), 0 on
 * timeout.  In pull mode the end waits for room in the queue: pull. */
int pp_capture_wait(struct pp_capture *c, uint64_t timeout_ns);

/* Why a capture ended. */
enum pp_capture_stop {
    PP_CAPTURE_RUNNING = 0,  /* not yet */
    PP_CAPTURE_DONE,         /* duration or count reached */
    PP_CAPTURE_STOPPED,      /* pp_capture_stop */
    PP_CAPTURE_LINK_LOST,    /* the access path died */
    PP_CAPTURE_FILE_FAILED,  /* the file could not be written */
};

struct pp_capture_stats {
    uint64_t samples;        /* taken by the sampler (each covers every core) */
    uint64_t written;        /* samples handed on by the writer (file, callback,
                              * queue): samples = written + dropped, unless the
                              * file failed */
    uint64_t late;           /* samples started after their deadline */
    uint64_t dropped;        /* samples lost: not taken because their time had
                              * passed (the missed ones; duration_ns only) */
    uint64_t missed;         /* of dropped: missed */
    uint64_t gap_samples;    /* core slices that were gaps, all cores */
    uint64_t bytes;          /* written to the file */
    uint64_t elapsed_ns;
    double   requested_hz, achieved_hz;   /* final only */
    uint64_t jitter_p50_ns, jitter_p99_ns, jitter_max_ns; /* final only */
    int      stop;           /* enum pp_capture_stop */
    char     stop_msg[256];  /* LINK_LOST, FILE_FAILED: why, in words; else "" */
};

/* Figures so far (any thread, while it runs) or final (after
 * pp_capture_wait returned 1).  PP_E_INVAL for NULL, else PP_OK. */
int pp_capture_stats(const struct pp_capture *c, struct pp_capture_stats *out);
/* Gap slices of core k with the given cause (enum pp_cause) so far. */
uint64_t pp_capture_gaps(const struct pp_capture *c, unsigned k, int cause);

/* The events of the capture, in the order of pp_sample.values; names as
 * given ("cycles"), owned by the capture; NULL out of range. */
size_t pp_capture_nevents(const struct pp_capture *c);
const char *pp_capture_event_name(const struct pp_capture *c, size_t i);
/* The cores of the capture, in the target's order (as pp_session_core):
 * pp_sample.core k is cpu pp_capture_cpu(c, k); UINT32_MAX out of range. */
unsigned pp_capture_ncores(const struct pp_capture *c);
unsigned pp_capture_cpu(const struct pp_capture *c, unsigned k);

/*
 * Stops the capture if it runs, waits for its threads, hands the PMUs back
 * (counters stopped, claim tag cleared, on the cores it programmed) and
 * frees it; the session is the caller's again.  Returns how it ended:
 * PP_OK (done or stopped), PP_E_LINK (the path died), PP_E_IO (the file
 * failed).  NULL is PP_OK.
 */
int pp_capture_close(struct pp_capture *c);

#ifdef __cplusplus
}
#endif
#endif /* PMUPROBE_H */
