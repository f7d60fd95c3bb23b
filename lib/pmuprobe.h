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

#ifdef __cplusplus
}
#endif
#endif /* PMUPROBE_H */
