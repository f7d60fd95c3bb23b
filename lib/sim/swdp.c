/*
 * swdp.c - the simulated SW-DP: the serial wire front end of the DP/AP
 * model in dap.c, and the SWJ-DP's switch between JTAG and SWD.  What it
 * does and does not model is in swdp.h; the cycle-by-cycle layout of a
 * packet (swd 4.2, with T = 1), counted in rising SWCLK edges from the
 * request's Start bit:
 *
 *   read:  c0-c7 request | c8 turnaround | c9-c11 ACK | c12-c43 data,
 *          c44 parity | c45 turnaround
 *   write: c0-c7 request | c8 turnaround | c9-c11 ACK | c12 turnaround |
 *          c13-c44 data, c45 parity
 *
 * The target decides the ACK on the turnaround edge c8 and drives each
 * bit from the edge before the one that samples it.  An AP read is made
 * at c8 (its result goes to RDBUFF), an AP or DP write once its data and
 * parity are in (c45).
 */
#include "sim/jtag_internal.h"
#include "sim/sim_internal.h"
#include "sim/swdp.h"

#define SW_ACK_OK    0x1u         /* spec 7.5 */
#define SW_ACK_WAIT  0x2u
#define SW_ACK_FAULT 0x4u

#define SW_LINE_RESET 50u         /* host clocks with SWDIO high (swd 4.4) */
#define SW_JTAG_TO_SWD 0xE79Eu    /* the 16-bit select sequences, LSB first */
#define SW_SWD_TO_JTAG 0xE73Cu
#define SW_DATA_BITS 33u          /* 32 data + parity */

/* Request fields (swd 4.1). */
#define RQ_APNDP(r)  (((r) >> 1) & 1u)
#define RQ_RNW(r)    (((r) >> 2) & 1u)
#define RQ_A(r)      ((((r) >> 3) & 3u) << 2)
#define RQ_PARITY(r) (((r) >> 5) & 1u)
#define RQ_STOP(r)   (((r) >> 6) & 1u)
#define RQ_PARK(r)   (((r) >> 7) & 1u)

#define TARGETSEL_MASK 0x0FFFFFFFu  /* TARGETSEL = TINSTANCE << 28 | TARGETID[27:0] */

static unsigned parity32(uint32_t v)
{
    v ^= v >> 16;
    v ^= v >> 8;
    v ^= v >> 4;
    v ^= v >> 2;
    v ^= v >> 1;
    return v & 1u;
}

void sw_init(struct pp_simjtag *j)
{
    j->kind = (uint8_t)pp_sim_target(j->sim)->dp_kind;
    j->swd = j->kind == PP_DP_SWD;
    j->sw.link = SW_LOCKOUT;        /* the host starts with a line reset */
    j->sw.phase = SW_IDLE;
}

bool pp_simswd_active(const struct pp_simjtag *j)
{
    return j->swd;
}

void pp_simswd_set_swdio_pin(struct pp_simjtag *j, enum pp_swdio_pin pin)
{
    j->sw.on_tdi = pin == PP_SWDIO_ON_TDI;
}

bool sw_line_out(const struct pp_simjtag *j)
{
    return !(j->swd && j->sw.drive) || j->sw.out;
}

static void go_idle(struct sim_swdp *s)
{
    s->drive = false;
    s->phase = SW_IDLE;
    s->nbit = 0;
}

static void lockout(struct pp_simjtag *j)
{
    j->sw.link = SW_LOCKOUT;
    j->st.swd_errors++;
    go_idle(&j->sw);
}

/* A line reset: DPBANKSEL = 0, Reset state (swd 4.5). */
static void line_reset(struct pp_simjtag *j)
{
    j->sw.link = SW_RESET;
    go_idle(&j->sw);
    j->sw.phase = SW_HIGH;
    j->dap.select &= ~0xFu;
    j->st.line_resets++;
}

static void switch_wire(struct pp_simjtag *j, bool swd)
{
    j->swd = swd;
    j->st.switches++;
    go_idle(&j->sw);
    j->sw.link = SW_LOCKOUT;        /* the sequence's trailing ones reset it */
    if (!swd)
        jt_tap_reset(j);
}

/* The SWJ-DP's select detector (swd 4.4): after >= 50 ones, the 16 bits
 * from the first 0.  True when the bit switched the wire. */
static bool detect(struct pp_simjtag *j, bool line)
{
    struct sim_swdp *s = &j->sw;

    if (s->ones >= SW_LINE_RESET) {
        s->armed = true;
        s->nseq = 0;
        s->seq = 0;
        return false;
    }
    if (!s->armed)
        return false;
    s->seq |= (uint16_t)((unsigned)line << s->nseq);
    if (++s->nseq < 16)
        return false;
    s->armed = false;
    if (s->seq == SW_JTAG_TO_SWD && !j->swd) {
        switch_wire(j, true);
        return true;
    }
    if (s->seq == SW_SWD_TO_JTAG && j->swd) {
        switch_wire(j, false);
        return true;
    }
    return false;
}

/* A level the host put on the line (the target not driving).  True when
 * it was used up by a switch or a line reset. */
static bool host_bit(struct pp_simjtag *j, bool line)
{
    struct sim_swdp *s = &j->sw;

    s->ones = line ? (s->ones < UINT32_MAX ? s->ones + 1u : s->ones) : 0;
    if (j->kind == PP_DP_SWJ && detect(j, line))
        return true;
    if (!j->swd || s->ones < SW_LINE_RESET)
        return false;
    if (s->ones == SW_LINE_RESET)
        line_reset(j);
    return true;
}

/* Sticky rules (swd 4.7): these three answer OK, never WAIT or FAULT. */
static bool always_ok(const struct pp_simjtag *j, uint8_t r)
{
    if (RQ_APNDP(r))
        return false;
    if (RQ_A(r) == SIM_DP_DPIDR)
        return true;                /* DPIDR read, ABORT write */
    return RQ_RNW(r) && RQ_A(r) == SIM_DP_CTRL && (j->dap.select & 0xFu) == 0;
}

static bool is_read_buffer(uint8_t r)
{
    return RQ_RNW(r) && (RQ_APNDP(r) || RQ_A(r) == SIM_DP_RDBUFF);
}

static uint8_t decide(struct pp_simjtag *j, uint8_t r)
{
    struct sim_dap *d = &j->dap;
    uint8_t ack = SW_ACK_OK;

    if (always_ok(j, r))
        return SW_ACK_OK;
    if (d->ctrl & SIM_CS_STICKY) {
        ack = SW_ACK_FAULT;
        if (d->ctrl & SIM_CS_ORUNDETECT)
            sim_dap_set_overrun(d);
    } else if (sim_dap_wait(d)) {
        ack = SW_ACK_WAIT;
    }
    if (ack != SW_ACK_OK && is_read_buffer(r))
        d->ctrl &= ~SIM_CS_READOK;
    return ack;
}

/* The data of a read that was ACKed OK. */
static uint32_t read_now(struct pp_simjtag *j, uint8_t r)
{
    struct sim_dap *d = &j->dap;
    uint32_t v = 0;

    if (RQ_APNDP(r)) {
        v = j->sw.rdbuf;            /* posted: the previous result */
        sim_dap_ap_read(d, RQ_A(r), &j->sw.rdbuf);
        d->ctrl |= SIM_CS_READOK;
        j->sw.resend = v;
        return v;
    }
    switch (RQ_A(r)) {
    case SIM_DP_SELECT:             /* RESEND on a SW-DP */
        j->st.dpacc++;
        return j->sw.resend;
    case SIM_DP_RDBUFF:
        j->st.dpacc++;
        d->ctrl |= SIM_CS_READOK;
        j->sw.resend = j->sw.rdbuf;
        return j->sw.rdbuf;
    default:
        sim_dap_dp_read(d, RQ_A(r), &v);
        return v;
    }
}

static void start_targetsel(struct pp_simjtag *j)
{
    struct sim_swdp *s = &j->sw;

    /* No ACK is driven: T, 3 ACK clocks and T float (swd 4.2). */
    s->targetsel = true;
    s->phase = SW_SKIP;
    s->left = 4;
    s->sr = 0;
}

/* The turnaround edge after a good request (c8). */
static void answer(struct pp_simjtag *j)
{
    struct sim_swdp *s = &j->sw;
    uint8_t r = s->req;
    uint32_t v;

    sim_poll_faults(j->sim);        /* timed DP faults fire between packets */
    if (!RQ_APNDP(r) && !RQ_RNW(r) && RQ_A(r) == SIM_DP_RDBUFF) {
        if (s->link != SW_RESET) {
            lockout(j);             /* TARGETSEL outside Reset (swd 4.5) */
            return;
        }
        start_targetsel(j);
        return;
    }
    if (s->link == SW_RESET) {
        if (RQ_APNDP(r) || !RQ_RNW(r) || RQ_A(r) != SIM_DP_DPIDR) {
            lockout(j);
            return;
        }
        s->link = SW_ACTIVE;
    }
    s->targetsel = false;
    s->ack = decide(j, r);
    if (s->ack == SW_ACK_OK && RQ_RNW(r)) {
        v = read_now(j, r);
        s->sr = v | ((uint64_t)parity32(v) << 32);
    }
    s->phase = SW_ACK;
    s->nbit = 0;
    s->drive = true;
    s->out = s->ack & 1u;
}

static void request_bit(struct pp_simjtag *j, bool line)
{
    struct sim_swdp *s = &j->sw;
    uint8_t r;

    s->req |= (uint8_t)((unsigned)line << s->nbit);
    if (++s->nbit < 8)
        return;
    r = s->req;
    if (r == 0xFFu) {               /* the line going high: not a request */
        s->phase = SW_HIGH;
        return;
    }
    if (RQ_STOP(r) || !RQ_PARK(r) ||
        RQ_PARITY(r) != parity32((uint32_t)(r >> 1) & 0xFu)) {
        lockout(j);                 /* protocol error: no ACK (swd 4.5) */
        return;
    }
    s->phase = SW_TRN_ACK;
}

static void ack_done(struct pp_simjtag *j)
{
    struct sim_swdp *s = &j->sw;

    if (s->ack == SW_ACK_OK && RQ_RNW(s->req)) {
        s->phase = SW_RDATA;
        s->nbit = 0;
        s->out = s->sr & 1u;
        return;
    }
    s->drive = false;
    s->phase = SW_TRN;
    s->nbit = 0;
    s->sr = 0;
    if (s->ack == SW_ACK_OK) {
        s->after = SW_WDATA;
    } else if (j->dap.ctrl & SIM_CS_ORUNDETECT) {
        s->after = SW_SKIP;         /* the data phase is still clocked (swd 4.8) */
        s->left = SW_DATA_BITS;
    } else {
        s->after = SW_IDLE;
    }
}

static void targetsel_done(struct pp_simjtag *j, uint32_t v, bool parity_ok)
{
    if (!parity_ok || (v >> 28) != 0 ||
        (v & TARGETSEL_MASK) != (j->dap.targetid & TARGETSEL_MASK)) {
        lockout(j);                 /* not us: deselected until a line reset */
        return;
    }
    go_idle(&j->sw);                /* selected: still in Reset (swd 4.5) */
}

static void write_done(struct pp_simjtag *j)
{
    struct sim_swdp *s = &j->sw;
    struct sim_dap *d = &j->dap;
    uint32_t v = (uint32_t)s->sr;
    bool parity_ok = ((s->sr >> 32) & 1u) == parity32(v);
    uint8_t r = s->req;

    if (s->targetsel) {
        targetsel_done(j, v, parity_ok);
        return;
    }
    go_idle(s);
    if (!parity_ok) {
        sim_dap_set_sticky(d, SIM_CS_WDATAERR);     /* write dropped (swd 4.7) */
        return;
    }
    if (RQ_APNDP(r)) {
        sim_dap_ap_write(d, RQ_A(r), v);
    } else if (RQ_A(r) == SIM_DP_DPIDR) {
        j->st.dpacc++;
        sim_dap_abort(d, v, true);
    } else {
        sim_dap_dp_write(d, RQ_A(r), v, false);
    }
}

/* One rising edge in SWD mode, the line reset and switches dealt with. */
static void step(struct pp_simjtag *j, bool line)
{
    struct sim_swdp *s = &j->sw;

    switch (s->phase) {
    case SW_IDLE:
        if (line && s->link != SW_LOCKOUT) {
            s->phase = SW_REQ;
            s->req = 1;
            s->nbit = 1;
        }
        break;
    case SW_HIGH:
        if (!line)
            s->phase = SW_IDLE;
        break;
    case SW_REQ:
        request_bit(j, line);
        break;
    case SW_TRN_ACK:
        answer(j);
        break;
    case SW_ACK:
        if (++s->nbit < 3)
            s->out = (s->ack >> s->nbit) & 1u;
        else
            ack_done(j);
        break;
    case SW_RDATA:
        if (++s->nbit < SW_DATA_BITS) {
            s->out = (s->sr >> s->nbit) & 1u;
        } else {
            s->drive = false;
            s->phase = SW_TRN;
            s->after = SW_IDLE;
        }
        break;
    case SW_TRN:
        s->phase = s->after;
        s->nbit = 0;
        break;
    case SW_WDATA:
        s->sr |= (uint64_t)line << s->nbit;
        if (++s->nbit == SW_DATA_BITS)
            write_done(j);
        break;
    case SW_SKIP:                   /* then a TARGETSEL's data, or idle */
        if (--s->left == 0) {
            s->phase = s->targetsel ? SW_WDATA : SW_IDLE;
            s->nbit = 0;
        }
        break;
    default:
        break;
    }
}

bool sw_edge(struct pp_simjtag *j, bool line)
{
    struct sim_swdp *s = &j->sw;
    bool was_swd = j->swd;

    if (!was_swd) {                 /* a SWJ-DP in JTAG mode: TMS watched */
        host_bit(j, line);
        return j->swd;
    }
    sim_dap_tick(&j->dap);
    if (s->drive)
        s->ones = 0;                /* the target's bits are not the host's */
    else if (host_bit(j, line))
        return j->swd;
    if (j->swd)
        step(j, line);
    return j->swd;
}

bool pp_simswd_cycle(struct pp_simjtag *j, bool drive, bool swdio)
{
    bool line;

    if (j->swd && j->sw.drive)
        line = j->sw.out;
    else
        line = drive ? swdio : true;
    jt_clock_rise(j, line, line);   /* SWDIO on TMS or on TDI: the same line */
    j->tck = true;
    return line;
}
