/*
 * swd_link.c - SWD over a JTAG link with SWDIO on TDI (through a resistor)
 * and TDO (swd_link.h).  Every SWD bit is one shift clock with TMS low;
 * the link queues them and its flush is the engine's flush, so a batch is
 * still one round trip.
 */
#include <stdlib.h>
#include <string.h>

#include "link/swd_link.h"

#define CHUNK_BITS 512u

struct swd_link {
    struct pp_swd_wire w;     /* first: the ops see this */
    struct pp_link *l;
    uint8_t ones[CHUNK_BITS / 8];   /* TDI while listening */
};

static struct swd_link *of(struct pp_swd_wire *w)
{
    return (struct swd_link *)w;
}

static int seq_out(struct pp_swd_wire *w, const uint8_t *bits, unsigned n)
{
    return pp_link_shift(of(w)->l, bits, NULL, n, false);
}

/* Listening: TDI held high, so only the target can pull the line low. */
static int seq_in(struct pp_swd_wire *w, uint8_t *in, unsigned n)
{
    int rc = PP_OK;

    for (unsigned done = 0; done < n && rc == PP_OK; done += CHUNK_BITS) {
        unsigned k = n - done < CHUNK_BITS ? n - done : CHUNK_BITS;

        rc = pp_link_shift(of(w)->l, of(w)->ones, in + done / 8, k, false);
    }
    return rc;
}

static int flush(struct pp_swd_wire *w)
{
    return pp_link_flush(of(w)->l);
}

static void wire_free(struct pp_swd_wire *w)
{
    free(w);
}

static const struct pp_swd_wire_ops link_ops = {
    .name = "JTAG link, SWDIO on TDI/TDO",
    .seq_out = seq_out,
    .seq_in = seq_in,
    .flush = flush,
    .free = wire_free,
};

struct pp_swd_wire *pp_swd_link_wire_new(struct pp_link *l)
{
    struct swd_link *p = calloc(1, sizeof(*p));

    if (!p)
        return NULL;
    p->w.ops = &link_ops;
    p->l = l;
    memset(p->ones, 0xFF, sizeof(p->ones));
    return &p->w;
}
