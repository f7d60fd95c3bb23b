/*
 * swd_simpins.c - the SWD wire over the in-process sim's SWCLK/SWDIO
 * (swd_simpins.h).  The host drives SWDIO in seq_out and releases it in
 * seq_in, which samples the line with SWCLK low, before the rising edge,
 * as a probe does (spec/cmsis-dap-swd.md 4.2).
 */
#include <stdlib.h>

#include "link/swd_simpins.h"
#include "sim/swdp.h"

struct swd_simpins {
    struct pp_swd_wire w;     /* first: the ops see this */
    struct pp_simjtag *j;
    unsigned fail_in;         /* flushes until the wire is lost, 0 = never */
    bool lost;
};

static struct swd_simpins *of(struct pp_swd_wire *w)
{
    return (struct swd_simpins *)w;
}

static int seq_out(struct pp_swd_wire *w, const uint8_t *bits, unsigned n)
{
    struct swd_simpins *p = of(w);

    if (p->lost)
        return PP_E_LINK;
    for (unsigned i = 0; i < n; i++)
        pp_simswd_cycle(p->j, true, (bits[i / 8] >> (i % 8)) & 1u);
    return PP_OK;
}

static int seq_in(struct pp_swd_wire *w, uint8_t *in, unsigned n)
{
    struct swd_simpins *p = of(w);

    if (p->lost)
        return PP_E_LINK;
    for (unsigned i = 0; i < n; i++) {
        uint8_t bit = (uint8_t)(1u << (i % 8));

        if (pp_simswd_cycle(p->j, false, false))
            in[i / 8] |= bit;
        else
            in[i / 8] &= (uint8_t)~bit;
    }
    return PP_OK;
}

static int flush(struct pp_swd_wire *w)
{
    struct swd_simpins *p = of(w);

    if (p->fail_in && --p->fail_in == 0)
        p->lost = true;
    return p->lost ? PP_E_LINK : PP_OK;
}

static void wire_free(struct pp_swd_wire *w)
{
    free(w);
}

static const struct pp_swd_wire_ops simpins_ops = {
    .name = "sim pins",
    .seq_out = seq_out,
    .seq_in = seq_in,
    .flush = flush,
    .free = wire_free,
};

struct pp_swd_wire *pp_swd_simpins_new(struct pp_simjtag *j)
{
    struct swd_simpins *p = calloc(1, sizeof(*p));

    if (!p)
        return NULL;
    p->w.ops = &simpins_ops;
    p->j = j;
    return &p->w;
}

void pp_swd_simpins_fail_after(struct pp_swd_wire *w, unsigned nflushes)
{
    of(w)->fail_in = nflushes;
}
