/*
 * swd_link.c - SWD over a JTAG link with SWDIO on TDI (through a resistor)
 * and TDO (swd_link.h).  Every SWD bit is one shift clock with TMS low;
 * the link queues them and its flush is the engine's flush, so a batch is
 * still one round trip.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "link/ftdi.h"
#include "link/swd_link.h"

#define CHUNK_BITS 512u

struct swd_link {
    struct pp_swd_wire w;     /* first: the ops see this */
    struct pp_link *l;
    bool switched;            /* an FTDI layout that switches SWDIO's driver */
    uint8_t ones[CHUNK_BITS / 8];   /* TDI while listening */
    char name[64];            /* w.name: the FTDI layout's wiring */
};

static struct swd_link *of(struct pp_swd_wire *w)
{
    return (struct swd_link *)w;
}

/* On a layout with an output enable, the host takes SWDIO (drive) or lets
 * go of it before the clocks that follow; queued, so still one round trip. */
static int own_line(struct swd_link *p, bool drive)
{
    return p->switched ? pp_link_ftdi_swdio(p->l, drive) : PP_OK;
}

static int seq_out(struct pp_swd_wire *w, const uint8_t *bits, unsigned n)
{
    int rc = own_line(of(w), true);

    return rc == PP_OK ? pp_link_shift(of(w)->l, bits, NULL, n, false) : rc;
}

/* Listening: SWDIO released where the layout can release it, else TDI
 * held high through the resistor, so only the target pulls the line low. */
static int seq_in(struct pp_swd_wire *w, uint8_t *in, unsigned n)
{
    int rc = own_line(of(w), false);

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

static const char *wire_errmsg(struct pp_swd_wire *w)
{
    return of(w)->l->errmsg;
}

static const struct pp_swd_wire_ops link_ops = {
    .name = "JTAG link, SWDIO on TDI/TDO",
    .seq_out = seq_out,
    .seq_in = seq_in,
    .flush = flush,
    .free = wire_free,
    .errmsg = wire_errmsg,
};

struct pp_swd_wire *pp_swd_link_wire_new(struct pp_link *l)
{
    struct swd_link *p = calloc(1, sizeof(*p));
    struct pp_ftdi_info fi;

    if (!p)
        return NULL;
    p->w.ops = &link_ops;
    p->l = l;
    /* PP_OK: an FTDI link whose layout has SWD wiring; SWD_EN and the
     * pins go out with the first batch (nothing for the resistor wiring).
     * Other links have nothing to switch. */
    p->switched = pp_link_ftdi_swdio(l, true) == PP_OK;
    memset(p->ones, 0xFF, sizeof(p->ones));
    if (pp_link_ftdi_info(l, &fi) == PP_OK) {
        snprintf(p->name, sizeof(p->name), "FTDI link, %s", pp_ftdi_swdio_wiring(fi.swdio));
        p->w.name = p->name;
    }
    return &p->w;
}
