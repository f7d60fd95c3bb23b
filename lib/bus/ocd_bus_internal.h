/*
 * ocd_bus_internal.h - what the two halves of the openocd access path
 * share: ocd_attach.c (finding and setting up the mem_ap target) and
 * ocd_bus.c (batches, repeat mode, the bus itself).
 */
#ifndef PP_OCD_BUS_INTERNAL_H
#define PP_OCD_BUS_INTERNAL_H

#include <stddef.h>

#include "bus/bus.h"
#include "bus/ocd_rpc.h"
#include "bus/ocd_tcl.h"

struct ocd_bus {
    struct pp_ocd_rpc *rpc;
    struct pp_ocd_opts opts;
    char host[256];
    char mem_ap[64];             /* opts.mem_ap copied */
    struct pp_ocd_attach at;
    uint32_t *pmu_blocks;        /* opts.pmu_blocks copied (4 KB bases) */
    size_t npmu;
    /* Words that failed as covered words while every requested word of
     * their block read fine (reserved locations may error on some silicon,
     * spec/arm-pmu-coresight.md 2.3): never covered again. */
    uint32_t nocover[64];
    size_t nnocover;
};

/* The TCL procs every batch runs on (ocd_bus.c), sent by ocd_attach
 * after pp_ocd_overrun_tcl (ocd_overrun.h), whose procs they call. */
extern const char ocd_procs_tcl[];

/* One line out of OpenOCD's multi-line log, for messages. */
void ocd_flatten(char *s);
/* Evaluates script; a TCL failure becomes PP_E_IO with its text in err. */
int ocd_eval_ok(struct ocd_bus *ob, const char *script, unsigned timeout_ms,
                char **result, char *err, size_t errlen);
/* Sends the procs batches run on (the overrun guard's and ocd_procs_tcl),
 * as the attach does; PP_OK or a pp_err with err set. */
int ocd_define_procs(struct ocd_bus *ob, char *err, size_t errlen);
/* The whole attach (fills ob->at); PP_OK or a pp_err with err set. */
int ocd_attach(struct ocd_bus *ob, char *err, size_t errlen);

#endif
