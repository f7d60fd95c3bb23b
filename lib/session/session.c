/*
 * session.c - the public session API: target + access path, and the
 * cores it has.  The CLI's session_open (src/cli/session.c) is a wrapper that
 * prints what this returns in err.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "bus/bus.h"
#include "errmsg.h"
#include "pmu/coretype.h"
#include "pmu/identify.h"
#include "pmu/regs.h"
#include "session/session.h"
#include "sim/sim.h"
#include "trace.h"

struct path_kind {
    const char *name;
    pp_path_open_fn open;
};

static const struct path_kind paths[] = {
    { "sim", pp_path_open_sim },
    { "rbb", pp_path_open_rbb },
    { "openocd", pp_path_open_openocd },
    { "ftdi", pp_path_open_ftdi },
    { "cmsis-dap", pp_path_open_cmsisdap },
};
#define NPATHS (sizeof(paths) / sizeof(paths[0]))

static int load_target(const char *name, struct pp_session *s, char *err, size_t errlen)
{
    char path[512];

    struct stat st;

    if (stat(name, &st) == 0 && S_ISDIR(st.st_mode)) {
        pp_errmsg(err, errlen, "target '%s' is a directory: expected a target description "
                  "file (NAME.target) or the name of one", name);
        return PP_E_NOTFOUND;
    }
    if (pp_target_find(name, path, sizeof(path)) != PP_OK) {
        pp_errmsg(err, errlen, "target '%s' not found: expected a file path or the name of "
                  "a target in $PMUPROBE_TARGETS or the installed targets directory", name);
        return PP_E_NOTFOUND;
    }
    return pp_target_load(path, &s->target, err, errlen);
}

size_t pp_probe_split(const char *probe, const char **spec)
{
    size_t len = strcspn(probe, ":@");

    *spec = probe[len] == ':' ? probe + len + 1 : probe + len;
    return len;
}

static const struct path_kind *find_path(const char *probe, const char **spec)
{
    size_t len = pp_probe_split(probe, spec);

    for (size_t i = 0; i < NPATHS; i++)
        if (strlen(paths[i].name) == len && strncmp(paths[i].name, probe, len) == 0)
            return &paths[i];
    return NULL;
}

static int no_such_path(const char *probe, char *err, size_t errlen)
{
    pp_errmsg(err, errlen, "probe '%s': unknown access path (expected one of: sim, "
              "rbb:HOST:PORT, rbb:unix:PATH, openocd[:HOST[:PORT]], "
              "ftdi[:VID:PID[:SERIAL]][@INTERFACE], cmsis-dap[:VID:PID][:SERIAL])", probe);
    return PP_E_INVAL;
}

/* What opens a path before the SoC is known: any Arm JTAG-DP (IDCODE 0),
 * the first APB-AP (an ap.index past 255 prefers none), no cores yet. */
static int stand_in(struct pp_session *s, char *err, size_t errlen)
{
    s->target = calloc(1, sizeof(*s->target));
    if (!s->target) {
        pp_errmsg(err, errlen, "out of memory");
        return PP_E_NOMEM;
    }
    snprintf(s->target->name, sizeof(s->target->name), "discovering");
    snprintf(s->target->path, sizeof(s->target->path), "(no target file: discovery)");
    s->target->ap_index = 0x100;
    s->discovering = true;
    return PP_OK;
}

const char *pp_session_default_target(const char *probe)
{
    const char *spec;
    size_t len = probe ? pp_probe_split(probe, &spec) : 3;

    /* The simulated SoC needs a description to build itself from. */
    return !probe || (len == 3 && strncmp(probe, "sim", 3) == 0) ? "a76-cluster" : NULL;
}

int pp_session_begin(const char *target, struct pp_session **out, char *err, size_t errlen)
{
    struct pp_session *s;

    *out = NULL;
    s = calloc(1, sizeof(*s));
    if (!s) {
        pp_errmsg(err, errlen, "out of memory");
        return PP_E_NOMEM;
    }
    *out = s;
    return target ? load_target(target, s, err, errlen) : stand_in(s, err, errlen);
}

/* opts->transport: "jtag" on every path; "swd" only where pmuprobe has a
 * SW-DP transport for the link (ftdi: lib/adi/dp_swd.c; cmsis-dap: the
 * probe connects in SWD, lib/link/cmsisdap.c). */
static int check_transport(struct pp_session *s, const char *path,
                           const struct pp_open_opts *opts, char *err, size_t errlen)
{
    const char *t = opts ? opts->transport : NULL;
    bool swd = t && strcmp(t, "swd") == 0;

    if (!t || strcmp(t, "jtag") == 0 ||
        (swd && !opts->jtag_chain &&
         (strcmp(path, "ftdi") == 0 || strcmp(path, "cmsis-dap") == 0)))
        return PP_OK;
    s->failed_at = PP_STEP_OPTS;
    if (swd && opts->jtag_chain)
        pp_errmsg(err, errlen, "--jtag-chain describes a JTAG chain: there is none with "
                  "--transport swd");
    else if (swd)
        pp_errmsg(err, errlen, "transport 'swd' is supported on probes 'ftdi' and 'cmsis-dap' "
                  "only, not '%s'", path);
    else
        pp_errmsg(err, errlen, "transport '%s': expected jtag or swd", t);
    return PP_E_INVAL;
}

int pp_session_attach(struct pp_session *s, const char *probe, const struct pp_open_opts *opts,
                      char *err, size_t errlen)
{
    const char *spec;
    const struct path_kind *k = find_path(probe, &spec);
    int rc;

    s->failed_at = PP_STEP_NONE;
    if (!k)
        return PP_E_NOTFOUND;
    if (opts && opts->trace &&
        pp_session_set_trace(s, opts->trace, opts->trace_user, opts->trace_level) != PP_OK) {
        pp_errmsg(err, errlen, "out of memory");
        return PP_E_NOMEM;
    }
    if ((rc = check_transport(s, k->name, opts, err, errlen)) != PP_OK)
        return rc;
    rc = k->open(s, spec, opts, err, errlen);
    if (rc == PP_OK)
        pp_session_trace_bus(s);
    return rc;
}

/* ---- the wire trace (lib/trace.h) ----------------------------------------- */

int pp_session_set_trace(struct pp_session *s, pp_trace_fn fn, void *user, int level)
{
    struct pp_trace *tr = NULL;

    if (fn && !(tr = pp_trace_new(fn, user, level)))
        return PP_E_NOMEM;
    pp_trace_set_target(tr, s->target);
    if (s->bus) {
        pp_bus_set_trace(s->bus, tr);
        return PP_OK;
    }
    pp_trace_free(s->trace);
    s->trace = tr;
    return PP_OK;
}

struct pp_trace *pp_session_take_trace(struct pp_session *s)
{
    struct pp_trace *tr = s->trace;

    s->trace = NULL;
    return tr;
}

void pp_session_trace_bus(struct pp_session *s)
{
    if (s->bus && s->trace)
        pp_bus_set_trace(s->bus, pp_session_take_trace(s));
}

void pp_session_trace_target(struct pp_session *s)
{
    pp_trace_set_target(s->bus ? s->bus->trace : s->trace, s->target);
}

/* "type = auto" cores get their type from the silicon once the path is
 * open; the first description stays alive, the sim and bus use it. */
int pp_session_finish(struct pp_session *s, char *note, size_t notelen)
{
    struct pp_target *t = NULL;
    bool any = false;
    int rc;

    note[0] = '\0';
    for (unsigned i = 0; i < s->target->ncores; i++)
        any |= s->target->cores[i].type_auto;
    if (!any)
        return PP_OK;
    rc = pp_identify_target(s->bus, s->target, &t, note, notelen);
    if (rc != PP_OK)
        return rc;
    if (t) {
        s->described = s->target;
        s->target = t;
        pp_session_trace_target(s);
    }
    return PP_OK;
}

int pp_session_open(const char *target, const char *probe, const struct pp_open_opts *opts,
                    struct pp_session **out, char *err, size_t errlen)
{
    char scratch[256];
    struct pp_session *s = NULL;
    int rc;

    if (!err || !errlen) {
        err = scratch;
        errlen = sizeof(scratch);
    }
    err[0] = '\0';
    *out = NULL;
    if (!probe) {
        pp_errmsg(err, errlen, "a probe is required (\"sim\", \"rbb:HOST:PORT\", ...)");
        return PP_E_INVAL;
    }
    if (!target)
        target = pp_session_default_target(probe);
    rc = pp_session_begin(target, &s, err, errlen);
    if (rc == PP_OK) {
        rc = pp_session_attach(s, probe, opts, err, errlen);
        if (rc == PP_E_NOTFOUND && !err[0])
            rc = no_such_path(probe, err, errlen);
    }
    if (rc == PP_OK && s->discovering) {
        const char *spec;
        char via[16];

        snprintf(via, sizeof(via), "%.*s", (int)pp_probe_split(probe, &spec), probe);
        rc = pp_session_discover(s, via, NULL, 0, err, errlen);
    }
    /* The notes of a successful identification are warnings the library
     * has no channel for; a failed one explains itself in err. */
    if (rc == PP_OK)
        rc = pp_session_finish(s, err, errlen);
    if (rc != PP_OK) {
        pp_session_close(s);
        return rc;
    }
    err[0] = '\0';
    *out = s;
    return PP_OK;
}

void pp_session_close(struct pp_session *s)
{
    if (!s)
        return;
    pp_bus_close(s->bus);
    pp_trace_free(s->trace);
    pp_sim_free(s->sim);
    pp_target_free(s->target);
    pp_target_free(s->described);
    free(s);
}

struct pp_bus *pp_session_bus(struct pp_session *s)
{
    return s->bus;
}

const char *pp_session_target_name(const struct pp_session *s)
{
    return s->target->name;
}

unsigned pp_session_ncores(const struct pp_session *s)
{
    return s->target->ncores;
}

int pp_session_core(struct pp_session *s, unsigned i, struct pp_core_info *out)
{
    const struct pp_core_desc *c;
    struct pp_ident id;

    if (i >= s->target->ncores)
        return PP_E_INVAL;
    c = &s->target->cores[i];
    memset(out, 0, sizeof(*out));
    out->cpu = c->cpu;
    out->cluster = c->cluster;
    out->type = c->type->name;
    out->pretty = c->type->pretty;
    out->debug_base = c->debug_base;
    out->pmu_base = c->pmu_base;
    out->counters = c->counters;
    /* A powered-down core answers with an error: that is a fact about the
     * core, not a failure of the call. */
    if (pp_identify_core(s->bus, c, &id) == PP_OK && id.midr_st == PP_OP_OK) {
        out->midr = id.midr;
        out->midr_valid = true;
    }
    return PP_OK;
}
