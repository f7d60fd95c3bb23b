/*
 * cmsisdap_seq.c - the cmsis-dap link's JTAG primitives as
 * DAP_JTAG_Sequence packets (spec/cmsis-dap-swd.md 2.2): a sequence is up
 * to 64 TCKs at one TMS level, its TDI bytes always sent, its TDO bytes
 * returned when bit 7 of its info byte asks.  Sequences fill packets up to
 * Packet Size (request and reply) and 255 sequences; a flush sends every
 * packet with Packet Count in flight.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "errmsg.h"
#include "link/cmsisdap_internal.h"
#include "link/jtag.h"

#define ID_JTAG_SEQUENCE 0x14u
#define SEQ_MAX_BITS     64u
#define SEQ_MAX          255u

static size_t psize(const struct pp_cmsisdap *d)
{
    return d->info.packet_size;
}

static uint8_t *pkt(struct pp_cmsisdap *d, size_t k)
{
    return d->pk + k * psize(d);
}

static bool grow_packets(struct pp_cmsisdap *d)
{
    size_t cap = d->cappk ? d->cappk * 2 : 8, sz = psize(d);
    uint8_t *pk = realloc(d->pk, cap * sz), *rsp;

    if (!pk)
        return false;
    d->pk = pk;
    if (!(rsp = realloc(d->rsp, cap * sz)))
        return false;
    d->rsp = rsp;
    size_t *a = realloc(d->pklen, cap * sizeof(*a));

    if (!a)
        return false;
    d->pklen = a;
    if (!(a = realloc(d->rsplen, cap * sizeof(*a))))
        return false;
    d->rsplen = a;
    unsigned *ns = realloc(d->pknseq, cap * sizeof(*ns));

    if (!ns)
        return false;
    d->pknseq = ns;
    struct pp_cmsisdap_pkt *run = realloc(d->run, cap * sizeof(*run));

    if (!run)
        return false;
    d->run = run;
    d->cappk = cap;
    return true;
}

/* The packet a sequence of nbytes TDI (and as many TDO when captured)
 * goes in: the last one when it fits, else a new one. */
static int packet_for(struct pp_cmsisdap *d, unsigned nbytes, bool capture, size_t *k)
{
    if (d->npk) {
        size_t last = d->npk - 1;

        if (d->pknseq[last] < SEQ_MAX && d->pklen[last] + 1 + nbytes <= psize(d) - 1 &&
            (!capture || d->rsplen[last] + nbytes <= psize(d) - 1)) {
            *k = last;
            return PP_OK;
        }
    }
    if (d->npk == d->cappk && !grow_packets(d))
        return PP_E_NOMEM;
    *k = d->npk++;
    pkt(d, *k)[0] = ID_JTAG_SEQUENCE;
    d->pklen[*k] = 2;
    d->rsplen[*k] = 2;            /* command, status */
    d->pknseq[*k] = 0;
    return PP_OK;
}

/* One sequence of n (1..64) TCKs at level tms; TDI bits from tdi at bit
 * offset at (NULL: all level tdi_fill); TDO to tdo at tdo_bit if wanted. */
static int add_seq(struct pp_cmsisdap *d, bool tms, const uint8_t *tdi, unsigned at,
                   bool tdi_fill, unsigned n, uint8_t *tdo, unsigned tdo_bit)
{
    unsigned nbytes = (n + 7) / 8;
    size_t k;
    int rc = packet_for(d, nbytes, tdo != NULL, &k);
    uint8_t *p;

    if (rc != PP_OK)
        return rc;
    p = pkt(d, k) + d->pklen[k];
    p[0] = (uint8_t)((n & 0x3Fu) | (tms ? 0x40u : 0) | (tdo ? 0x80u : 0));
    memset(p + 1, 0, nbytes);
    for (unsigned i = 0; i < n; i++)
        if (tdi ? pp_bit_get(tdi, at + i) : tdi_fill)
            p[1 + i / 8] |= (uint8_t)(1u << (i % 8));
    if (tdo) {
        if (d->ncap == d->capcap) {
            size_t cap = d->capcap ? d->capcap * 2 : 32;
            struct pp_cmsisdap_capture *c = realloc(d->cap, cap * sizeof(*c));

            if (!c)
                return PP_E_NOMEM;
            d->cap = c;
            d->capcap = cap;
        }
        d->cap[d->ncap++] = (struct pp_cmsisdap_capture){ tdo, tdo_bit, n, k, d->rsplen[k] };
        d->rsplen[k] += nbytes;
    }
    d->pklen[k] += 1 + nbytes;
    d->pknseq[k]++;
    d->link->stats.tck += n;
    return PP_OK;
}

int pp_cmsisdap_seq_tms(struct pp_link *l, const uint8_t *tms, unsigned n, bool tdi)
{
    struct pp_cmsisdap *d = l->priv;
    int rc = PP_OK;

    /* Runs of one TMS level, each a sequence. */
    for (unsigned i = 0; i < n && rc == PP_OK;) {
        bool level = pp_bit_get(tms, i);
        unsigned run = 1;

        while (i + run < n && run < SEQ_MAX_BITS && pp_bit_get(tms, i + run) == level)
            run++;
        rc = add_seq(d, level, NULL, 0, tdi, run, NULL, 0);
        i += run;
    }
    return rc;
}

int pp_cmsisdap_seq_shift(struct pp_link *l, const uint8_t *tdi, uint8_t *tdo, unsigned n,
                          bool last_tms)
{
    struct pp_cmsisdap *d = l->priv;
    unsigned body = last_tms ? n - 1 : n;
    int rc = PP_OK;

    if (tdo)
        memset(tdo, 0, (n + 7) / 8);
    for (unsigned i = 0; i < body && rc == PP_OK; i += SEQ_MAX_BITS) {
        unsigned k = body - i < SEQ_MAX_BITS ? body - i : SEQ_MAX_BITS;

        rc = add_seq(d, false, tdi, i, false, k, tdo, i);
    }
    if (rc == PP_OK && last_tms && n)
        rc = add_seq(d, true, tdi, n - 1, false, 1, tdo, n - 1);
    return rc;
}

static void reset_queue(struct pp_cmsisdap *d)
{
    d->npk = 0;
    d->ncap = 0;
}

/* Copies each captured sequence's TDO bits where its caller wanted them. */
static int deliver(struct pp_cmsisdap *d)
{
    for (size_t k = 0; k < d->npk; k++) {
        if (d->run[k].ilen < d->rsplen[k] || d->rsp[k * psize(d) + 1] != 0) {
            snprintf(d->link->errmsg, sizeof(d->link->errmsg), "cmsis-dap: DAP_JTAG_Sequence "
                     "answered status 0x%02X with %zu of %zu bytes",
                     d->run[k].ilen > 1 ? d->rsp[k * psize(d) + 1] : 0, d->run[k].ilen,
                     d->rsplen[k]);
            return PP_E_PROTO;
        }
    }
    for (size_t c = 0; c < d->ncap; c++) {
        const struct pp_cmsisdap_capture *cp = &d->cap[c];
        const uint8_t *src = d->rsp + cp->pkt * psize(d) + cp->rsp_off;

        for (unsigned i = 0; i < cp->nbits; i++)
            pp_bit_put(cp->tdo, cp->tdo_bit + i, pp_bit_get(src, i));
    }
    return PP_OK;
}

int pp_cmsisdap_seq_flush(struct pp_link *l)
{
    struct pp_cmsisdap *d = l->priv;
    int rc;

    if (!d->npk)
        return PP_OK;
    for (size_t k = 0; k < d->npk; k++) {
        pkt(d, k)[1] = (uint8_t)d->pknseq[k];
        d->run[k] = (struct pp_cmsisdap_pkt){ .out = pkt(d, k), .olen = d->pklen[k],
                                              .in = d->rsp + k * psize(d) };
    }
    rc = pp_cmsisdap_run(d, d->run, d->npk);
    if (rc == PP_OK)
        rc = deliver(d);
    reset_queue(d);
    return rc;
}

void pp_cmsisdap_seq_free(struct pp_cmsisdap *d)
{
    free(d->pk);
    free(d->rsp);
    free(d->pklen);
    free(d->rsplen);
    free(d->pknseq);
    free(d->cap);
    free(d->run);
}
