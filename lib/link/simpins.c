/*
 * simpins.c - the in-process link: every queued TCK is clocked into the
 * simulated TAP at once (the sim is in this process, so there is nothing
 * to gain by holding cycles back), and TDO lands in the caller's buffer
 * straight away.  The flush is where the accounting happens: one flush
 * that sampled TDO is one round trip, as on remote_bitbang or FTDI.
 *
 * Extra TAPs around the JTAG-DP are modelled here, not in the sim: they
 * only have an IR (capture 0b...01) and a one-bit BYPASS register, which
 * is all a multi-TAP chain needs to test IR padding and bypass bits.
 */
#include <stdio.h>
#include <stdlib.h>

#include "errmsg.h"
#include "link/jtag.h"
#include "link/simpins.h"

#define SIDE_MAX 8

/* A TAP that knows only BYPASS (IEEE 1149.1 8.4). */
struct bypass_tap {
    unsigned irlen;
    uint8_t state;            /* enum pp_tap_state */
    uint32_t ir_sr;
    bool dr;
};

struct simpins {
    struct pp_simjtag *dp;
    struct bypass_tap tdo_side[SIDE_MAX], tdi_side[SIDE_MAX];
    unsigned ntdo, ntdi;
    bool pending;             /* cycles since the last flush */
    bool sampled;             /* TDO sampled since the last flush */
    unsigned fail_in;         /* flushes until the link is lost, 0 = never */
    bool lost;
};

/* One rising edge; returns TDO as driven before it (changed on the last
 * falling edge: the shift register's bit 0 in Shift-xR, else 0). */
static bool bypass_cycle(struct bypass_tap *t, bool tms, bool tdi)
{
    bool out = false;

    if (t->state == PP_TAP_DRSHIFT)
        out = t->dr;
    else if (t->state == PP_TAP_IRSHIFT)
        out = t->ir_sr & 1u;
    switch (t->state) {
    case PP_TAP_DRCAPTURE:
        t->dr = false;
        break;
    case PP_TAP_DRSHIFT:
        t->dr = tdi;
        break;
    case PP_TAP_IRCAPTURE:
        t->ir_sr = 1u;
        break;
    case PP_TAP_IRSHIFT:
        t->ir_sr = (t->ir_sr >> 1) | ((uint32_t)tdi << (t->irlen - 1u));
        break;
    default:
        break;
    }
    t->state = (uint8_t)pp_tap_next((enum pp_tap_state)t->state, tms);
    return out;
}

/* One TCK through the whole chain, TDI side first: each TAP's input is
 * what its neighbour drove before this edge. */
static bool chain_cycle(struct simpins *p, bool tms, bool tdi)
{
    bool v = tdi;

    for (unsigned i = p->ntdi; i-- > 0;)
        v = bypass_cycle(&p->tdi_side[i], tms, v);
    v = pp_simjtag_cycle(p->dp, tms, v);
    for (unsigned i = p->ntdo; i-- > 0;)
        v = bypass_cycle(&p->tdo_side[i], tms, v);
    return v;
}

static int lost(struct pp_link *l)
{
    snprintf(l->errmsg, sizeof(l->errmsg), "simpins: link lost (injected by the test)");
    return PP_E_LINK;
}

static int simpins_tms(struct pp_link *l, const uint8_t *tms, unsigned n, bool tdi)
{
    struct simpins *p = l->priv;

    if (p->lost)
        return lost(l);
    for (unsigned i = 0; i < n; i++)
        chain_cycle(p, pp_bit_get(tms, i), tdi);
    l->stats.tck += n;
    p->pending |= n > 0;
    return PP_OK;
}

static int simpins_shift(struct pp_link *l, const uint8_t *tdi, uint8_t *tdo, unsigned n,
                         bool last_tms)
{
    struct simpins *p = l->priv;

    if (p->lost)
        return lost(l);
    for (unsigned i = 0; i < n; i++) {
        bool out = chain_cycle(p, last_tms && i == n - 1, tdi && pp_bit_get(tdi, i));

        if (tdo)
            pp_bit_put(tdo, i, out);
    }
    l->stats.tck += n;
    p->pending |= n > 0;
    p->sampled |= tdo && n;
    return PP_OK;
}

static int simpins_flush(struct pp_link *l)
{
    struct simpins *p = l->priv;

    if (p->lost)
        return lost(l);
    if (p->fail_in && --p->fail_in == 0) {
        p->lost = true;
        return lost(l);
    }
    if (p->pending)
        l->stats.flushes++;
    if (p->sampled)
        l->stats.round_trips++;
    p->pending = p->sampled = false;
    return PP_OK;
}

static int simpins_reset(struct pp_link *l, bool trst, bool srst)
{
    struct simpins *p = l->priv;

    if (p->lost)
        return lost(l);
    pp_simjtag_reset(p->dp, trst, srst);
    for (unsigned i = 0; trst && i < p->ntdo; i++)
        p->tdo_side[i].state = PP_TAP_RESET;
    for (unsigned i = 0; trst && i < p->ntdi; i++)
        p->tdi_side[i].state = PP_TAP_RESET;
    return PP_OK;
}

static void simpins_close(struct pp_link *l)
{
    free(l->priv);
}

static const struct pp_link_ops simpins_ops = {
    .name = "simpins",
    .tms = simpins_tms,
    .shift = simpins_shift,
    .flush = simpins_flush,
    .reset = simpins_reset,
    .set_speed = NULL,
    .close = simpins_close,
};

static bool fill_side(struct bypass_tap *dst, const unsigned *irlen, unsigned n,
                      const char *side, char *err, size_t errlen)
{
    if (n > SIDE_MAX) {
        pp_errmsg(err, errlen, "simpins: %u extra TAPs on the %s side, at most %d", n, side,
                  SIDE_MAX);
        return false;
    }
    for (unsigned i = 0; i < n; i++) {
        if (irlen[i] < 2 || irlen[i] > PP_JTAG_MAX_IRLEN) {
            pp_errmsg(err, errlen, "simpins: IR length %u of extra TAP %u (%s side): "
                      "expected 2 to %d", irlen[i], i, side, PP_JTAG_MAX_IRLEN);
            return false;
        }
        dst[i] = (struct bypass_tap){ .irlen = irlen[i], .state = PP_TAP_RESET };
    }
    return true;
}

struct pp_link *pp_link_simpins_new(struct pp_simjtag *j, const unsigned *tdo_side,
                                    unsigned ntdo, const unsigned *tdi_side, unsigned ntdi,
                                    char *err, size_t errlen)
{
    struct pp_link *l;
    struct simpins *p;

    if (!j) {
        pp_errmsg(err, errlen, "simpins: no simulated TAP");
        return NULL;
    }
    l = calloc(1, sizeof(*l));
    p = calloc(1, sizeof(*p));
    if (!l || !p) {
        free(l);
        free(p);
        pp_errmsg(err, errlen, "simpins: out of memory");
        return NULL;
    }
    if (!fill_side(p->tdo_side, tdo_side, ntdo, "TDO", err, errlen) ||
        !fill_side(p->tdi_side, tdi_side, ntdi, "TDI", err, errlen)) {
        free(l);
        free(p);
        return NULL;
    }
    p->dp = j;
    p->ntdo = ntdo;
    p->ntdi = ntdi;
    l->ops = &simpins_ops;
    l->priv = p;
    return l;
}

void pp_link_simpins_fail_after(struct pp_link *l, unsigned nflushes)
{
    struct simpins *p = l->priv;

    p->fail_in = nflushes;
}
