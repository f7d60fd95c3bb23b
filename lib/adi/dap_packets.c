/*
 * dap_packets.c - DAP_Transfer / DAP_TransferBlock packets (dap_packets.h).
 */
#include "adi/dap_packets.h"

/* How many requests from k on are the same read (a TransferBlock run).
 * A timestamped read never is: TransferBlock has no timestamp bit (2.5). */
static size_t same_reads(const struct pp_dap_req *r, size_t nr, size_t k, size_t max)
{
    size_t n = 1;

    if (!(r[k].req & PP_DAP_RNW) || (r[k].req & PP_DAP_TIMESTAMP))
        return 0;
    while (k + n < nr && n < max && r[k + n].req == r[k].req)
        n++;
    return n;
}

/* The DAP_Transfer that starts at k: as many requests as fit (a
 * timestamp adds 4 reply bytes, spec 2.4). */
static size_t transfer_run(const struct pp_dap_req *r, size_t nr, size_t k, size_t size,
                           size_t block_max)
{
    size_t n = 0, olen = 3, ilen = 3;

    while (k + n < nr && n < 255) {
        uint8_t q = r[k + n].req;
        size_t o = q & PP_DAP_RNW ? 1 : 5;
        size_t i = (q & PP_DAP_RNW ? 4 : 0) + (q & PP_DAP_TIMESTAMP ? 4 : 0);

        if (olen + o > size - 1 || ilen + i > size - 1 ||
            (n && same_reads(r, nr, k + n, block_max) >= block_max))
            break;
        olen += o;
        ilen += i;
        n++;
    }
    return n;
}

/*
 * The reply bounds both commands alike (4 bytes a read), so a
 * TransferBlock never holds more reads than a Transfer of the same packet
 * size ((size - 5) / 4 against (size - 4) / 4 here): it saves request
 * bytes only.  Cutting a sample's DAP_Transfer around each short run of
 * one read, as was done for runs of 4 or more, cost a packet per run
 * (4 cores x 7 counters: 6 packets a sample where 1 holds it).  So a run
 * goes as a TransferBlock only when it fills a whole block packet by
 * itself: it costs no packet more, and every other request packs
 * greedily into DAP_Transfer.
 */
size_t pp_dap_pack(const struct pp_dap_req *r, size_t nr, size_t size, struct pp_dap_pkt *out)
{
    const size_t block_max = (size - 5) / 4;
    size_t np = 0;

    for (size_t k = 0; k < nr;) {
        size_t run = same_reads(r, nr, k, block_max);

        if (run >= block_max) {
            out[np++] = (struct pp_dap_pkt){ PP_DAP_TRANSFER_BLOCK, k, run, 0 };
            k += run;
            continue;
        }
        run = transfer_run(r, nr, k, size, block_max);
        out[np++] = (struct pp_dap_pkt){ PP_DAP_TRANSFER, k, run, 0 };
        k += run;
    }
    return np;
}

static void put32(uint8_t *p, uint32_t v)
{
    for (unsigned b = 0; b < 4; b++)
        p[b] = (uint8_t)(v >> (8 * b));
}

size_t pp_dap_encode(const struct pp_dap_req *r, const struct pp_dap_pkt *p, uint8_t index,
                     uint8_t *out)
{
    size_t len = 3;

    out[0] = p->kind;
    if (p->kind == PP_DAP_DELAY) {
        out[1] = (uint8_t)p->delay_us;
        out[2] = (uint8_t)(p->delay_us >> 8);
        return 3;
    }
    out[1] = index;
    if (p->kind == PP_DAP_TRANSFER_BLOCK) {
        out[2] = (uint8_t)p->n;
        out[3] = (uint8_t)(p->n >> 8);
        out[4] = r[p->first].req;
        return 5;
    }
    out[2] = (uint8_t)p->n;
    for (size_t i = 0; i < p->n; i++) {
        const struct pp_dap_req *q = &r[p->first + i];

        out[len++] = q->req;
        if (!(q->req & PP_DAP_RNW)) {
            put32(out + len, q->wdata);
            len += 4;
        }
    }
    return len;
}
