/*
 * dap_packets.h - CMSIS-DAP DAP_Transfer and DAP_TransferBlock packets for
 * a list of DP/AP requests (internal to lib/adi; dp_cmsisdap.c runs them).
 * Facts: spec/cmsis-dap-swd.md 2.4 (request byte, Transfer layout), 2.5
 * (TransferBlock), 1.4 (Packet Size bounds request and reply).
 */
#ifndef PP_ADI_DAP_PACKETS_H
#define PP_ADI_DAP_PACKETS_H

#include <stddef.h>
#include <stdint.h>

#define PP_DAP_TRANSFER       0x05u
#define PP_DAP_TRANSFER_BLOCK 0x06u
#define PP_DAP_DELAY          0x09u  /* DAP_Delay: the probe waits (us, spec 2.2) */
#define PP_DAP_APNDP 0x01u        /* request byte: AP access */
#define PP_DAP_RNW   0x02u        /* request byte: read; A[3:2] in bits 3:2 */
#define PP_DAP_TIMESTAMP 0x80u   /* request byte: Test Domain Timer stamp before
                                   * the data (spec 2.4; Transfer only) */

/* One request on the wire. */
struct pp_dap_req {
    uint8_t req;
    uint32_t wdata;               /* writes */
    int32_t xi;                   /* the caller's: which transfer it serves */
    uint32_t stamp;               /* the caller's: the Test Domain Timer stamp */
    uint8_t has_stamp;            /* the reply carried it */
};

/* One packet: requests r[first..first+n); a DAP_Delay (n 0) waits
 * delay_us before the requests from first on. */
struct pp_dap_pkt {
    uint8_t kind;                 /* PP_DAP_TRANSFER, _TRANSFER_BLOCK or _DELAY */
    size_t first, n;
    uint16_t delay_us;
};

/*
 * Packs r[0..nr) in order into packets of at most size bytes each way:
 * a run of identical reads that fills a whole DAP_TransferBlock ((size-5)/4
 * words, whose reply is 4 + 4n bytes) as one, the rest greedily as
 * DAP_Transfer (up to 255 transfers; a read takes 1 request byte and 4
 * reply bytes, a write 5 request bytes, a timestamp 4 more reply bytes;
 * header 3 bytes each way), every
 * packet kept one byte under size as OpenOCD does (spec 1.4).  out needs
 * room for nr packets (one per request at most).  Returns the count.
 */
size_t pp_dap_pack(const struct pp_dap_req *r, size_t nr, size_t size, struct pp_dap_pkt *out);

/* The bytes of packet p for DAP index (JTAG: the TAP); returns the length. */
size_t pp_dap_encode(const struct pp_dap_req *r, const struct pp_dap_pkt *p, uint8_t index,
                     uint8_t *out);

#endif
