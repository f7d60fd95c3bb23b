/*
 * capture.c - the capture engine: setup of the cores (events, observed
 * counters, programming with ownership checks), the meta, the threads,
 * the writer loop, waiting and stopping, and handing the PMUs back.
 * The sampler thread is in sampler.c, the batch in plan.c.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "clock.h"
#include "bus/bus.h"
#include "capture/engine.h"
#include "errmsg.h"
#include "pmu/regs.h"
#include "pmu/snapshot.h"

#define NS_PER_S       1000000000ull
/* An empty ring makes the writer sleep, longer each time it stays empty:
 * a fast capture keeps it near the minimum, a slow path (OpenOCD at a few
 * hundred samples/s) no longer wakes it thousands of times a second for
 * nothing.  The maximum stays well under the time the default ring takes
 * to fill at 1 M samples/s (8 ms), so the block policy never waits on a
 * sleeping writer for long. */
#define WRITER_IDLE_MIN_NS 50000ull      /* 50 us */
#define WRITER_IDLE_MAX_NS 5000000ull    /* 5 ms */
#define WAIT_POLL_NS   2000000ull    /* pp_cap_wait re-checks every 2 ms */

/* The writer waits for the sampler's end on a monotonic clock: a
 * wall-clock step must not stretch or cut its idle wait. */
static int init_done_signal(struct pp_cap *c)
{
    pthread_condattr_t a;
    int rc = pthread_condattr_init(&a);

    if (rc == 0)
        rc = pthread_condattr_setclock(&a, CLOCK_MONOTONIC);
    if (rc == 0)
        rc = pthread_cond_init(&c->done_cv, &a);
    pthread_condattr_destroy(&a);
    if (rc == 0 && (rc = pthread_mutex_init(&c->done_mu, NULL)) != 0)
        pthread_cond_destroy(&c->done_cv);
    return rc;
}

void cap_sampler_finished(struct pp_cap *c)
{
    pthread_mutex_lock(&c->done_mu);
    atomic_store_explicit(&c->sampler_done, true, memory_order_release);
    pthread_cond_broadcast(&c->done_cv);
    pthread_mutex_unlock(&c->done_mu);
}

struct pp_cap *pp_cap_new(const struct pp_cap_config *cfg)
{
    struct pp_cap *c;

    if (!cfg || !cfg->bus)
        return NULL;
    c = calloc(1, sizeof(*c));
    if (!c)
        return NULL;
    c->cfg = *cfg;
    if (!c->cfg.ring_slots)
        c->cfg.ring_slots = PP_CAP_RING_DEFAULT;
    if (!c->cfg.retry_ns)
        c->cfg.retry_ns = PP_CAP_RETRY_DEFAULT;
    atomic_init(&c->stop, false);
    atomic_init(&c->finish, false);
    atomic_init(&c->sampler_done, false);
    atomic_init(&c->writer_done, false);
    atomic_init(&c->sink_failed, false);
    atomic_init(&c->n_samples, 0);
    atomic_init(&c->n_written, 0);
    atomic_init(&c->n_late, 0);
    atomic_init(&c->n_dropped, 0);
    atomic_init(&c->n_missed, 0);
    atomic_init(&c->n_gaps, 0);
    atomic_init(&c->n_bytes, 0);
    atomic_init(&c->blocked_ns, 0);
    if (init_done_signal(c) != 0) {
        free(c);
        return NULL;
    }
    return c;
}

unsigned pp_cap_ncores(const struct pp_cap *c)
{
    return c->meta.ncores;
}

const struct pp_cap_meta *pp_cap_meta(const struct pp_cap *c)
{
    return &c->meta;
}

/* ---- cores --------------------------------------------------------------------- */

static int check_new_core(const struct pp_cap *c, const struct pp_core_desc *core,
                          char *err, size_t errlen)
{
    if (c->started) {
        pp_errmsg(err, errlen, "cpu%u: the capture has started; add cores before", core->cpu);
        return PP_E_INVAL;
    }
    if (c->meta.ncores >= PP_CAP_MAX_CORES) {
        pp_errmsg(err, errlen, "cpu%u: a capture takes at most %u cores", core->cpu,
                  PP_CAP_MAX_CORES);
        return PP_E_INVAL;
    }
    for (unsigned k = 0; k < c->meta.ncores; k++) {
        if (c->core[k].desc->cpu == core->cpu) {
            pp_errmsg(err, errlen, "cpu%u: already in the capture", core->cpu);
            return PP_E_INVAL;
        }
    }
    return PP_OK;
}

/*
 * The default plan of a core (neither snapshot nor live forced): the
 * snapshot block where the core has it (pp_snap_supported: the Cortex-A55
 * and A76 TRM block, spec 1.4, or `snapshot = yes` in the target
 * description for another core whose PMCFGR.SS says it has one) and it
 * copies every counter in use (PMEVCNTR0-5 and the cycle counter), unless
 * the cycle counter is sampled alone.  Why (spec/arm-pmu-coresight.md 1.4,
 * 2.8, 7.3): the copies of one capture sit in one contiguous block
 * (0x610-0x634) that a MEM-AP reads with one TAR write and auto-increment,
 * while the live counters are 8 bytes apart (0x000 + 8n) with PMOVSSET
 * and PMCCNTR elsewhere, so from two counters on the snapshot costs fewer
 * JTAG scans and its values are coherent across counters.  The cycle
 * counter alone is one 64-bit register: live hi/lo/hi is as coherent and
 * needs no capture write and status read (2 scans fewer per sample).
 */
static bool snapshot_by_default(const struct cap_core *cc, uint32_t mask)
{
    return pp_snap_supported(cc->desc) && pp_snap_copies(mask) &&
           mask != 1u << PP_EXT_CYCLE;
}

static int init_ext(const struct pp_cap *c, struct cap_core *cc, uint32_t mask, char *err,
                    size_t errlen)
{
    if (c->cfg.snapshot && c->cfg.live) {
        pp_errmsg(err, errlen, "cpu%u: the snapshot and live plans exclude each other",
                  cc->desc->cpu);
        return PP_E_INVAL;
    }
    if (c->cfg.snapshot || (!c->cfg.live && snapshot_by_default(cc, mask)))
        return pp_snap_init(&cc->ext, cc->desc, mask, err, errlen);
    return pp_ext_init(&cc->ext, cc->desc, mask, err, errlen);
}

/* The meta's half of a new core; events named by the caller after. */
static struct pp_cap_core *meta_core(struct pp_cap *c, const struct pp_core_desc *core)
{
    struct pp_cap_core *mc = &c->meta.core[c->meta.ncores];

    memset(mc, 0, sizeof(*mc));
    mc->cpu = core->cpu;
    snprintf(mc->type, sizeof(mc->type), "%s", core->type->name);
    return mc;
}

static void name_event(struct pp_cap_event *e, const char *asked, const char *mnemonic,
                       uint16_t code, unsigned counter)
{
    snprintf(e->name, sizeof(e->name), "%s", asked);
    if (mnemonic)
        snprintf(e->mnemonic, sizeof(e->mnemonic), "%s", mnemonic);
    else
        snprintf(e->mnemonic, sizeof(e->mnemonic), "raw 0x%X", code);
    e->code = code;
    e->counter = (uint8_t)counter;
}

int pp_cap_add_core(struct pp_cap *c, const struct pp_core_desc *core,
                    const struct pp_evsel *ev, unsigned nev, char *err, size_t errlen)
{
    struct cap_core *cc = &c->core[c->meta.ncores];
    struct pp_cap_core *mc;
    int rc = check_new_core(c, core, err, errlen);

    if (rc != PP_OK)
        return rc;
    if (c->cfg.observe) {
        pp_errmsg(err, errlen, "cpu%u: --observe counts what the target programmed; "
                  "it takes no event list", core->cpu);
        return PP_E_INVAL;
    }
    if (nev == 0 || nev > PP_CAP_MAX_EVENTS) {
        pp_errmsg(err, errlen, "cpu%u: %u events (1 to %u)", core->cpu, nev, PP_CAP_MAX_EVENTS);
        return PP_E_INVAL;
    }
    memset(cc, 0, sizeof(*cc));
    cc->desc = core;
    rc = pp_pmu_allocate(core, ev, nev, &cc->prog, err, errlen);
    if (rc == PP_OK)
        rc = init_ext(c, cc, pp_ext_prog_mask(&cc->prog), err, errlen);
    if (rc != PP_OK)
        return rc;
    mc = meta_core(c, core);
    mc->nev = nev;
    for (unsigned i = 0; i < nev; i++) {
        const char *mn = ev[i].ev ? ev[i].ev->name : ev[i].cycle_counter ? "CPU_CYCLES" : NULL;

        cc->ctr[i] = cc->prog.slot[i];   /* PP_CYCLE_SLOT == PP_EXT_CYCLE */
        name_event(&mc->ev[i], ev[i].name, mn, ev[i].code, cc->prog.slot[i]);
    }
    c->meta.ncores++;
    return PP_OK;
}

static void diag_message(const struct pp_diag *d, unsigned cpu, const char *what, char *msg,
                         size_t len)
{
    char text[PP_DIAG_TEXT_MAX];

    snprintf(msg, len, "cpu%u: %s: %s", cpu, what, pp_diag_text(d, 2, text, sizeof(text)));
}

/* The counters the target's software has counting, named from their
 * PMEVTYPER (PMCCFILTR: the cycle counter). */
static unsigned observed_events(const struct pp_core_desc *core, const struct pp_pmu_state *st,
                                struct pp_cap_core *mc, struct cap_core *cc)
{
    unsigned n = 0;

    if (pp_pmu_counting(st, PP_CYCLE_SLOT)) {
        name_event(&mc->ev[n], "cycles", "CPU_CYCLES", 0x11, PP_EXT_CYCLE);
        cc->ctr[n++] = PP_EXT_CYCLE;
    }
    for (unsigned i = 0; i < st->ncnt && n < PP_CAP_MAX_EVENTS; i++) {
        uint16_t code;
        const char *mn;
        char raw[16];

        if (!pp_pmu_counting(st, i))
            continue;
        code = pp_pmu_evtyper_code(core, st->evtyper[i]);
        mn = pp_pmu_event_name(core, code);
        snprintf(raw, sizeof(raw), "r0x%X", code);
        name_event(&mc->ev[n], mn ? mn : raw, mn, code, i);
        cc->ctr[n++] = (uint8_t)i;
    }
    return n;
}

int pp_cap_add_observed(struct pp_cap *c, const struct pp_core_desc *core,
                        char *err, size_t errlen)
{
    struct cap_core *cc = &c->core[c->meta.ncores];
    struct pp_pmu_state st;
    struct pp_cap_core *mc;
    uint32_t mask = 0;
    int rc = check_new_core(c, core, err, errlen);

    if (rc != PP_OK)
        return rc;
    rc = pp_pmu_read_state(c->cfg.bus, core, &st);
    if (rc != PP_OK) {
        struct pp_diag d;

        if (rc != PP_E_LINK && pp_diag_core(c->cfg.bus, core, &d) == PP_OK)
            diag_message(&d, core->cpu, "cannot read the PMU programming", err, errlen);
        else
            pp_errmsg(err, errlen, "cpu%u: cannot read the PMU programming: %s", core->cpu,
                      pp_strerror(rc));
        return rc;
    }
    memset(cc, 0, sizeof(*cc));
    cc->desc = core;
    mc = meta_core(c, core);
    mc->nev = observed_events(core, &st, mc, cc);
    if (mc->nev == 0) {
        pp_errmsg(err, errlen, "cpu%u: nothing is counting (PMCR=0x%08X, PMCNTENSET=0x%08X); "
                  "--observe counts only what the target programmed", core->cpu, st.pmcr,
                  st.cntenset);
        return PP_E_NOTFOUND;
    }
    for (unsigned i = 0; i < mc->nev; i++)
        mask |= 1u << cc->ctr[i];
    rc = pp_ext_init(&cc->ext, core, mask, err, errlen);
    if (rc != PP_OK)
        return rc;
    c->meta.ncores++;
    return PP_OK;
}

/* ---- programming ------------------------------------------------------------------ */

static void guard_item(struct cap_guard *g, uint32_t addr, uint32_t mask, uint32_t want,
                       enum cap_guard_kind kind, unsigned idx)
{
    g->item[g->n++] = (struct cap_guard_item){ .addr = addr, .mask = mask, .want = want,
                                               .kind = (uint8_t)kind, .idx = (uint8_t)idx };
}

/* What the samples check (plan.c): the programming as read back, so the
 * comparison is with what the PMU holds (unimplemented filter bits read
 * as 0), and the claim tags pmuprobe holds.  PMCR and PMCNTENSET come
 * first: a disable is the takeover that freezes every count. */
static void set_guard(struct cap_core *cc, const struct pp_pmu_state *st)
{
    struct cap_guard *g = &cc->guard;
    uint32_t pmu = cc->desc->pmu_base, cnten = (uint32_t)pp_ext_prog_mask(&cc->prog);

    memset(g, 0, sizeof(*g));
    g->on = true;
    guard_item(g, pmu + PP_PMU_PMCR, PP_PMCR_E, PP_PMCR_E, CAP_G_PMCR, 0);
    guard_item(g, pmu + PP_PMU_PMCNTENSET, cnten, cnten, CAP_G_CNTEN, 0);
    if (st->claim_ok) {
        uint32_t mask = PP_CLAIM_EXTERNAL | (st->live_ok ? PP_CLAIM_LIVE : 0u);

        guard_item(g, cc->desc->debug_base + PP_DBG_CLAIMCLR, mask, st->claim & mask,
                   CAP_G_CLAIM, 0);
    }
    if (cc->prog.cycles)
        guard_item(g, pmu + PP_PMU_PMCCFILTR, UINT32_MAX, st->ccfiltr, CAP_G_CCFILTR, 0);
    for (unsigned i = 0; i < cc->prog.nev; i++)
        guard_item(g, pmu + PP_PMU_PMEVTYPER(i), UINT32_MAX, st->evtyper[i], CAP_G_TYPER, i);
    cc->live = st->claim & PP_CLAIM_LIVE;
    cc->planned = false;
}

/*
 * The snapshot plan reads the copies a capture write makes, where the
 * silicon has the block the description claims (pp_snap_check_silicon):
 * without it the block's window reads as zeros and PMSSSR.NC as 0, which
 * would pass for captured copies of counters that never move.  So before
 * a core is programmed its PMCFGR.SS is read:
 *   - SS set: the snapshot plan;
 *   - SS clear, before the capture starts: the default plan falls back to
 *     live reads, with a note; --snapshot is refused before anything is
 *     written;
 *   - PMCFGR unreadable before the start (the core off): nothing is
 *     known.  The default plan then reads the core live, which any
 *     silicon answers; a forced snapshot keeps the block, to be checked
 *     when the core rejoins;
 *   - when a core that was out rejoins (sampler.c retry_core), the
 *     capture's meta already names its plan: a block not confirmed (SS
 *     clear, or PMCFGR unreadable) is refused, and the core stays a gap
 *     rather than read zeros.
 * Only a forced snapshot can meet that last case: the default plan has
 * confirmed the block at the start or reads the core live.
 */
static int check_snapshot(struct pp_cap *c, struct cap_core *cc, char *msg, size_t msglen)
{
    uint32_t pmcfgr = 0;
    bool absent, unknown;
    char what[64];

    msg[0] = '\0';
    if (!cc->ext.snapshot)
        return PP_OK;
    /* pp_snap_check_silicon: an error is SS clear, PMCFGR 0 unreadable. */
    absent = pp_snap_check_silicon(c->cfg.bus, cc->desc, &pmcfgr) != PP_OK;
    unknown = !absent && pmcfgr == 0;
    if (!absent && !unknown)
        return PP_OK;
    if (absent)
        snprintf(what, sizeof(what), "PMCFGR = 0x%08X has SS (bit 22) clear", pmcfgr);
    else
        snprintf(what, sizeof(what), "PMCFGR cannot be read");
    if (c->started) {
        snprintf(msg, msglen, "cpu%u: %s: the snapshot block --snapshot reads is %s",
                 cc->desc->cpu, what, absent ? "not there; it stays a gap"
                                             : "not confirmed; a gap until a retry reads it");
        return PP_E_UNSUPPORTED;
    }
    if (!c->cfg.snapshot) {
        snprintf(msg, msglen, "cpu%u: %s, though a %s should have a snapshot block: its "
                 "counters are read live", cc->desc->cpu, what, cc->desc->type->pretty);
        return pp_ext_init(&cc->ext, cc->desc, pp_ext_prog_mask(&cc->prog), msg, msglen);
    }
    if (unknown)
        return PP_OK;                 /* --snapshot: checked when the core rejoins */
    snprintf(msg, msglen, "cpu%u: --snapshot: %s: this %s has no snapshot block (spec 1.3); "
             "sample it live (drop --snapshot)", cc->desc->cpu, what, cc->desc->type->pretty);
    return PP_E_UNSUPPORTED;
}

/* msg = note, or "note; msg" when both say something. */
static void prepend_note(const char *note, char *msg, size_t msglen)
{
    char rest[1024];

    if (!note[0])
        return;
    snprintf(rest, sizeof(rest), "%s", msg);
    snprintf(msg, msglen, "%s%s%s", note, rest[0] ? "; " : "", rest);
}

/* The silicon's word on the snapshot block (check_snapshot), EDPRSR read
 * once, then the ownership read, claim and program (two batches), then
 * one batch reading back what each sample will check.  At the start and
 * when a core rejoins alike. */
int cap_core_configure(struct pp_cap *c, struct cap_core *cc, char *msg, size_t msglen)
{
    struct pp_op ed = { .addr = cc->desc->debug_base + PP_DBG_EDPRSR };
    struct pp_pmu_state st;
    unsigned flags = PP_PROG_LIVE | (cc->prog_flags & PP_CAP_FORCE ? PP_PROG_FORCE : 0u);
    char note[256];
    int rc;

    rc = check_snapshot(c, cc, note, sizeof(note));
    if (rc != PP_OK) {
        snprintf(msg, msglen, "%s", note);
        return rc;
    }
    /* Sticky SPD/SR from before this point must not look like a power
     * cycle in the first samples (spec 3.1: the read clears them). */
    if (pp_bus_run(c->cfg.bus, &ed, 1) == PP_E_LINK)
        return PP_E_LINK;
    msg[0] = '\0';
    rc = pp_pmu_configure_ex(c->cfg.bus, cc->desc, &cc->prog, flags, cc->live, &st, msg,
                             msglen);
    if (rc != PP_OK)
        return rc;
    cc->programmed = true;
    rc = pp_pmu_read_state(c->cfg.bus, cc->desc, &st);
    if (rc == PP_OK) {
        set_guard(cc, &st);
        prepend_note(note, msg, msglen);
    }
    return rc;
}

int pp_cap_program(struct pp_cap *c, unsigned k, unsigned flags, char *msg, size_t msglen)
{
    struct cap_core *cc;
    int rc;

    if (k >= c->meta.ncores || c->started)
        return PP_E_INVAL;
    cc = &c->core[k];
    msg[0] = '\0';
    if (c->cfg.observe)
        return PP_OK;
    cc->prog_flags = flags;
    rc = cap_core_configure(c, cc, msg, msglen);
    /* PP_E_UNSUPPORTED: the PMU has fewer counters than asked for, or
     * no snapshot block under --snapshot; no retry can change that. */
    if (rc == PP_OK || rc == PP_E_BUSY || rc == PP_E_LINK || rc == PP_E_UNSUPPORTED)
        return rc;
    /* The core stays in: a gap with its cause until a retry succeeds. */
    cc->out = true;
    cc->reprogram = true;
    cc->episodes = 1;
    int drc = pp_diag_core(c->cfg.bus, cc->desc, &cc->diag);

    cc->cause = cap_gap_cause(drc, &cc->diag, rc == PP_E_WAIT);
    if (drc == PP_OK) {
        diag_message(&cc->diag, cc->desc->cpu, "cannot program the counters", msg, msglen);
    } else {
        snprintf(msg, msglen, "cpu%u: cannot program the counters: %s", cc->desc->cpu,
                 pp_strerror(rc));
    }
    return rc;
}

/* ---- start ------------------------------------------------------------------------- */

static void sort_cores(struct pp_cap *c)
{
    /* insertion sort: at most 64 cores, once */
    for (unsigned k = 0; k < c->meta.ncores; k++)
        c->order[k] = k;
    for (unsigned i = 1; i < c->meta.ncores; i++) {
        unsigned v = c->order[i], j = i;

        while (j > 0 && c->core[c->order[j - 1]].desc->pmu_base > c->core[v].desc->pmu_base) {
            c->order[j] = c->order[j - 1];
            j--;
        }
        c->order[j] = v;
    }
}

static void fill_meta(struct pp_cap *c)
{
    struct pp_cap_meta *m = &c->meta;
    unsigned first = 0;

    snprintf(m->target, sizeof(m->target), "%s", c->cfg.target ? c->cfg.target : "");
    snprintf(m->probe, sizeof(m->probe), "%s",
             c->cfg.probe ? c->cfg.probe : pp_bus_name(c->cfg.bus));
    m->interval_ns = c->cfg.interval_ns;
    m->tck_hz = c->cfg.tck_hz;
    m->realtime = c->cfg.realtime;
    /* true when every core is read from its snapshot block */
    m->snapshot = m->ncores > 0;
    for (unsigned k = 0; k < m->ncores; k++)
        m->snapshot = m->snapshot && c->core[k].ext.snapshot;
    for (unsigned k = 0; k < m->ncores; k++) {
        m->core[k].first = first;
        first += m->core[k].nev;
        pp_cap_metrics_fill(&m->core[k], c->core[k].desc->type);
    }
    m->nvals = first;
}

static int alloc_buffers(struct pp_cap *c)
{
    c->rec_size = pp_cap_record_size(&c->meta);
    c->rec = calloc(1, c->rec_size);
    c->droprec = calloc(1, c->rec_size);
    c->ring = pp_ring_new(c->rec_size, c->cfg.ring_slots);
    if (!c->rec || !c->droprec || !c->ring)
        return PP_E_NOMEM;
    return cap_plan_alloc(c);
}

/* Creates a thread with SIGINT and SIGTERM blocked in it. */
static int spawn(pthread_t *t, void *(*fn)(void *), void *arg)
{
    sigset_t block, old;
    int rc;

    sigemptyset(&block);
    sigaddset(&block, SIGINT);
    sigaddset(&block, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &block, &old);
    rc = pthread_create(t, NULL, fn, arg);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    return rc == 0 ? PP_OK : PP_E_IO;
}

int pp_cap_start(struct pp_cap *c, const struct pp_cap_out *out)
{
    int rc;

    if (c->started || c->meta.ncores == 0 || !out || !out->begin || !out->write || !out->end)
        return PP_E_INVAL;
    fill_meta(c);
    rc = alloc_buffers(c);
    if (rc != PP_OK)
        return rc;
    sort_cores(c);
    c->out = out;
    pp_bus_get_stats(c->cfg.bus, &c->bus0);
    c->t0 = pp_mono_ns();
    c->meta.start_mono_ns = c->t0;
    c->meta.start_real_ns = cap_real_ns();
    if (spawn(&c->writer, cap_writer_main, c) != PP_OK)
        return PP_E_IO;
    c->started = true;
    if (spawn(&c->sampler, cap_sampler_main, c) != PP_OK) {
        /* The writer ends its output at once: the sampler is "done". */
        cap_sampler_finished(c);
        pthread_join(c->writer, NULL);
        c->joined = true;
        return PP_E_IO;
    }
    return PP_OK;
}

/* ---- the writer thread --------------------------------------------------------------- */

static void sink_failed(struct pp_cap *c, const char *what)
{
    const char *m = c->out->errmsg ? c->out->errmsg(c->out->ctx) : NULL;

    if (atomic_load(&c->sink_failed))
        return;
    snprintf(c->sink_msg, sizeof(c->sink_msg), "%s", m && *m ? m : what);
    atomic_store(&c->sink_failed, true);
}

static void note_bytes(struct pp_cap *c)
{
    if (c->out->bytes)
        atomic_store_explicit(&c->n_bytes, c->out->bytes(c->out->ctx), memory_order_relaxed);
}

/* Waits *idle_ns, or less when the sampler ends meanwhile (then the rest
 * of the ring is written at once instead of after up to 5 ms of sleep, the
 * capture's end waiting for it), and doubles *idle_ns up to the maximum.
 * Records only poll: a signal per record would cost the sampler a lock. */
static void writer_idle(struct pp_cap *c, uint64_t *idle_ns)
{
    uint64_t until = pp_mono_ns() + *idle_ns;
    struct timespec ts = { (time_t)(until / 1000000000u), (long)(until % 1000000000u) };

    pthread_mutex_lock(&c->done_mu);
    if (!atomic_load_explicit(&c->sampler_done, memory_order_acquire))
        (void)pthread_cond_timedwait(&c->done_cv, &c->done_mu, &ts);
    pthread_mutex_unlock(&c->done_mu);
    *idle_ns = *idle_ns * 2 > WRITER_IDLE_MAX_NS ? WRITER_IDLE_MAX_NS : *idle_ns * 2;
}

static void finish_summary(struct pp_cap *c)
{
    struct pp_cap_summary *s = &c->summary;

    cap_stats_summary(c, s);
    s->written = atomic_load(&c->n_written);
    s->bytes = atomic_load(&c->n_bytes);
    if (c->link_dead) {
        s->stop = PP_CAP_STOP_LINK;
        snprintf(s->stop_msg, sizeof(s->stop_msg), "%s", c->link_msg);
    } else if (atomic_load(&c->sink_failed)) {
        s->stop = PP_CAP_STOP_SINK;
        snprintf(s->stop_msg, sizeof(s->stop_msg), "%s", c->sink_msg);
    } else if (atomic_load(&c->stop) && !atomic_load(&c->finish)) {
        s->stop = PP_CAP_STOP_SIGNAL;
    } else {
        s->stop = PP_CAP_STOP_DONE;
    }
}

/* Takes records off the ring until the sampler is done and the ring is
 * empty.  After a failed write the rest is taken and discarded, so a
 * blocked sampler is never stuck behind a dead output. */
static void drain(struct pp_cap *c)
{
    uint64_t idle_ns = WRITER_IDLE_MIN_NS;

    for (;;) {
        const struct pp_cap_sample *r = pp_ring_peek(c->ring);

        if (!r) {
            if (atomic_load_explicit(&c->sampler_done, memory_order_acquire) &&
                !pp_ring_peek(c->ring))
                return;
            writer_idle(c, &idle_ns);
            continue;
        }
        idle_ns = WRITER_IDLE_MIN_NS;
        if (!atomic_load(&c->sink_failed)) {
            if (c->out->write(c->out->ctx, r) == PP_OK)
                atomic_fetch_add_explicit(&c->n_written, 1, memory_order_relaxed);
            else
                sink_failed(c, "the output failed");
            note_bytes(c);
        }
        pp_ring_release(c->ring);
    }
}

void *cap_writer_main(void *arg)
{
    struct pp_cap *c = arg;

    if (c->out->begin(c->out->ctx, &c->meta) != PP_OK)
        sink_failed(c, "the output could not be started");
    note_bytes(c);
    drain(c);
    finish_summary(c);
    if (c->out->end(c->out->ctx, &c->summary) != PP_OK && !atomic_load(&c->sink_failed)) {
        sink_failed(c, "the output could not be completed");
        c->summary.stop = PP_CAP_STOP_SINK;
        snprintf(c->summary.stop_msg, sizeof(c->summary.stop_msg), "%s", c->sink_msg);
    }
    note_bytes(c);
    c->summary.bytes = atomic_load(&c->n_bytes);
    atomic_store_explicit(&c->writer_done, true, memory_order_release);
    return NULL;
}

/* ---- waiting, stopping ---------------------------------------------------------------- */

void pp_cap_stop(struct pp_cap *c)
{
    atomic_store(&c->stop, true);
}

void pp_cap_finish(struct pp_cap *c)
{
    atomic_store(&c->finish, true);
    atomic_store(&c->stop, true);
}

bool pp_cap_wait(struct pp_cap *c, uint64_t timeout_ns)
{
    uint64_t t0 = pp_mono_ns();

    if (!c->started || c->joined)
        return true;
    /* With no timeout the joins below wait: polling would add up to
     * WAIT_POLL_NS to the end of every capture. */
    while (timeout_ns != UINT64_MAX &&
           !atomic_load_explicit(&c->writer_done, memory_order_acquire)) {
        uint64_t now = pp_mono_ns();
        struct timespec ts = { 0, (long)WAIT_POLL_NS };

        if (now - t0 >= timeout_ns)
            return false;
        if (timeout_ns - (now - t0) < WAIT_POLL_NS)
            ts.tv_nsec = (long)(timeout_ns - (now - t0));
        nanosleep(&ts, NULL);
    }
    pthread_join(c->sampler, NULL);
    pthread_join(c->writer, NULL);
    c->joined = true;
    return true;
}

int pp_cap_run(struct pp_cap *c, const struct pp_cap_out *out)
{
    int rc = pp_cap_start(c, out);

    if (rc != PP_OK)
        return rc;
    pp_cap_wait(c, UINT64_MAX);
    return PP_OK;
}

void pp_cap_progress(const struct pp_cap *c, struct pp_cap_progress *p)
{
    struct pp_cap *m = (struct pp_cap *)c;   /* atomics are read, not changed */

    p->samples = atomic_load_explicit(&m->n_samples, memory_order_relaxed);
    p->written = atomic_load_explicit(&m->n_written, memory_order_relaxed);
    p->late = atomic_load_explicit(&m->n_late, memory_order_relaxed);
    p->dropped = atomic_load_explicit(&m->n_dropped, memory_order_relaxed);
    p->gap_samples = atomic_load_explicit(&m->n_gaps, memory_order_relaxed);
    p->bytes = atomic_load_explicit(&m->n_bytes, memory_order_relaxed);
    p->elapsed_ns = c->started ? pp_mono_ns() - c->t0 : 0;
    p->done = atomic_load_explicit(&m->writer_done, memory_order_acquire);
}

const struct pp_cap_summary *pp_cap_summary(const struct pp_cap *c)
{
    return &c->summary;
}

const struct pp_diag *pp_cap_core_diag(const struct pp_cap *c, unsigned k, uint64_t *episodes)
{
    if (k >= c->meta.ncores)
        return NULL;
    if (episodes)
        *episodes = c->core[k].episodes;
    return &c->core[k].diag;
}

/* ---- the end ------------------------------------------------------------------------------ */

void pp_cap_release(struct pp_cap *c)
{
    if (c->released || (c->started && !c->joined))
        return;
    c->released = true;
    for (unsigned k = 0; k < c->meta.ncores; k++) {
        struct cap_core *cc = &c->core[k];
        struct pp_pmu_state st;
        unsigned ctl = PP_CTL_STOP;

        if ((!cc->programmed && !cc->taken) || c->link_dead)
            continue;
        if (pp_pmu_read_state(c->cfg.bus, cc->desc, &st) != PP_OK)
            continue;
        /* Taken by an agent that left our claim tags as they were (a
         * register write, on-target software): drop the tags, which are
         * ours, and leave the counters, which are not. */
        if (cc->taken) {
            if (st.claim_ok && st.live_ok && cc->live && (st.claim & PP_CLAIM_LIVE) == cc->live)
                (void)pp_pmu_control(c->cfg.bus, cc->desc, &st, PP_CTL_RELEASE);
            continue;
        }
        /* Taken since the last sample: the counters are someone else's. */
        if (st.claim_ok && st.live_ok && (st.claim & PP_CLAIM_LIVE) != cc->live)
            continue;
        if (st.claim_ok)
            ctl |= PP_CTL_RELEASE;
        (void)pp_pmu_control(c->cfg.bus, cc->desc, &st, ctl);
    }
}

void pp_cap_free(struct pp_cap *c)
{
    if (!c)
        return;
    if (c->started && !c->joined) {
        pp_cap_stop(c);
        pp_cap_wait(c, UINT64_MAX);
    }
    pp_ring_free(c->ring);
    free(c->rec);
    free(c->droprec);
    free(c->ops);
    free(c->rep_t);
    free(c->rep_win);
    pthread_cond_destroy(&c->done_cv);
    pthread_mutex_destroy(&c->done_mu);
    free(c);
}

bool pp_cap_policy_parse(const char *s, enum pp_cap_policy *out)
{
    if (strcasecmp(s, "block") == 0)
        *out = PP_CAP_POLICY_BLOCK;
    else if (strcasecmp(s, "drop") == 0)
        *out = PP_CAP_POLICY_DROP;
    else
        return false;
    return true;
}
