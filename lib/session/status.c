/*
 * status.c - pp_core_status: a core's diagnosis (lib/pmu/diag.c) as public
 * data, the facts `pmuprobe status` prints.
 */
#include <stdio.h>
#include <string.h>

#include "errmsg.h"
#include "session/inspect.h"
#include "session/session.h"

/* DBGAUTHSTATUS NSNID [3:2]: 0b11 implemented and enabled (spec 3.5). */
static bool nid_enabled(uint32_t auth)
{
    return ((auth >> 2) & 3u) == 3u;
}

void pp_status_from_diag(const struct pp_core_desc *c, const struct pp_diag *d,
                         struct pp_core_status *out)
{
    memset(out, 0, sizeof(*out));
    out->cpu = c->cpu;
    out->type = c->type->pretty;
    out->pmu_ok = d->pmu_ok;
    out->cause = d->cause;
    snprintf(out->evidence, sizeof(out->evidence), "%s", d->evidence);
    out->remedy = d->remedy;
    out->powered = d->powered;
    out->oslock = d->oslock;
    out->doublelock = d->doublelock;
    out->halted = d->halted;
    out->edprsr = d->edprsr;
    out->edprsr_valid = d->edprsr_st == PP_OP_OK;
    out->authstatus = d->authstatus;
    out->authstatus_valid = d->authstatus_st == PP_OP_OK;
    out->nid_enabled = out->authstatus_valid && nid_enabled(d->authstatus);
    out->pmcfgr = d->pmcfgr;
    out->pmcfgr_valid = d->pmcfgr_st == PP_OP_OK;
    out->oslsr = d->oslsr;
    out->oslsr_valid = d->oslsr_st == PP_OP_OK;
}

int pp_status_read(struct pp_bus *bus, const struct pp_core_desc *c, struct pp_core_status *out)
{
    struct pp_diag d;
    int rc = pp_diag_core(bus, c, &d);

    if (rc != PP_OK)
        return rc;
    pp_status_from_diag(c, &d, out);
    return PP_OK;
}

int pp_core_status(struct pp_session *s, unsigned i, struct pp_core_status *out, char *err,
                   size_t errlen)
{
    int rc;

    if (!s || !out || i >= s->target->ncores) {
        pp_errmsg(err, errlen, "core index %u out of range (the target has %u cores)", i,
                  s ? s->target->ncores : 0);
        return PP_E_INVAL;
    }
    rc = pp_status_read(s->bus, &s->target->cores[i], out);
    if (rc != PP_OK)
        pp_errmsg(err, errlen, "cpu%u: access path failed: %s %s", s->target->cores[i].cpu,
                  pp_strerror(rc), pp_bus_errmsg(s->bus));
    return rc;
}
