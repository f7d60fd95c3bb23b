/*
 * fault.c - fault injection: the pp_sim_set_* calls and the command-line
 * form parsed by pp_sim_apply_fault.
 *
 * An injected OS lock state replaces whatever the simulated OS had
 * planned: setting or clearing the lock cancels a pending OS unlock.
 *
 * Timed faults ("cpu1:off@200ms") wait in a sorted array until the sim's
 * own clock reaches them; an APB access or a DP scan pays one compare
 * against the first one's time (sim_poll_faults).  A due fault takes
 * effect at its own time, not at the access that noticed it, so counts in
 * deterministic mode do not depend on when the host looked.  DP faults
 * need the TAP (pmuprobe-sim, the FTDI emulator): the in-process path
 * makes APB accesses directly and has no DP to answer WAIT.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "errmsg.h"
#include "sim/jtag.h"
#include "sim/sim_internal.h"
#include "timeunit.h"

#define FAULT_FORMS "cpuN:off|on|oslock|osunlock|dlock|dunlock|halt|run|noauth|auth|epmad|noepmad|" \
                    "nocapture|capture, " \
                    "ADDR:error|ok, dp:wait:N or dp:overrun, each optionally @TIME (sim time) " \
                    "or @+TIME (from now), TIME as 200ms, 1.5s, 500us, 1000ns, 2m, 1h"

static struct sim_core *core_now(struct pp_sim *sim, unsigned cpu, uint64_t *now)
{
    struct sim_core *c = sim_core_by_cpu(sim, cpu);

    *now = sim_now(sim);
    if (c)
        sim_core_tick(c, *now);
    return c;
}

int pp_sim_set_power(struct pp_sim *sim, unsigned cpu, bool on)
{
    uint64_t now;
    struct sim_core *c = core_now(sim, cpu, &now);

    if (!c)
        return PP_E_INVAL;
    sim_core_set_power(c, on, now);
    return PP_OK;
}

int pp_sim_set_oslock(struct pp_sim *sim, unsigned cpu, bool locked)
{
    uint64_t now;
    struct sim_core *c = core_now(sim, cpu, &now);

    if (!c)
        return PP_E_INVAL;
    c->oslock = locked;
    c->unlock_at = SIM_NO_UNLOCK;
    return PP_OK;
}

/* Refused on cores without FEAT_DoubleLock (spec 2.2), as the target
 * parser refuses doublelock = yes there: setting it would model nothing. */
int pp_sim_set_doublelock(struct pp_sim *sim, unsigned cpu, bool on)
{
    uint64_t now;
    struct sim_core *c = core_now(sim, cpu, &now);

    if (!c)
        return PP_E_INVAL;
    if (on && !c->type->double_lock)
        return PP_E_UNSUPPORTED;
    c->dlock = on;
    return PP_OK;
}

int pp_sim_set_halted(struct pp_sim *sim, unsigned cpu, bool halted)
{
    uint64_t now;
    struct sim_core *c = core_now(sim, cpu, &now);

    if (!c)
        return PP_E_INVAL;
    sim_core_set_halted(c, halted, now);
    return PP_OK;
}

int pp_sim_set_auth(struct pp_sim *sim, unsigned cpu, unsigned auth)
{
    uint64_t now;
    struct sim_core *c = core_now(sim, cpu, &now);

    if (!c)
        return PP_E_INVAL;
    c->auth = auth & PP_AUTH_ALL;
    return PP_OK;
}

/* MDCR_EL3.EPMAD is Armv8 (spec 2.2): refused on Armv7 cores. */
int pp_sim_set_epmad(struct pp_sim *sim, unsigned cpu, bool disabled)
{
    uint64_t now;
    struct sim_core *c = core_now(sim, cpu, &now);

    if (!c)
        return PP_E_INVAL;
    if (disabled && c->type->arch == PP_ARCH_V7)
        return PP_E_UNSUPPORTED;
    c->epmad = disabled;
    return PP_OK;
}

/* The snapshot block refuses captures (PMSSSR.NC = 1, copies stale). */
int pp_sim_set_snapshot_refused(struct pp_sim *sim, unsigned cpu, bool refused)
{
    uint64_t now;
    struct sim_core *c = core_now(sim, cpu, &now);

    if (!c)
        return PP_E_INVAL;
    if (refused && !c->desc->snapshot)
        return PP_E_UNSUPPORTED;
    c->ss_refuse = refused;
    return PP_OK;
}

/* Faulty addresses: a sorted array, grown here, never on an access. */
int pp_sim_set_addr_error(struct pp_sim *sim, uint32_t addr, bool on)
{
    unsigned i = 0;

    addr &= ~3u;
    while (i < sim->nerr && sim->err_addrs[i] < addr)
        i++;
    if (i < sim->nerr && sim->err_addrs[i] == addr) {
        if (!on) {
            memmove(&sim->err_addrs[i], &sim->err_addrs[i + 1], (sim->nerr - i - 1) * sizeof(uint32_t));
            sim->nerr--;
        }
        return PP_OK;
    }
    if (!on)
        return PP_OK;
    if (sim->nerr == sim->caperr) {
        unsigned cap = sim->caperr ? 2 * sim->caperr : 8;
        uint32_t *p = realloc(sim->err_addrs, cap * sizeof(uint32_t));

        if (!p)
            return PP_E_NOMEM;
        sim->err_addrs = p;
        sim->caperr = cap;
    }
    memmove(&sim->err_addrs[i + 1], &sim->err_addrs[i], (sim->nerr - i) * sizeof(uint32_t));
    sim->err_addrs[i] = addr;
    sim->nerr++;
    return PP_OK;
}

/* ---- the fault grammar ------------------------------------------------------- */

enum fault_act {
    F_OFF, F_ON, F_OSLOCK, F_OSUNLOCK, F_DLOCK, F_DUNLOCK, F_HALT, F_RUN,
    F_NOAUTH, F_AUTH, F_EPMAD, F_NOEPMAD, F_NOCAPTURE, F_CAPTURE,
};

static const char *const act_names[] = {
    "off", "on", "oslock", "osunlock", "dlock", "dunlock", "halt", "run",
    "noauth", "auth", "epmad", "noepmad", "nocapture", "capture",
};

#define MAX_DP_WAIT 1000000ul

const char *pp_sim_fault_action(size_t i)
{
    return i < sizeof(act_names) / sizeof(act_names[0]) ? act_names[i] : NULL;
}

/* At time at (<= now): core state changes bank running time up to at. */
static void apply_core_at(struct sim_core *c, int act, uint64_t at)
{
    sim_core_tick(c, at);
    switch (act) {
    case F_OFF:      sim_core_set_power(c, false, at); break;
    case F_ON:       sim_core_set_power(c, true, at); break;
    case F_OSLOCK:   c->oslock = true; c->unlock_at = SIM_NO_UNLOCK; break;
    case F_OSUNLOCK: c->oslock = false; c->unlock_at = SIM_NO_UNLOCK; break;
    case F_DLOCK:    c->dlock = true; break;
    case F_DUNLOCK:  c->dlock = false; break;
    case F_HALT:     sim_core_set_halted(c, true, at); break;
    case F_RUN:      sim_core_set_halted(c, false, at); break;
    case F_NOAUTH:   c->auth = 0; break;
    case F_AUTH:     c->auth = PP_AUTH_ALL; break;
    case F_EPMAD:    c->epmad = true; break;
    case F_NOCAPTURE: c->ss_refuse = true; break;
    case F_CAPTURE:  c->ss_refuse = false; break;
    default:         c->epmad = false; break;
    }
}

static int apply_kind(struct pp_sim *sim, const struct sim_fault *f, uint64_t at)
{
    struct sim_core *c;

    switch (f->kind) {
    case SF_CORE:
        c = sim_core_by_cpu(sim, f->arg);
        if (!c)
            return PP_E_INVAL;
        apply_core_at(c, f->act, at);
        return PP_OK;
    case SF_ADDR:
        return pp_sim_set_addr_error(sim, f->arg, f->act != 0);
    case SF_DP_WAIT:
        if (sim->dp)
            pp_simjtag_set_wait(sim->dp, f->arg);
        return sim->dp ? PP_OK : PP_E_UNSUPPORTED;
    default:
        if (sim->dp)
            pp_simjtag_set_overrun(sim->dp);
        return sim->dp ? PP_OK : PP_E_UNSUPPORTED;
    }
}

static int apply_one(struct pp_sim *sim, const struct sim_fault *f, uint64_t at)
{
    int rc = apply_kind(sim, f, at);

    if (rc == PP_OK)
        sim->stats.faults++;
    return rc;
}

void sim_fire_faults(struct pp_sim *sim, uint64_t now)
{
    unsigned n = 0;

    while (n < sim->ntimed && sim->timed[n].at_ns <= now) {
        /* Checked when queued; a TAP freed since just loses its DP faults. */
        (void)apply_one(sim, &sim->timed[n], sim->timed[n].at_ns);
        n++;
    }
    memmove(sim->timed, sim->timed + n, (sim->ntimed - n) * sizeof(*sim->timed));
    sim->ntimed -= n;
    sim->next_fault_ns = sim->ntimed ? sim->timed[0].at_ns : UINT64_MAX;
}

/* Faults due at the same time keep the order they were given in. */
static int queue_fault(struct pp_sim *sim, const struct sim_fault *f)
{
    unsigned i = sim->ntimed;

    if (sim->ntimed == sim->captimed) {
        unsigned cap = sim->captimed ? 2 * sim->captimed : 8;
        struct sim_fault *p = realloc(sim->timed, cap * sizeof(*p));

        if (!p)
            return PP_E_NOMEM;
        sim->timed = p;
        sim->captimed = cap;
    }
    while (i > 0 && sim->timed[i - 1].at_ns > f->at_ns)
        i--;
    memmove(&sim->timed[i + 1], &sim->timed[i], (sim->ntimed - i) * sizeof(*f));
    sim->timed[i] = *f;
    sim->ntimed++;
    sim->next_fault_ns = sim->timed[0].at_ns;
    return PP_OK;
}

static int find_act(const char *s, size_t n)
{
    for (size_t i = 0; i < sizeof(act_names) / sizeof(act_names[0]); i++)
        if (strlen(act_names[i]) == n && strncasecmp(s, act_names[i], n) == 0)
            return (int)i;
    return -1;
}

/* Whole string, decimal (cpu) or C notation (address), at most max. */
static bool parse_num(const char *s, size_t n, int base, unsigned long max, unsigned long *out)
{
    char buf[32];
    char *end;

    if (n == 0 || n >= sizeof(buf) || !isalnum((unsigned char)s[0]))
        return false;
    memcpy(buf, s, n);
    buf[n] = '\0';
    errno = 0;
    *out = strtoul(buf, &end, base);
    return errno == 0 && *end == '\0' && *out <= max;
}

static int bad(const char *spec, size_t n, char *err, size_t errlen)
{
    if (err && errlen)
        pp_errmsg(err, errlen, "bad fault '%.*s': expected %s", (int)n, spec, FAULT_FORMS);
    return PP_E_PARSE;
}

/* "dp:wait:N" or "dp:overrun"; what is the part after "dp:". */
static bool parse_dp(const char *what, size_t n, struct sim_fault *f)
{
    unsigned long v;

    if (n == 7 && strncasecmp(what, "overrun", 7) == 0) {
        f->kind = SF_DP_OVERRUN;
        return true;
    }
    if (n > 5 && strncasecmp(what, "wait:", 5) == 0 &&
        parse_num(what + 5, n - 5, 10, MAX_DP_WAIT, &v) && isdigit((unsigned char)what[5])) {
        f->kind = SF_DP_WAIT;
        f->arg = (uint32_t)v;
        return true;
    }
    return false;
}

/* The body of one fault, without its @TIME: spec[0..n). */
static bool parse_body(const char *spec, size_t n, struct sim_fault *f)
{
    const char *colon = memchr(spec, ':', n);
    size_t head = colon ? (size_t)(colon - spec) : 0;
    const char *what = colon ? colon + 1 : NULL;
    size_t wn = colon ? n - head - 1 : 0;
    unsigned long v;
    int act;

    if (!colon)
        return false;
    if (head == 2 && strncasecmp(spec, "dp", 2) == 0)
        return parse_dp(what, wn, f);
    if (head > 3 && strncasecmp(spec, "cpu", 3) == 0 && isdigit((unsigned char)spec[3])) {
        if (!parse_num(spec + 3, head - 3, 10, 0xFFFFFFFFul, &v) || (act = find_act(what, wn)) < 0)
            return false;
        f->kind = SF_CORE;
        f->act = (uint8_t)act;
        f->arg = (uint32_t)v;
        return true;
    }
    if (!parse_num(spec, head, 0, 0xFFFFFFFFul, &v))
        return false;
    f->kind = SF_ADDR;
    f->arg = (uint32_t)v & ~3u;
    if (wn == 5 && strncasecmp(what, "error", 5) == 0)
        f->act = 1;
    else if (!(wn == 2 && strncasecmp(what, "ok", 2) == 0))
        return false;
    return true;
}

/*
 * A fault that sets what the core type lacks is refused, as the target
 * parser refuses it: the OS Double Lock without FEAT_DoubleLock
 * (Cortex-A9), EPMAD on Armv7, which has no MDCR_EL3 (spec 2.2; its
 * external PMU access is gated by DBGEN/NIDEN alone).  Clearing them is a
 * harmless no-op and stays accepted.  NULL when the fault is possible.
 */
static const char *lacks(const struct sim_core *c, unsigned act)
{
    if (act == F_DLOCK && !c->type->double_lock)
        return "has no OS Double Lock (FEAT_DoubleLock)";
    if (act == F_NOCAPTURE && !c->desc->snapshot)
        return "has no snapshot block to refuse a capture";
    if (act == F_EPMAD && c->type->arch == PP_ARCH_V7)
        return "has no EPMAD (MDCR_EL3.EPMAD is Armv8; on Armv7 external PMU access is "
               "gated by DBGEN/NIDEN alone: try noauth)";
    return NULL;
}

/* Checks what can be checked now, so a timed fault never fails later. */
static int check(struct pp_sim *sim, const struct sim_fault *f, const char *spec, size_t n,
                 char *err, size_t errlen)
{
    const struct sim_core *c = f->kind == SF_CORE ? sim_core_by_cpu(sim, f->arg) : NULL;
    const char *why;

    if (f->kind == SF_CORE && !c) {
        if (err && errlen)
            pp_errmsg(err, errlen, "fault '%.*s': no cpu%u in target %s", (int)n, spec, f->arg,
                      sim->t.name);
        return PP_E_INVAL;
    }
    if (c && (why = lacks(c, f->act)) != NULL) {
        if (err && errlen)
            pp_errmsg(err, errlen, "fault '%.*s': cpu%u is a %s, which %s", (int)n, spec, f->arg,
                      c->type->pretty, why);
        return PP_E_UNSUPPORTED;
    }
    if ((f->kind == SF_DP_WAIT || f->kind == SF_DP_OVERRUN) && !sim->dp) {
        if (err && errlen)
            pp_errmsg(err, errlen, "fault '%.*s': this simulated SoC has no JTAG-DP (the "
                      "in-process sim path makes APB accesses directly, so nothing can answer "
                      "WAIT); inject DP faults through pmuprobe-sim or the FTDI emulator",
                      (int)n, spec);
        return PP_E_UNSUPPORTED;
    }
    return PP_OK;
}

/* One fault, spec[0..n): BODY[@[+]TIME]. */
static int apply_spec(struct pp_sim *sim, const char *spec, size_t n, char *err, size_t errlen)
{
    const char *at = memchr(spec, '@', n);
    size_t bn = at ? (size_t)(at - spec) : n;
    struct sim_fault f = { 0 };
    uint64_t now = sim_now(sim), t = 0;
    int rc;

    if (!parse_body(spec, bn, &f))
        return bad(spec, n, err, errlen);
    if (at) {
        bool rel = bn + 1 < n && at[1] == '+';
        const char *ts = at + 1 + rel;

        if (!pp_time_parse(ts, n - (size_t)(ts - spec), &t))
            return bad(spec, n, err, errlen);
        if (rel)
            t += now;
    }
    if ((rc = check(sim, &f, spec, n, err, errlen)) != PP_OK)
        return rc;
    if (at && t > now) {
        f.at_ns = t;
        return queue_fault(sim, &f);
    }
    sim_poll_faults(sim);       /* earlier timed faults first */
    return apply_one(sim, &f, now);
}

/* Whether spec[0..n), well formed, waits for a time still to come. */
static bool waits_for_time(struct pp_sim *sim, const char *spec, size_t n)
{
    const char *at = memchr(spec, '@', n);
    bool rel;
    uint64_t t;

    if (!at)
        return false;
    rel = at + 1 < spec + n && at[1] == '+';
    if (!pp_time_parse(at + 1 + rel, n - (size_t)(at + 1 + rel - spec), &t))
        return false;            /* pp_sim_apply_fault names the error */
    return rel ? t > 0 : t > sim_now(sim);
}

/*
 * Deterministic time moves only by access_ns per APB access and by
 * pp_sim_advance_ns, never while the host waits between samples: a
 * program that does not advance it itself (pmuprobe's sim path,
 * pmuprobe-sim) would queue "cpu1:off@100ms" and, at 1 us per access,
 * reach it after 100,000 accesses, if ever.  Such callers check here
 * first and refuse, rather than let the fault silently never fire.
 */
int pp_sim_check_fault_time(struct pp_sim *sim, const char *spec, char *err, size_t errlen)
{
    const char *p = spec;

    /* Deterministic time asked for by name (--sim-time deterministic) is
     * the clock the caller means the fault's time on: it fires then. */
    if (!spec || sim->t.time_mode == PP_TIME_REALTIME || sim->t.time_asked)
        return PP_OK;
    for (;;) {
        size_t n = strcspn(p, ",");

        if (waits_for_time(sim, p, n)) {
            if (err && errlen)
                pp_errmsg(err, errlen, "fault '%.*s': target %s keeps deterministic time (it "
                          "moves %u ns per bus access, not while the host waits), so a fault "
                          "at a time would not fire when meant; use --sim-time realtime to time "
                          "faults by the clock, or say --sim-time deterministic to time them "
                          "on the target's clock", (int)n, p, sim->t.name, sim->t.access_ns);
            return PP_E_UNSUPPORTED;
        }
        if (!p[n])
            return PP_OK;
        p += n + 1;
    }
}

int pp_sim_apply_fault(struct pp_sim *sim, const char *spec, char *err, size_t errlen)
{
    const char *p = spec;

    if (!spec || !*spec)
        return bad("", 0, err, errlen);
    for (;;) {
        size_t n = strcspn(p, ",");
        int rc = apply_spec(sim, p, n, err, errlen);

        if (rc != PP_OK)
            return rc;
        if (!p[n])
            return PP_OK;
        p += n + 1;
    }
}
