/*
 * ocd_rpc.h - client of OpenOCD's TCL RPC server (internal).
 *
 * Facts: spec/openocd.md 3.  A request is script bytes ended by 0x1A; the
 * reply is the interpreter's result ended by 0x1A, with no status: a
 * failed `mdw` answers exactly like a successful one.  pp_ocd_eval
 * therefore wraps every script so that one reply carries the catch code,
 * the result and the log text the script produced (spec 3.3), framed by
 * byte counts so no reply text can be mistaken for the framing.
 *
 * One connection per handle, no global state.  Every call that talks to
 * OpenOCD is one round trip and is counted.
 */
#ifndef PP_OCD_RPC_H
#define PP_OCD_RPC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pmuprobe.h"

#define PP_OCD_DEFAULT_PORT 6666
#define PP_OCD_TIMEOUT_MS   5000u    /* one ordinary request */
#define PP_OCD_SCRIPT_MAX   (4u << 20)  /* OpenOCD's TCL_LINE_MAX (spec 3.1) */

struct pp_ocd_rpc;

/* A wrapped reply.  result and log are owned (pp_ocd_reply_free). */
struct pp_ocd_reply {
    int   code;          /* catch code: 0 ok; 1 TCL error; OpenOCD's own
                          * error code (-4, -107, ...) from C commands */
    char *result;        /* the script's result, "" on error */
    char *log;           /* log text captured while it ran (no "Error: "
                          * prefixes), or the error message */
};

/*
 * Connects to host:port (TCP_NODELAY; host "localhost", a name or an
 * address).  timeout_ms bounds the connect and each later request unless
 * a call says otherwise (0 = PP_OCD_TIMEOUT_MS).  Returns PP_OK,
 * PP_E_LINK (refused, unreachable, name unknown: err says which),
 * PP_E_TIMEOUT or PP_E_NOMEM.
 */
int  pp_ocd_connect(const char *host, unsigned port, unsigned timeout_ms,
                    struct pp_ocd_rpc **out, char *err, size_t errlen);
void pp_ocd_close(struct pp_ocd_rpc *r);
/* Drops the connection (if any) and connects again to the same place. */
int  pp_ocd_reconnect(struct pp_ocd_rpc *r, char *err, size_t errlen);
/* False after a lost connection, a timeout or a garbled reply: the
 * stream's framing is then unknown, so the handle refuses further
 * requests until pp_ocd_reconnect. */
bool pp_ocd_connected(const struct pp_ocd_rpc *r);
/* "localhost:6666" as given. */
const char *pp_ocd_peer(const struct pp_ocd_rpc *r);
/* Requests answered so far (one round trip each). */
uint64_t pp_ocd_round_trips(const struct pp_ocd_rpc *r);

/*
 * One raw request: script + 0x1A out, everything up to the next 0x1A in
 * (asynchronous notification frames, spec 3.4, are skipped).  *reply is
 * malloc'd and NUL-terminated.  timeout_ms 0 = the handle's default.
 * Returns PP_OK, PP_E_INVAL (script contains 0x1A or is too long),
 * PP_E_LINK (connection lost: EOF or reset), PP_E_TIMEOUT, PP_E_PROTO
 * (OpenOCD's "line too long"), PP_E_NOMEM.
 */
/* Reports every exchange (the script, the reply's size and start) to tr,
 * not owned; NULL stops.  lib/trace.h. */
struct pp_trace;
void pp_ocd_set_trace(struct pp_ocd_rpc *r, struct pp_trace *tr);
int  pp_ocd_exchange(struct pp_ocd_rpc *r, const char *script, unsigned timeout_ms,
                     char **reply, size_t *len, char *err, size_t errlen);

/*
 * Runs script with status, result and log returned together (spec 3.3):
 * the script is passed as one quoted word, so any script text is safe.
 * Returns the transport result as pp_ocd_exchange does (PP_E_PROTO also
 * when the wrapped reply does not parse); rep->code tells whether the
 * script itself failed.
 */
int  pp_ocd_eval(struct pp_ocd_rpc *r, const char *script, unsigned timeout_ms,
                 struct pp_ocd_reply *rep, char *err, size_t errlen);
void pp_ocd_reply_free(struct pp_ocd_reply *rep);

/* --- the access path (lib/bus/ocd_bus.c) ----------------------------- */

struct pp_bus;

struct pp_ocd_opts {
    const char *host;        /* NULL = "localhost" */
    unsigned port;           /* 0 = 6666 */
    unsigned timeout_ms;     /* per request; 0 = PP_OCD_TIMEOUT_MS */
    bool reconnect;          /* on a lost connection, reconnect, attach
                              * again and re-run the batch once */
    unsigned reconnect_ms;   /* how long to keep trying; 0 = 10 s */
    int ap_hint;             /* APSEL the target description names
                              * (tried first), -1 = none */
    const char *mem_ap;      /* use this mem_ap target; NULL = find one on
                              * an APB-AP (none: the AP's registers are
                              * used through `<dap> apreg`, one OpenOCD
                              * DAP run per word) */
    bool cover_gap_words;    /* false: a read block covers only requested,
                              * adjacent words.  true: it may also read
                              * the unrequested upper half of a PMUv3
                              * counter slot between two requested words
                              * (offset 4 mod 8 below 0x100: RES0 or
                              * UNPREDICTABLE without 64-bit counters, no
                              * side effects, spec arm-pmu-coresight 1.1),
                              * so a core's counters take one read_memory
                              * instead of one each; and in the blocks of
                              * pmu_blocks, any run of words inside one
                              * side-effect-free PMUv3 window (ocd_bus.c)
                              * when reading them costs less than the
                              * OpenOCD command it saves (the adapter's
                              * cost model, pp_ocd_attach.gap_words_max). */
    const uint32_t *pmu_blocks;  /* 4 KB bases of PMUv3 external blocks
                              * (copied); NULL/0: none known */
    size_t npmu_blocks;
    struct pp_trace *trace;  /* the wire trace from the first exchange: the
                              * bus owns it, also on failure (NULL: none) */
};

/* What pp_bus_ocd_new found and did in the user's OpenOCD session. */
struct pp_ocd_attach {
    char version[64];        /* "Open On-Chip Debugger 0.12.0" */
    char dap[64];            /* DAP used */
    char target[64];         /* mem_ap target used; "" in apreg mode */
    bool apreg;              /* no mem_ap target on the APB-AP (as in
                              * OpenOCD's stock zynq_7000.cfg, imx6.cfg):
                              * words go through `<dap> apreg`, TAR once a
                              * run and DRW per word (slow) */
    unsigned ap;             /* the APB-AP's number */
    uint32_t idr;            /* the AP's IDR (APB2/3: type 2, APB4: type 6) */
    bool     base_known;
    uint32_t base;           /* the AP's BASE register (`<dap> baseaddr`) */
    uint32_t csw_before;     /* the AP's CSW default as found (apreg
                              * mode: the CSW register itself) */
    uint32_t csw_after;      /* and as left (differs only in Prot and
                              * DbgSwEnable; apreg mode: also Size = 32
                              * bits and AddrInc = single, written at the
                              * start of every batch) */
    char adapter[32];        /* `adapter name`; "" when it did not answer */
    unsigned adapter_khz;    /* `adapter speed`; 0 when unknown */
    unsigned memaccess;      /* the DAP's extra TCK per AP access */
    unsigned gap_words_max;  /* most unrequested words a read block may
                              * cover to save one OpenOCD command (the
                              * cost model in ocd_attach.c); 0 with
                              * cover_gap_words off */
};

/*
 * Attaches to a running OpenOCD (spec/openocd.md 2-4): finds the DAP, the
 * APB-AP and a mem_ap target on it (none: apreg mode, see struct
 * pp_ocd_attach), and sets an APB-appropriate CSW.  Never uses the
 * top-level `dap info` (spec 7.3).
 * Returns NULL with the reason in err.
 *
 * Cost: pp_bus_run is one round trip per batch (contiguous reads become
 * one read_memory each, a failing block is bisected inside OpenOCD);
 * pp_bus_run_repeat is one round trip for all repetitions.  In apreg mode
 * still one round trip, but inside OpenOCD each word is a DAP run of its
 * own (plus a TAR write per run and a CSW write per batch).
 */
struct pp_bus *pp_bus_ocd_new(const struct pp_ocd_opts *o, char *err, size_t errlen);
/* NULL when bus is not an openocd bus. */
const struct pp_ocd_attach *pp_bus_ocd_attach_info(const struct pp_bus *bus);
/* Replaces the PMUv3 block bases (pp_ocd_opts.pmu_blocks, copied), for a
 * target known only after the bus opened (discovery).  PP_OK, also on a
 * bus of another path (nothing to do); PP_E_NOMEM keeps the old list. */
int pp_bus_ocd_set_pmu_blocks(struct pp_bus *bus, const uint32_t *blocks, size_t n);

#endif
