/*
 * fault.c - fault injection: the pp_sim_set_* calls and the command-line
 * form parsed by pp_sim_apply_fault.
 *
 * An injected OS lock state replaces whatever the simulated OS had
 * planned: setting or clearing the lock cancels a pending OS unlock.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "sim/sim_internal.h"

#define FAULT_FORMS "cpuN:off|on|oslock|osunlock|dlock|dunlock|halt|run|noauth|auth|epmad|noepmad " \
                    "or ADDR:error|ok"

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

/* Takes effect only on cores with FEAT_DoubleLock (spec 2.2). */
int pp_sim_set_doublelock(struct pp_sim *sim, unsigned cpu, bool on)
{
    uint64_t now;
    struct sim_core *c = core_now(sim, cpu, &now);

    if (!c)
        return PP_E_INVAL;
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

int pp_sim_set_epmad(struct pp_sim *sim, unsigned cpu, bool disabled)
{
    uint64_t now;
    struct sim_core *c = core_now(sim, cpu, &now);

    if (!c)
        return PP_E_INVAL;
    c->epmad = disabled;
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

/* ---- "cpuN:what" / "ADDR:error" ------------------------------------------------ */

enum fault_act {
    F_OFF, F_ON, F_OSLOCK, F_OSUNLOCK, F_DLOCK, F_DUNLOCK, F_HALT, F_RUN,
    F_NOAUTH, F_AUTH, F_EPMAD, F_NOEPMAD,
};

static const char *const act_names[] = {
    "off", "on", "oslock", "osunlock", "dlock", "dunlock", "halt", "run",
    "noauth", "auth", "epmad", "noepmad",
};

static int apply_core(struct pp_sim *sim, unsigned cpu, int act)
{
    switch (act) {
    case F_OFF:      return pp_sim_set_power(sim, cpu, false);
    case F_ON:       return pp_sim_set_power(sim, cpu, true);
    case F_OSLOCK:   return pp_sim_set_oslock(sim, cpu, true);
    case F_OSUNLOCK: return pp_sim_set_oslock(sim, cpu, false);
    case F_DLOCK:    return pp_sim_set_doublelock(sim, cpu, true);
    case F_DUNLOCK:  return pp_sim_set_doublelock(sim, cpu, false);
    case F_HALT:     return pp_sim_set_halted(sim, cpu, true);
    case F_RUN:      return pp_sim_set_halted(sim, cpu, false);
    case F_NOAUTH:   return pp_sim_set_auth(sim, cpu, 0);
    case F_AUTH:     return pp_sim_set_auth(sim, cpu, PP_AUTH_ALL);
    case F_EPMAD:    return pp_sim_set_epmad(sim, cpu, true);
    default:         return pp_sim_set_epmad(sim, cpu, false);
    }
}

static int find_act(const char *s)
{
    for (size_t i = 0; i < sizeof(act_names) / sizeof(act_names[0]); i++)
        if (strcasecmp(s, act_names[i]) == 0)
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

static int bad(const char *spec, char *err, size_t errlen)
{
    if (err && errlen)
        snprintf(err, errlen, "bad fault '%s': expected %s", spec, FAULT_FORMS);
    return PP_E_PARSE;
}

int pp_sim_apply_fault(struct pp_sim *sim, const char *spec, char *err, size_t errlen)
{
    const char *colon = spec ? strchr(spec, ':') : NULL;
    const char *what = colon ? colon + 1 : NULL;
    size_t n = colon ? (size_t)(colon - spec) : 0;
    unsigned long v;
    int act;

    if (!colon)
        return bad(spec ? spec : "", err, errlen);
    if (n > 3 && strncasecmp(spec, "cpu", 3) == 0 && isdigit((unsigned char)spec[3])) {
        if (!parse_num(spec + 3, n - 3, 10, 0xFFFFFFFFul, &v) || (act = find_act(what)) < 0)
            return bad(spec, err, errlen);
        if (apply_core(sim, (unsigned)v, act) != PP_OK) {
            if (err && errlen)
                snprintf(err, errlen, "fault '%s': no cpu%lu in target %s", spec, v, sim->t.name);
            return PP_E_INVAL;
        }
        return PP_OK;
    }
    if (!parse_num(spec, n, 0, 0xFFFFFFFFul, &v))
        return bad(spec, err, errlen);
    if (strcasecmp(what, "error") == 0)
        return pp_sim_set_addr_error(sim, (uint32_t)v, true);
    if (strcasecmp(what, "ok") == 0)
        return pp_sim_set_addr_error(sim, (uint32_t)v, false);
    return bad(spec, err, errlen);
}
