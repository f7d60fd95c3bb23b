/*
 * workload.c - the counting model of the simulated SoC.
 *
 * Each core runs a seeded workload described by its struct pp_workload.
 * Time is the core's running time tau (ns spent powered and not halted),
 * cut into phases of phase_us; in each phase every signal (cycles,
 * instructions, cache and TLB refills, branches, stalls, ...) has a rate
 * that varies by up to +-swing, drawn from a hash of (seed, cpu, phase,
 * signal).  A signal's cumulative count S(tau) is an integer function of
 * tau computed in Q32 fixed point, so the count of an event between two
 * instants is S(b) - S(a) exactly, whatever happened on the bus between
 * them.  Events are floor-scaled views of one signal; the exception-level
 * filter splits every count 75 % EL0 / 25 % EL1 (EL2 and EL3 never run).
 * Every composition of floors used here is non-decreasing in tau, so
 * counters telescope: a counter that counted from A to B holds exactly
 * f(B) - f(A).
 *
 * Events the model has no signal for but the core advertises (its catalog
 * lists them) count at a small background rate, 1..16 per 1000
 * instructions, fixed per event code by a hash of the code.
 */
#include <stddef.h>
#include <string.h>
#include <strings.h>

#include "sim/sim_internal.h"

#define PMCR_D  (1u << 3)
#define PMCR_LC (1u << 6)
#define PMCR_LP (1u << 7)
#define EVTYPER_P (1u << 31)   /* exclude EL1 */
#define EVTYPER_U (1u << 30)   /* exclude EL0 */

#define Q16_ONE 65536

/* ---- fixed-point helpers ------------------------------------------------ */

/* (a * b) >> 32 without a 128-bit type; exact floor. */
static uint64_t mul_q32(uint64_t a, uint64_t b)
{
    uint64_t al = a & 0xFFFFFFFFu, ah = a >> 32;
    uint64_t bl = b & 0xFFFFFFFFu, bh = b >> 32;

    return ((ah * bh) << 32) + ah * bl + al * bh + ((al * bl) >> 32);
}

/* floor(x * num / den) without overflow for num, den < 2^16. */
static uint64_t scale(uint64_t x, unsigned num, unsigned den)
{
    return (x / den) * num + (x % den) * num / den;
}

static uint64_t mix64(uint64_t x)
{
    x += 0x9E3779B97F4A7C15u;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9u;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBu;
    return x ^ (x >> 31);
}

static uint64_t q32_from(double events_per_ns)
{
    if (!(events_per_ns > 0))
        return 0;
    if (events_per_ns > 1e6)
        events_per_ns = 1e6;
    return (uint64_t)(events_per_ns * 4294967296.0 + 0.5);
}

static uint64_t mul_q16(uint64_t rate, uint32_t f)
{
    return mul_q32(rate, (uint64_t)f << 16);
}

/* ---- signal rates --------------------------------------------------------- */

/* Variation factor of one signal in one phase, Q16 in [1-swing, 1+swing]. */
static uint32_t phase_factor(const struct sim_wl *wl, uint64_t phase, unsigned sig)
{
    uint64_t h;
    int64_t u;

    if (!wl->phase_ns || !wl->swing_q16)
        return Q16_ONE;
    h = mix64(mix64(mix64(mix64(wl->seed) ^ wl->cpu) ^ phase) ^ sig);
    u = (int64_t)(h % (2u * Q16_ONE + 1u)) - Q16_ONE;     /* -1..1, Q16 */
    return (uint32_t)(Q16_ONE + (int64_t)wl->swing_q16 * u / Q16_ONE);
}

static void phase_rates(struct sim_wl *wl, uint64_t phase, uint64_t *r)
{
    uint32_t fi = phase_factor(wl, phase, SIG_INST);

    r[SIG_CYCLES] = wl->base_q32[SIG_CYCLES];       /* the clock does not vary */
    r[SIG_INST] = mul_q16(wl->base_q32[SIG_INST], fi);
    for (unsigned k = SIG_L1D; k <= SIG_EXC; k++) {
        uint64_t b = wl->base_q32[k];

        if (k != SIG_STALL_FE && k != SIG_STALL_BE)
            b = mul_q16(b, fi);                     /* per-instruction rates */
        r[k] = mul_q16(b, phase_factor(wl, phase, k));
    }
    /* Keep the model consistent: a miss is also an access, a stall is a
     * cycle. */
    if (r[SIG_L1D_REFILL] > r[SIG_L1D])
        r[SIG_L1D_REFILL] = r[SIG_L1D];
    if (r[SIG_L1I_REFILL] > r[SIG_L1I])
        r[SIG_L1I_REFILL] = r[SIG_L1I];
    if (r[SIG_L2D_REFILL] > r[SIG_L2D])
        r[SIG_L2D_REFILL] = r[SIG_L2D];
    if (r[SIG_BR_MIS] > r[SIG_BR])
        r[SIG_BR_MIS] = r[SIG_BR];
    if (r[SIG_STALL_FE] > r[SIG_CYCLES])
        r[SIG_STALL_FE] = r[SIG_CYCLES];
    if (r[SIG_STALL_BE] > r[SIG_CYCLES] - r[SIG_STALL_FE])
        r[SIG_STALL_BE] = r[SIG_CYCLES] - r[SIG_STALL_FE];
}

/* Used when the target gives no workload (clock_mhz 0). */
static const struct pp_workload default_wl = {
    .clock_mhz = 1000, .ipc = 1.0, .l1d_pki = 400, .l1d_mpki = 10,
    .l1i_mpki = 5, .l2d_pki = 20, .l2d_mpki = 2, .br_pki = 150, .br_mpki = 5,
    .tlb_mpki = 1, .stall_fe = 0.1, .stall_be = 0.2, .phase_us = 1000,
    .swing = 0.2, .seed = 1,
};

static void wl_rewind(struct sim_wl *wl)
{
    wl->cur_phase = 0;
    memset(wl->cur_start, 0, sizeof(wl->cur_start));
    phase_rates(wl, 0, wl->cur_rate);
}

void sim_wl_init(struct sim_wl *wl, const struct pp_workload *w, unsigned cpu)
{
    double cyc, ins, swing;

    if (!(w->clock_mhz > 0))
        w = &default_wl;
    cyc = w->clock_mhz / 1000.0;
    ins = cyc * w->ipc;
    memset(wl, 0, sizeof(*wl));
    wl->base_q32[SIG_CYCLES] = q32_from(cyc);
    wl->base_q32[SIG_INST] = q32_from(ins);
    wl->base_q32[SIG_L1D] = q32_from(ins * w->l1d_pki / 1000.0);
    wl->base_q32[SIG_L1D_REFILL] = q32_from(ins * w->l1d_mpki / 1000.0);
    /* one L1I access per 16-byte fetch block: 250 per kilo-instruction */
    wl->base_q32[SIG_L1I] = q32_from(ins * 0.25);
    wl->base_q32[SIG_L1I_REFILL] = q32_from(ins * w->l1i_mpki / 1000.0);
    wl->base_q32[SIG_L2D] = q32_from(ins * w->l2d_pki / 1000.0);
    wl->base_q32[SIG_L2D_REFILL] = q32_from(ins * w->l2d_mpki / 1000.0);
    wl->base_q32[SIG_BR] = q32_from(ins * w->br_pki / 1000.0);
    wl->base_q32[SIG_BR_MIS] = q32_from(ins * w->br_mpki / 1000.0);
    wl->base_q32[SIG_TLB_REFILL] = q32_from(ins * w->tlb_mpki / 1000.0);
    wl->base_q32[SIG_STALL_FE] = q32_from(cyc * w->stall_fe);
    wl->base_q32[SIG_STALL_BE] = q32_from(cyc * w->stall_be);
    /* exceptions (interrupts, syscalls): 0.05 per kilo-instruction */
    wl->base_q32[SIG_EXC] = q32_from(ins * 0.05 / 1000.0);
    swing = w->swing < 0 ? 0 : (w->swing > 0.9 ? 0.9 : w->swing);
    wl->swing_q16 = (uint32_t)(swing * Q16_ONE + 0.5);
    wl->phase_ns = (uint64_t)w->phase_us * 1000u;
    wl->seed = w->seed;
    wl->cpu = cpu;
    wl_rewind(wl);
}

/* Cumulative count of a signal at running time tau.  Moves the phase
 * cursor forward (tau normally only grows). */
uint64_t sim_wl_signal(struct sim_wl *wl, unsigned sig, uint64_t tau)
{
    uint64_t p;

    if (!wl->phase_ns)
        return mul_q32(wl->cur_rate[sig], tau);
    p = tau / wl->phase_ns;
    if (p < wl->cur_phase)
        wl_rewind(wl);
    while (wl->cur_phase < p) {
        for (unsigned k = 0; k < SIG_COUNT; k++)
            wl->cur_start[k] += mul_q32(wl->cur_rate[k], wl->phase_ns);
        wl->cur_phase++;
        phase_rates(wl, wl->cur_phase, wl->cur_rate);
    }
    return wl->cur_start[sig] + mul_q32(wl->cur_rate[sig], tau - p * wl->phase_ns);
}

/* ---- events ----------------------------------------------------------------- */

#define NOCODE 0xFFFFu

struct ev_map {
    uint16_t code;          /* Armv8 number; NOCODE: matched by name only */
    const char *name;
    uint8_t kind, sig;
    uint16_t num, den;
    bool comp;
};

#define S(code, name, sig, num, den) { code, name, FN_SIG, sig, num, den, false }
/* the rest of a split: sig - floor(sig * num / den) */
#define R(code, name, sig, num, den) { code, name, FN_SIG, sig, num, den, true }
#define Z(code, name) { code, name, FN_NONE, 0, 1, 1, false }

/* Architectural numbers 0x00-0x3F, Armv8 recommended numbers 0x40+ and
 * 0x4000+, and IMP DEF events of the Armv7 cores by mnemonic.  Read/write
 * splits use 60 % loads. */
static const struct ev_map ev_map[] = {
    S(0x0001, "L1I_CACHE_REFILL",       SIG_L1I_REFILL, 1, 1),
    S(0x0002, "L1I_TLB_REFILL",         SIG_TLB_REFILL, 1, 4),
    S(0x0003, "L1D_CACHE_REFILL",       SIG_L1D_REFILL, 1, 1),
    S(0x0004, "L1D_CACHE",              SIG_L1D, 1, 1),
    S(0x0005, "L1D_TLB_REFILL",         SIG_TLB_REFILL, 1, 1),
    S(0x0006, "LD_RETIRED",             SIG_L1D, 3, 5),
    R(0x0007, "ST_RETIRED",             SIG_L1D, 3, 5),
    S(0x0008, "INST_RETIRED",           SIG_INST, 1, 1),
    S(0x0009, "EXC_TAKEN",              SIG_EXC, 1, 1),
    S(0x000A, "EXC_RETURN",             SIG_EXC, 1, 1),
    S(0x000B, "CID_WRITE_RETIRED",      SIG_EXC, 1, 10),
    S(0x000C, "PC_WRITE_RETIRED",       SIG_BR, 3, 5),
    S(0x000D, "BR_IMMED_RETIRED",       SIG_BR, 4, 5),
    S(0x000E, "BR_RETURN_RETIRED",      SIG_BR, 1, 10),
    S(0x000F, "UNALIGNED_LDST_RETIRED", SIG_L1D, 1, 100),
    S(0x0010, "BR_MIS_PRED",            SIG_BR_MIS, 1, 1),
    S(0x0011, "CPU_CYCLES",             SIG_CYCLES, 1, 1),
    S(0x0012, "BR_PRED",                SIG_BR, 1, 1),
    S(0x0013, "MEM_ACCESS",             SIG_L1D, 1, 1),
    S(0x0014, "L1I_CACHE",              SIG_L1I, 1, 1),
    S(0x0015, "L1D_CACHE_WB",           SIG_L1D_REFILL, 1, 3),
    S(0x0016, "L2D_CACHE",              SIG_L2D, 1, 1),
    S(0x0017, "L2D_CACHE_REFILL",       SIG_L2D_REFILL, 1, 1),
    S(0x0018, "L2D_CACHE_WB",           SIG_L2D_REFILL, 1, 3),
    S(0x0019, "BUS_ACCESS",             SIG_L2D_REFILL, 3, 2),
    Z(0x001A, "MEMORY_ERROR"),
    S(0x001B, "INST_SPEC",              SIG_INST, 11, 10),
    S(0x001C, "TTBR_WRITE_RETIRED",     SIG_EXC, 1, 10),
    S(0x001D, "BUS_CYCLES",             SIG_CYCLES, 1, 2),
    Z(0x001E, "CHAIN"),                 /* counter chaining is not modelled */
    S(0x001F, "L1D_CACHE_ALLOCATE",     SIG_L1D_REFILL, 1, 10),
    S(0x0020, "L2D_CACHE_ALLOCATE",     SIG_L2D_REFILL, 1, 10),
    S(0x0021, "BR_RETIRED",             SIG_BR, 1, 1),
    S(0x0022, "BR_MIS_PRED_RETIRED",    SIG_BR_MIS, 1, 1),
    S(0x0023, "STALL_FRONTEND",         SIG_STALL_FE, 1, 1),
    S(0x0024, "STALL_BACKEND",          SIG_STALL_BE, 1, 1),
    S(0x0025, "L1D_TLB",                SIG_L1D, 1, 1),
    S(0x0026, "L1I_TLB",                SIG_L1I, 1, 1),
    S(0x002D, "L2D_TLB_REFILL",         SIG_TLB_REFILL, 1, 4),
    S(0x002F, "L2D_TLB",                SIG_TLB_REFILL, 5, 4),
    S(0x0034, "DTLB_WALK",              SIG_TLB_REFILL, 1, 4),
    S(0x0035, "ITLB_WALK",              SIG_TLB_REFILL, 1, 16),
    S(0x0036, "LL_CACHE_RD",            SIG_L2D_REFILL, 4, 5),
    S(0x0037, "LL_CACHE_MISS_RD",       SIG_L2D_REFILL, 1, 5),
    S(0x0040, "L1D_CACHE_RD",           SIG_L1D, 3, 5),
    R(0x0041, "L1D_CACHE_WR",           SIG_L1D, 3, 5),
    S(0x0042, "L1D_CACHE_REFILL_RD",    SIG_L1D_REFILL, 4, 5),
    R(0x0043, "L1D_CACHE_REFILL_WR",    SIG_L1D_REFILL, 4, 5),
    S(0x004C, "L1D_TLB_REFILL_RD",      SIG_TLB_REFILL, 3, 5),
    R(0x004D, "L1D_TLB_REFILL_WR",      SIG_TLB_REFILL, 3, 5),
    S(0x004E, "L1D_TLB_RD",             SIG_L1D, 3, 5),
    R(0x004F, "L1D_TLB_WR",             SIG_L1D, 3, 5),
    S(0x0050, "L2D_CACHE_RD",           SIG_L2D, 3, 4),
    R(0x0051, "L2D_CACHE_WR",           SIG_L2D, 3, 4),
    S(0x0052, "L2D_CACHE_REFILL_RD",    SIG_L2D_REFILL, 4, 5),
    R(0x0053, "L2D_CACHE_REFILL_WR",    SIG_L2D_REFILL, 4, 5),
    S(0x0060, "BUS_ACCESS_RD",          SIG_L2D_REFILL, 1, 1),
    S(0x0061, "BUS_ACCESS_WR",          SIG_L2D_REFILL, 1, 2),
    S(0x0066, "MEM_ACCESS_RD",          SIG_L1D, 3, 5),
    R(0x0067, "MEM_ACCESS_WR",          SIG_L1D, 3, 5),
    S(0x0070, "LD_SPEC",                SIG_L1D, 3, 5),
    R(0x0071, "ST_SPEC",                SIG_L1D, 3, 5),
    S(0x0072, "LDST_SPEC",              SIG_L1D, 1, 1),
    S(0x0073, "DP_SPEC",                SIG_INST, 1, 2),
    S(0x0078, "BR_IMMED_SPEC",          SIG_BR, 4, 5),
    S(0x0079, "BR_RETURN_SPEC",         SIG_BR, 1, 10),
    S(0x007A, "BR_INDIRECT_SPEC",       SIG_BR, 1, 10),
    S(0x0082, "EXC_SVC",                SIG_EXC, 1, 4),
    S(0x0086, "EXC_IRQ",                SIG_EXC, 1, 2),
    S(0x4004, "CNT_CYCLES",             SIG_CYCLES, 1, 1),
    S(0x4005, "STALL_BACKEND_MEM",      SIG_STALL_BE, 1, 2),
    S(0x4006, "L1I_CACHE_LMISS",        SIG_L1I_REFILL, 1, 1),
    S(0x4009, "L2D_CACHE_LMISS_RD",     SIG_L2D_REFILL, 4, 5),
    /* Cortex-A9 IMP DEF events (PMUv2 numbers differ from Armv8's) */
    S(NOCODE, "INST_RENAME",            SIG_INST, 1, 1),
    S(NOCODE, "MAIN_UNIT_INST",         SIG_INST, 1, 2),
    S(NOCODE, "LDST_UNIT_INST",         SIG_L1D, 1, 1),
    S(NOCODE, "ICACHE_DEP_STALL",       SIG_STALL_FE, 1, 2),
    S(NOCODE, "DCACHE_DEP_STALL",       SIG_STALL_BE, 1, 2),
    S(NOCODE, "ISSUE_EMPTY",            SIG_STALL_FE, 1, 1),
    S(NOCODE, "DATA_LINEFILL",          SIG_L1D_REFILL, 1, 1),
    S(NOCODE, "EXT_IRQ",                SIG_EXC, 1, 2),
};

static const struct ev_map *map_by_code(uint16_t code)
{
    for (size_t i = 0; i < sizeof(ev_map) / sizeof(ev_map[0]); i++)
        if (ev_map[i].code == code)
            return &ev_map[i];
    return NULL;
}

static const struct ev_map *map_by_name(const char *name)
{
    for (size_t i = 0; i < sizeof(ev_map) / sizeof(ev_map[0]); i++)
        if (strcasecmp(ev_map[i].name, name) == 0)
            return &ev_map[i];
    return NULL;
}

/* Does the core implement the event?  Common events: its PMCEIDn bit;
 * others: listed in the core's own catalog table. */
static bool advertised(const struct sim_core *c, uint16_t code)
{
    const struct pp_event *ev;

    if (code < 0x40)
        return c->pmceid[code / 32u] >> (code % 32u) & 1u;
    if (code >= 0x4000 && code < 0x4040)
        return c->type->pmuv3p1 && (c->pmceid[2 + (code - 0x4000) / 32u] >> (code % 32u) & 1u);
    ev = pp_catalog_lookup(c->cat, code);
    return ev && ev >= c->cat->events && ev < c->cat->events + c->cat->n;
}

static struct sim_evfn fn_of(const struct ev_map *m)
{
    struct sim_evfn f = { m->kind, m->sig, m->comp, m->num, m->den };

    return f;
}

/*
 * What a counter programmed with event `code` counts on this core.
 * Without a catalog (unknown core key) the model counts what the Armv8
 * numbering says and nothing else.
 */
struct sim_evfn sim_event_fn(const struct sim_core *c, uint16_t code)
{
    struct sim_evfn none = { FN_NONE, 0, false, 1, 1 };
    struct sim_evfn f = none;
    const struct ev_map *m = NULL;
    bool v3 = c->type->pmu_version >= 3;

    if (code == 0x0000) {
        f.kind = FN_SWINC;
        return f;
    }
    if (c->cat && !advertised(c, code))
        return none;
    if (c->cat && code >= 0x40) {
        const struct pp_event *ev = pp_catalog_lookup(c->cat, code);

        if (ev && ev->name)
            m = map_by_name(ev->name);
    }
    if (!m && (code < 0x40 || v3))
        m = map_by_code(code);
    if (m)
        return fn_of(m);
    if (!c->cat)
        return none;
    f.kind = FN_SIG;
    f.sig = SIG_INST;
    f.num = (uint16_t)(1u + mix64(code) % 16u);
    f.den = 1000;
    return f;
}

/* ---- counters ----------------------------------------------------------------- */

static uint64_t filter(uint64_t x, unsigned filt)
{
    uint64_t el1 = x / 4u + (x % 4u != 0);    /* 25 % of the work runs at EL1 */

    switch (filt) {
    case 0:                return x;
    case SIM_FILT_NO_EL0:  return el1;
    case SIM_FILT_NO_EL1:  return x - el1;
    default:               return 0;
    }
}

static uint64_t counter_fn(struct sim_core *c, const struct sim_counter *k, uint64_t tau)
{
    uint64_t s, v;

    if (k->fn.kind != FN_SIG)
        return 0;
    s = sim_wl_signal(&c->wl, k->fn.sig, tau);
    v = scale(s, k->fn.num, k->fn.den);
    if (k->fn.comp)
        v = s - v;
    v = filter(v, k->filt);
    return k->div64 ? v / 64u : v;
}

static unsigned filt_bits(uint32_t typer)
{
    return ((typer & EVTYPER_U) ? SIM_FILT_NO_EL0 : 0u) |
           ((typer & EVTYPER_P) ? SIM_FILT_NO_EL1 : 0u);
}

static uint16_t event_mask(const struct pp_core_type *t)
{
    if (t->pmu_version < 3)
        return 0xFF;
    return t->arch == PP_ARCH_V8_0 ? 0x3FF : 0xFFFF;   /* evtCount: 10 bits in v8.0 */
}

/* Reprograms counter i from the registers and restarts its count function
 * at tau.  Call sim_pmu_sync first so the old programming is accounted. */
void sim_counter_rebase(struct sim_core *c, unsigned i, uint64_t tau)
{
    struct sim_counter *k = &c->cnt[i];

    if (i == SIM_CCNT) {
        /* cycles, also on cores without event 0x11 */
        struct sim_evfn cyc = { FN_SIG, SIG_CYCLES, false, 1, 1 };

        k->fn = cyc;
        k->filt = (uint8_t)filt_bits(c->ccfiltr);
        k->div64 = (c->pmcr & PMCR_D) != 0;
    } else {
        k->fn = sim_event_fn(c, (uint16_t)(c->evtyper[i] & event_mask(c->type)));
        k->filt = (uint8_t)filt_bits(c->evtyper[i]);
        k->div64 = false;
    }
    k->base = counter_fn(c, k, tau);
    k->tau = tau;
}

static bool counting(const struct sim_core *c, unsigned i)
{
    return (c->pmcr & 1u) && (c->cnten & c->cnt_mask & (1u << i));
}

/*
 * Adds d events to counter i: 32-bit counters wrap, the overflow flag is
 * set on unsigned overflow of bit 31 (or bit 63 with PMCR.LC for the cycle
 * counter, PMCR.LP for 64-bit event counters; spec 1.3).
 */
void sim_counter_add(struct sim_core *c, unsigned i, uint64_t d)
{
    struct sim_counter *k = &c->cnt[i];
    bool v3 = c->type->pmu_version >= 3;
    bool cc = i == SIM_CCNT;
    bool wide = v3 && (cc || c->desc->counter64);
    bool ovf64 = v3 && (cc ? (c->pmcr & PMCR_LC) : (c->desc->counter64 && (c->pmcr & PMCR_LP)));
    uint64_t old = k->val;

    if (ovf64 ? old + d < old : (old & 0xFFFFFFFFu) + d > 0xFFFFFFFFu)
        c->ovs |= 1u << i;
    k->val = wide ? old + d : (old + d) & 0xFFFFFFFFu;
}

/*
 * Brings counter i up to running time tau.  Each counter keeps its own
 * sync time, so reading one counter costs one count function, not one
 * per counter: a capture reads every counter once per sample, and syncing
 * them all on every read made the simulator the bottleneck of the capture
 * pipeline.  The result is the same either way: a count function is
 * cumulative, the value is base-relative, and the overflow flag is
 * sticky, so one step or several give the same value and flags.
 */
void sim_pmu_sync_one(struct sim_core *c, unsigned i, uint64_t tau)
{
    struct sim_counter *k = &c->cnt[i];
    uint64_t v;

    if (tau == k->tau)
        return;
    k->tau = tau;
    if (k->fn.kind != FN_SIG || !counting(c, i))
        return;
    v = counter_fn(c, k, tau);
    sim_counter_add(c, i, v - k->base);
    k->base = v;
}

/* Brings every counting counter up to running time tau.  O(counters). */
void sim_pmu_sync(struct sim_core *c, uint64_t tau)
{
    for (unsigned i = 0; i <= SIM_CCNT; i++)
        sim_pmu_sync_one(c, i, tau);
}

/*
 * A synthetic PC sample: where the workload is after its n-th instruction.
 * 25 % of samples are at EL1 (kernel addresses), the rest at EL0.  Returns
 * PMPCSR[63:0]: NS[63], EL[62:61], PC[55:0] (spec 1.3).
 */
uint64_t sim_pc_sample(struct sim_core *c, uint64_t tau, uint32_t *cid)
{
    uint64_t n = sim_wl_signal(&c->wl, SIG_INST, tau);
    uint64_t h = mix64(c->wl.seed ^ mix64(n));
    uint64_t off = (h >> 8 & 0xFFFFFu) * 4u;
    bool el1 = (h & 3u) == 0;
    uint64_t pc = el1 ? 0xFFFF800010000000u + off : 0x400000u + off;

    *cid = el1 ? 0 : 1000u + c->wl.cpu * 16u + (uint32_t)(h >> 40 & 3u);
    return 1ull << 63 | (uint64_t)(el1 ? 1u : 0u) << 61 | (pc & 0x00FFFFFFFFFFFFFFu);
}

uint64_t pp_sim_event_total(struct pp_sim *sim, unsigned cpu, uint16_t event)
{
    struct sim_core *c = sim_core_by_cpu(sim, cpu);
    struct sim_counter k = { 0 };
    uint64_t now;

    sim_poll_faults(sim);
    now = sim_now(sim);
    if (!c)
        return 0;
    sim_core_tick(c, now);
    k.fn = sim_event_fn(c, event);
    return counter_fn(c, &k, sim_core_tau(c, now));
}
