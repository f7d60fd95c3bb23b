/*
 * jtag.c - the simulated SoC's TAP at pin level: the IEEE 1149.1 state
 * machine, the IR and DR shift paths, the pins, TRST/SRST and the
 * statistics.  What DPACC/APACC scans do is in jtag_dp.c.
 *
 * Timing, as IEEE 1149.1 has it: TMS and TDI are sampled on the rising
 * edge of TCK, which also moves the state machine and shifts the selected
 * register; TDO changes on the falling edge and is driven only in
 * Shift-IR/Shift-DR (else it reads 0, the level a remote_bitbang host
 * expects from an undriven TDO; spec/openocd.md 6).  Capture happens on
 * the rising edge that leaves Capture-xR, Update on entering Update-xR
 * (the standard's falling edge in that state; nothing can observe the
 * half period between).
 *
 * The hot path is one rising edge: a table lookup for the next state and
 * a switch on the old and on the new state, no allocation, no call into
 * the DP except at Capture-DR and Update-DR of DPACC/APACC/ABORT.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "errmsg.h"
#include "sim/jtag_internal.h"

/* next[state][tms] (IEEE 1149.1 figure 6-1). */
static const uint8_t next_state[JT_NSTATES][2] = {
    [JT_TLR]      = { JT_IDLE, JT_TLR },
    [JT_IDLE]     = { JT_IDLE, JT_SEL_DR },
    [JT_SEL_DR]   = { JT_CAP_DR, JT_SEL_IR },
    [JT_CAP_DR]   = { JT_SHIFT_DR, JT_EXIT1_DR },
    [JT_SHIFT_DR] = { JT_SHIFT_DR, JT_EXIT1_DR },
    [JT_EXIT1_DR] = { JT_PAUSE_DR, JT_UPD_DR },
    [JT_PAUSE_DR] = { JT_PAUSE_DR, JT_EXIT2_DR },
    [JT_EXIT2_DR] = { JT_SHIFT_DR, JT_UPD_DR },
    [JT_UPD_DR]   = { JT_IDLE, JT_SEL_DR },
    [JT_SEL_IR]   = { JT_CAP_IR, JT_TLR },
    [JT_CAP_IR]   = { JT_SHIFT_IR, JT_EXIT1_IR },
    [JT_SHIFT_IR] = { JT_SHIFT_IR, JT_EXIT1_IR },
    [JT_EXIT1_IR] = { JT_PAUSE_IR, JT_UPD_IR },
    [JT_PAUSE_IR] = { JT_PAUSE_IR, JT_EXIT2_IR },
    [JT_EXIT2_IR] = { JT_SHIFT_IR, JT_UPD_IR },
    [JT_UPD_IR]   = { JT_IDLE, JT_SEL_DR },
};

static bool is_acc(uint8_t ir)
{
    return ir == JT_IR_DPACC || ir == JT_IR_APACC || ir == JT_IR_ABORT;
}

/* Test-Logic-Reset selects IDCODE, or BYPASS in a TAP without one
 * (IEEE 1149.1 7.2.1, spec/openocd.md 6, spec/jtag-chains.md 3). */
void jt_tap_reset(struct pp_simjtag *j)
{
    j->state = JT_TLR;
    j->ir = JT_IR_IDCODE;
    for (unsigned i = 0; i < j->nx; i++)
        j->x[i].idsel = j->x[i].idcode != 0;
}

/* ---- the other TAPs of the chain ------------------------------------------ */

static void x_capture_dr(struct pp_simjtag *j)
{
    for (unsigned i = 0; i < j->nx; i++) {
        struct jt_xtap *x = &j->x[i];

        x->dr_sr = x->idsel ? x->idcode : 0;    /* BYPASS captures 0 */
        x->dr_len = x->idsel ? 32 : 1;
    }
}

static void x_capture_ir(struct pp_simjtag *j)
{
    for (unsigned i = 0; i < j->nx; i++)
        j->x[i].ir_sr = j->x[i].ircapture;
}

/* One shift of one register: in at the top, bit 0 out. */
static bool shift32(uint32_t *sr, unsigned len, bool in)
{
    bool out = *sr & 1u;

    *sr = (*sr >> 1) | ((uint32_t)in << (len - 1u));
    return out;
}

static bool shift_dap(struct pp_simjtag *j, bool ir, bool in)
{
    bool out;

    if (ir) {
        out = j->ir_sr & 1u;
        j->ir_sr = (uint8_t)((j->ir_sr >> 1) | ((unsigned)in << (JT_IR_LEN - 1u)));
    } else {
        out = j->dr_sr & 1u;
        j->dr_sr = (j->dr_sr >> 1) | ((uint64_t)in << (j->dr_len - 1u));
    }
    return out;
}

/* TDI enters position 0; what each register shifts out enters the next
 * one; the last position's bit 0 is on TDO (spec/jtag-chains.md 3). */
static void chain_shift(struct pp_simjtag *j, bool ir, bool tdi)
{
    bool b = tdi;

    for (unsigned p = 0; p <= j->nx; p++) {
        struct jt_xtap *x;

        if (p == j->dap_pos) {
            b = shift_dap(j, ir, b);
            continue;
        }
        /* Only now: for p == dap_pos == 0 the index would be -1. */
        x = &j->x[p < j->dap_pos ? p : p - 1u];
        b = ir ? shift32(&x->ir_sr, x->irlen, b) : shift32(&x->dr_sr, x->dr_len, b);
    }
}

static bool chain_tdo(const struct pp_simjtag *j, bool ir)
{
    const struct jt_xtap *x;

    if (j->dap_pos == j->nx)
        return ir ? (j->ir_sr & 1u) : (j->dr_sr & 1u);
    x = &j->x[j->nx - 1u];
    return (ir ? x->ir_sr : x->dr_sr) & 1u;
}

/* Capture-DR: parallel load of the register the IR selects (spec 7.1). */
static void capture_dr(struct pp_simjtag *j)
{
    if (is_acc(j->ir)) {
        j->dr_sr = jt_dp_capture(j);
        j->dr_len = JT_ACC_LEN;
    } else if (j->ir == JT_IR_IDCODE) {
        j->dr_sr = j->idcode;
        j->dr_len = 32;
    } else {
        j->dr_sr = 0;           /* BYPASS (and every unknown IR) captures 0 */
        j->dr_len = 1;
    }
}

static void update_dr(struct pp_simjtag *j)
{
    j->st.dr_scans++;
    if (is_acc(j->ir))
        jt_dp_update(j, j->dr_sr & ((1ull << JT_ACC_LEN) - 1u));
}

/* A rising edge on a SW-DP or SWJ-DP: SWDIO from TMS or, wired to TDI and
 * TDO (swdp.h), from TDI unless the target drives it.  True when SWD took
 * the edge; TDO then carries the line (or reads 0 with SWDIO on TMS). */
static bool swd_edge(struct pp_simjtag *j, bool tms, bool tdi)
{
    bool line = tms;

    if (j->sw.on_tdi)
        line = j->swd && j->sw.drive ? j->sw.out : tdi;
    if (!sw_edge(j, line))
        return false;
    j->tdo_next = j->sw.on_tdi && sw_line_out(j);
    return true;
}

/* One rising edge of TCK.  A SW-DP, or a SWJ-DP in SWD mode, takes the
 * edge with TMS as SWDIO (swdp.c); TDO is then not driven. */
void jt_clock_rise(struct pp_simjtag *j, bool tms, bool tdi)
{
    uint8_t old = j->state, now;

    j->st.tck++;
    if (j->kind != PP_DP_JTAG && swd_edge(j, tms, tdi))
        return;
    if (j->trst) {              /* TRST holds the TAP in Test-Logic-Reset */
        if (j->busy)
            j->busy--;
        return;
    }
    switch (old) {
    case JT_CAP_DR:
        capture_dr(j);
        x_capture_dr(j);
        break;
    case JT_SHIFT_DR:
        chain_shift(j, false, tdi);     /* a lone DAP: position 0 of 0 */
        break;
    case JT_CAP_IR:
        j->ir_sr = JT_IR_CAPTURE;
        x_capture_ir(j);
        break;
    case JT_SHIFT_IR:
        chain_shift(j, true, tdi);
        break;
    default:
        break;
    }
    /* The AP access in flight progresses by one TCK; a Capture-DR on this
     * edge has already seen the count before it (jtag_dp.c). */
    if (j->busy)
        j->busy--;
    now = next_state[old][tms];
    j->state = now;
    j->tdo_next = false;
    switch (now) {
    case JT_SHIFT_DR:
        j->tdo_next = chain_tdo(j, false);
        break;
    case JT_SHIFT_IR:
        j->tdo_next = chain_tdo(j, true);
        break;
    case JT_UPD_DR:
        update_dr(j);
        break;
    case JT_UPD_IR:
        j->ir = j->ir_sr & 0xFu;
        for (unsigned i = 0; i < j->nx; i++)
            j->x[i].idsel = false;
        j->st.ir_scans++;
        break;
    case JT_TLR:
        if (old != JT_TLR) {
            jt_tap_reset(j);
            j->st.resets++;
        }
        break;
    default:
        break;
    }
}

/* n bits through one register of len bits (len + n <= 64): the register
 * followed by the bits is one stream, the first n come out, the last len
 * stay.  The same as n calls of shift_dap/shift32. */
static uint64_t reg_shift(uint64_t *sr, unsigned len, uint64_t in, unsigned n)
{
    uint64_t stream = *sr | in << len;

    *sr = (stream >> n) & ((1ull << len) - 1u);
    return stream & ((1ull << n) - 1u);
}

static uint64_t chain_shift_n(struct pp_simjtag *j, bool ir, uint64_t b, unsigned n)
{
    for (unsigned p = 0; p <= j->nx; p++) {
        struct jt_xtap *x;
        uint64_t sr;

        if (p == j->dap_pos) {
            sr = ir ? j->ir_sr : j->dr_sr;
            b = reg_shift(&sr, ir ? JT_IR_LEN : j->dr_len, b, n);
            if (ir)
                j->ir_sr = (uint8_t)sr;
            else
                j->dr_sr = sr;
            continue;
        }
        x = &j->x[p < j->dap_pos ? p : p - 1u];
        sr = ir ? x->ir_sr : x->dr_sr;
        b = reg_shift(&sr, ir ? x->irlen : x->dr_len, b, n);
        if (ir)
            x->ir_sr = (uint32_t)sr;
        else
            x->dr_sr = (uint32_t)sr;
    }
    return b;
}

/* Whether n clocks with TMS low may go through the chain at once: in
 * Shift-DR or Shift-IR they only shift.  Not while TRST holds the TAP,
 * nor where the SW-DP side could take a bit: in SWD mode, or a SWJ-DP
 * armed for a select sequence or watching TDI (swdp.c detect).  A SWJ-DP
 * otherwise only counts the host's ones on TMS, which a low TMS clears. */
static bool shift_only(const struct pp_simjtag *j, bool tms, unsigned n)
{
    if (tms || j->trst || n > 24)
        return false;
    if (j->state != JT_SHIFT_DR && j->state != JT_SHIFT_IR)
        return false;
    return j->kind == PP_DP_JTAG || (!j->swd && !j->sw.armed && !j->sw.on_tdi);
}

uint32_t pp_simjtag_shift(struct pp_simjtag *j, bool tms, uint32_t tdi, unsigned n)
{
    bool ir = j->state == JT_SHIFT_IR;
    uint32_t tdo = 0;

    if (!n)
        return 0;
    if (!shift_only(j, tms, n)) {
        for (unsigned i = 0; i < n && i < 32; i++)
            tdo |= (uint32_t)pp_simjtag_cycle(j, tms, (tdi >> i) & 1u) << i;
        return tdo;
    }
    /* The last register's stream is what TDO showed before each edge. */
    tdo = (uint32_t)chain_shift_n(j, ir, tdi & ((1ull << n) - 1u), n);
    if (j->kind != PP_DP_JTAG)
        j->sw.ones = 0;
    j->st.tck += n;
    j->busy = j->busy > n ? j->busy - n : 0;
    j->tdo = (tdo >> (n - 1u)) & 1u;
    j->tdo_next = chain_tdo(j, ir);
    j->tck = true;
    return tdo;
}

/* The target's jtag.chain (tap[0] nearest TDO; lib/target checked that
 * every TAP but the DAP has irlen and idcode) in TDI-to-TDO positions. */
static void build_chain(struct pp_simjtag *j, const struct pp_jtag_chain *c)
{
    unsigned dap = pp_jtag_chain_dap(c);

    if (!c->n || dap == c->n)
        return;
    j->dap_pos = c->n - 1u - dap;
    for (unsigned p = 0; p < c->n; p++) {
        const struct pp_jtag_chain_tap *t = &c->tap[c->n - 1u - p];
        struct jt_xtap *x;

        if (t->dap)
            continue;
        x = &j->x[j->nx++];
        x->idcode = t->no_idcode ? 0 : t->ids[0];
        x->irlen = (uint8_t)t->irlen;
        x->ircapture = t->ircapture_set ? t->ircapture : 1u;
    }
}

struct pp_simjtag *pp_simjtag_new(struct pp_sim *sim, char *err, size_t errlen)
{
    struct pp_simjtag *j;

    if (!sim) {
        if (err && errlen)
            pp_errmsg(err, errlen, "simjtag: no simulated SoC");
        return NULL;
    }
    if (pp_sim_target(sim)->ap_index > 0xFFu) {
        if (err && errlen)
            pp_errmsg(err, errlen, "simjtag: AP index %u does not fit APSEL (0-255)",
                      pp_sim_target(sim)->ap_index);
        return NULL;
    }
    j = calloc(1, sizeof(*j));
    if (!j) {
        if (err && errlen)
            pp_errmsg(err, errlen, "simjtag: out of memory");
        return NULL;
    }
    j->sim = sim;
    build_chain(j, &pp_sim_target(sim)->jtag);
    jt_tap_reset(j);
    jt_dp_init(j);
    sw_init(j);
    return j;
}

void pp_simjtag_free(struct pp_simjtag *j)
{
    if (j)
        jt_dp_detach(j);
    free(j);
}

struct pp_sim *pp_simjtag_sim(struct pp_simjtag *j)
{
    return j->sim;
}

void pp_simjtag_pins(struct pp_simjtag *j, bool tck, bool tms, bool tdi)
{
    if (tck && !j->tck)
        jt_clock_rise(j, tms, tdi);
    else if (!tck && j->tck)
        j->tdo = j->tdo_next;   /* TDO changes on the falling edge */
    j->tck = tck;
}

bool pp_simjtag_tdo(const struct pp_simjtag *j)
{
    return j->tdo;
}

/* pins(0, tms, tdi); tdo(); pins(1, tms, tdi) without the edge tests:
 * with TCK low TDO already equals tdo_next (only a rising edge changes
 * tdo_next, and TRST clears both). */
bool pp_simjtag_cycle(struct pp_simjtag *j, bool tms, bool tdi)
{
    bool tdo = j->tdo_next;

    j->tdo = tdo;
    jt_clock_rise(j, tms, tdi);
    j->tck = true;
    return tdo;
}

void pp_simjtag_reset(struct pp_simjtag *j, bool trst, bool srst)
{
    if (trst) {
        if (!j->trst)
            j->st.resets++;
        jt_tap_reset(j);
        j->tdo = j->tdo_next = false;
    }
    if (srst && !j->srst)
        j->st.srst++;
    if (srst != j->srst)
        jt_srst(j, srst);
    j->trst = trst;
    j->srst = srst;
}

void pp_simjtag_set_wait(struct pp_simjtag *j, unsigned n)
{
    j->wait_n = n;
}

void pp_simjtag_set_apb_tck(struct pp_simjtag *j, unsigned tck)
{
    j->apb_tck = tck;
}

void pp_simjtag_set_read_hook(struct pp_simjtag *j, pp_simjtag_read_fn fn, void *arg)
{
    j->on_read = fn;
    j->on_read_arg = arg;
}

void pp_simjtag_get_stats(const struct pp_simjtag *j, struct pp_simjtag_stats *out)
{
    *out = j->st;
}

void pp_simjtag_reset_stats(struct pp_simjtag *j)
{
    memset(&j->st, 0, sizeof(j->st));
}
