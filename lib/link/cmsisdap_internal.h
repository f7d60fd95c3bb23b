/*
 * cmsisdap_internal.h - the probe object shared by cmsisdap.c (USB,
 * DAP_Info, connect, packets) and cmsisdap_seq.c (the pp_link's JTAG
 * sequences).
 */
#ifndef PP_LINK_CMSISDAP_INTERNAL_H
#define PP_LINK_CMSISDAP_INTERNAL_H

#include <libusb.h>

#include "link/cmsisdap.h"

/* A DAP_JTAG_Sequence whose TDO bits go to a caller's buffer. */
struct pp_cmsisdap_capture {
    uint8_t *tdo;
    unsigned tdo_bit, nbits;
    size_t pkt, rsp_off;          /* where they come back */
};

struct pp_cmsisdap {
    libusb_context *ctx;
    libusb_device_handle *h;
    int iface;
    uint8_t ep_out, ep_in;
    struct pp_cmsisdap_info info;
    struct pp_link *link;
    /* the JTAG sequence queue: npk packets of info.packet_size bytes */
    uint8_t *pk, *rsp;
    size_t *pklen, *rsplen;
    unsigned *pknseq;
    size_t npk, cappk;
    struct pp_cmsisdap_capture *cap;
    size_t ncap, capcap;
    struct pp_cmsisdap_pkt *run;  /* pp_cmsisdap_run's view of the queue */
};

/* cmsisdap_seq.c: the pp_link ops over DAP_JTAG_Sequence. */
int pp_cmsisdap_seq_tms(struct pp_link *l, const uint8_t *tms, unsigned n, bool tdi);
int pp_cmsisdap_seq_shift(struct pp_link *l, const uint8_t *tdi, uint8_t *tdo, unsigned n,
                          bool last_tms);
int pp_cmsisdap_seq_flush(struct pp_link *l);
void pp_cmsisdap_seq_free(struct pp_cmsisdap *d);

#endif
