/*
 * cmsisdap.h - a CMSIS-DAP v2 probe over libusb-1.0 (internal API).
 * Facts: spec/cmsis-dap-swd.md 1 (the USB interface), 2 (commands).
 *
 * Two layers share one probe:
 *   - the packet layer (pp_cmsisdap_run): command packets out on the bulk
 *     OUT endpoint, replies in on the bulk IN one, up to Packet Count
 *     commands in flight;
 *   - a struct pp_link (ops name "cmsis-dap") whose tms/shift/flush are
 *     DAP_JTAG_Sequence packets, so the JTAG layer can look at the chain
 *     (IDCODEs, IR lengths) as over any link.  The DP transfers then go
 *     as DAP_Transfer packets (lib/adi/dp_cmsisdap.c), the probe
 *     resolving posted reads and WAITs.
 */
#ifndef PP_LINK_CMSISDAP_H
#define PP_LINK_CMSISDAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "link/link.h"

struct pp_cmsisdap_params {
    uint16_t vid, pid;            /* 0:0 = any probe whose interface says CMSIS-DAP */
    const char *serial;           /* NULL = any */
    unsigned khz;                 /* SWJ clock; 0 = PP_CMSISDAP_DEFAULT_KHZ */
    bool swd;                     /* connect in SWD, not JTAG */
};

#define PP_CMSISDAP_MAX_PACKET 1024u /* the largest packet used (spec 1.4: HS 512, HID 1024) */
#define PP_CMSISDAP_DEFAULT_KHZ 1000u  /* the reference firmware's default (spec 2.6) */

/* What DAP_Info said (spec 2.3). */
struct pp_cmsisdap_info {
    unsigned packet_count, packet_size;
    uint8_t caps;                 /* 0xF0 byte 0 */
    uint32_t timer_hz;            /* Test Domain Timer, 0 = none */
    uint32_t clock_hz;            /* the SWJ clock last asked for */
    char protocol[16], firmware[32], product[64], serial[64];
    uint16_t vid, pid;
    bool swd;                     /* connected in SWD: no JTAG chain */
    uint32_t dpidr;               /* SWD: the DPIDR read at connect */
};
#define PP_CMSISDAP_CAP_SWD    0x01u
#define PP_CMSISDAP_CAP_JTAG   0x02u
#define PP_CMSISDAP_CAP_ATOMIC 0x10u
#define PP_CMSISDAP_CAP_TIMER  0x20u

/* Finds and opens the probe, reads DAP_Info, connects in JTAG mode (in
 * SWD with p->swd: then line reset, JTAG-to-SWD, line reset and a DPIDR
 * read, spec 3.1, 4.4, 4.5) and sets the clock (about ten round trips).  PP_E_NOTFOUND when no probe
 * matches, PP_E_LINK / PP_E_UNSUPPORTED otherwise; err says which. */
int pp_link_cmsisdap_open(const struct pp_cmsisdap_params *p, struct pp_link **out, char *err,
                          size_t errlen);

struct pp_cmsisdap;
/* The probe under a cmsis-dap link; NULL for other links. */
struct pp_cmsisdap *pp_link_cmsisdap(struct pp_link *l);
const struct pp_cmsisdap_info *pp_cmsisdap_info(const struct pp_cmsisdap *d);

/* One command and its reply buffer (packet_size bytes). */
struct pp_cmsisdap_pkt {
    const uint8_t *out;
    size_t olen;
    uint8_t *in;
    size_t ilen;                  /* set: the reply's length */
    uint64_t recv_ns;             /* set: when the reply arrived (pp_mono_ns) */
};

/*
 * Sends p[0..n) in order and reads every reply, keeping up to Packet
 * Count commands in flight (a reply read before each send past it), so
 * the host waits once for the whole list, however long.
 * Checks that each reply echoes its command.  Counts one round trip on
 * the link.  PP_E_LINK with the message in the link's errmsg.
 */
int pp_cmsisdap_run(struct pp_cmsisdap *d, struct pp_cmsisdap_pkt *p, size_t n);

/* Packet building (cmsisdap_pkt.c): little-endian helpers. */
static inline void pp_cmsisdap_put32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
}

static inline uint32_t pp_cmsisdap_get32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

#endif
