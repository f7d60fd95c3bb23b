/*
 * ftdi.h - the FTDI MPSSE link driver (libftdi1) and the adapter layouts
 * (internal API).
 *
 * An FT2232H, FT232H or FT4232H channel in MPSSE mode drives TCK/TDI/TDO/
 * TMS on ADBUS0..3; the other pins (GPIOL on ADBUS4..7, GPIOH on ACBUS)
 * carry nTRST, nSRST and buffer enables in an adapter-specific way, which
 * a layout describes (spec/ftdi-mpsse-jtag.md 2.7).  The queue is encoded
 * by lib/link/mpsse.c; one flush is one USB round trip when the reply fits
 * the chip's FIFO, and a pipelined set of transfers with a read always
 * pending when it does not.
 */
#ifndef PP_LINK_FTDI_H
#define PP_LINK_FTDI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "link/link.h"

/* Named in the permission-denied message; installed in $(pkgdatadir). */
#define PP_FTDI_UDEV_RULES "60-pmuprobe-ftdi.rules"

/*
 * One adapter signal as OpenOCD's "layout_signal" describes it: data is
 * the pin mask that carries the level (ndata: inverted), oe the pin mask
 * that enables its driver (noe: active low).  oe == data means open drain
 * through the direction register: asserted = driven low, released = input.
 * A signal with neither mask is absent.
 */
struct pp_ftdi_signal {
    uint16_t data, oe;
    bool ndata, noe;
};

/*
 * How an adapter takes SWDIO to the target in SWD (spec/cmsis-dap-swd.md
 * 5.1, 5.3).  SWCLK is TCK; DI (TDO, ADBUS2) always reads SWDIO.
 */
enum pp_ftdi_swdio {
    PP_FTDI_SWDIO_NONE,        /* not known to carry SWD: --transport swd refused */
    PP_FTDI_SWDIO_RESISTOR,    /* DO (TDI) through a series resistor: nothing to
                                * switch, the target overrides it (swd-resistor-hack) */
    PP_FTDI_SWDIO_DIR,         /* DO tied to SWDIO: let go by making ADBUS1 an input
                                * (OpenOCD's SWDIO_OE with no pin) */
    PP_FTDI_SWDIO_OE,          /* a buffer from DO enabled by the swdio_oe signal */
};

struct pp_ftdi_layout {
    const char *name;              /* --adapter NAME */
    const char *summary;           /* for listings */
    uint16_t vid, pid;             /* how the adapter enumerates */
    const char *description;       /* its usual iProduct (informative) */
    char interface;                /* 'A'..'D' */
    uint16_t value, dir;           /* initial pins: low byte ADBUS, high ACBUS;
                                    * dir bit 1 = output */
    struct pp_ftdi_signal ntrst, nsrst;   /* active-low resets */
    /* SWD: the wiring; swd_en (optional) is set to 1 once SWD is chosen,
     * swdio_oe (PP_FTDI_SWDIO_OE) to 1 while the host drives SWDIO and 0
     * while the target may; '1' is the pin high, low with ndata (OpenOCD's
     * SWD_EN and SWDIO_OE, spec/cmsis-dap-swd.md 5.1). */
    enum pp_ftdi_swdio swdio;
    struct pp_ftdi_signal swd_en, swdio_oe;
};

/* How w takes SWDIO, in words for messages: "SWDIO on TDI/TDO", "DO tied
 * to SWDIO", "SWDIO through the SWDIO_OE buffer". */
const char *pp_ftdi_swdio_wiring(enum pp_ftdi_swdio w);

/* The built-in layouts, by name (case-insensitive); NULL when unknown. */
const struct pp_ftdi_layout *pp_ftdi_layout_find(const char *name);
/* The i-th built-in layout, NULL past the end. */
const struct pp_ftdi_layout *pp_ftdi_layout_get(size_t i);
/*
 * An adapter described by options instead of a name:
 *   "custom:init=VALUE/DIR[,vidpid=VID:PID][,trst=SIG][,srst=SIG]
 *    [,swdio_oe=SIG|dir][,swd_en=SIG]"
 * with SIG a '+'-joined list of data=MASK, ndata=MASK, oe=MASK, noe=MASK
 * (e.g. "srst=data=0x20+oe=0x20").  Without swdio_oe SWDIO is taken to be
 * on TDI through a resistor and TDO; swdio_oe=dir ties DO to SWDIO and
 * lets go through its direction bit; swdio_oe=SIG names the pin that
 * enables a SWDIO buffer.  The result's strings point into a static
 * "custom"; PP_E_PARSE with a message on malformed text.
 */
int pp_ftdi_layout_parse(const char *text, struct pp_ftdi_layout *out, char *err,
                         size_t errlen);

static inline bool pp_ftdi_signal_present(const struct pp_ftdi_signal *s)
{
    return s->data || s->oe;
}

/* Pins for the signal asserted (line low) or released. */
void pp_ftdi_signal_drive(const struct pp_ftdi_signal *s, bool asserted, uint16_t *value,
                          uint16_t *dir);
/* Whether the pins hold the signal asserted (what a target would see). */
bool pp_ftdi_signal_asserted(const struct pp_ftdi_signal *s, uint16_t value, uint16_t dir);

struct pp_ftdi_params {
    uint16_t vid, pid;             /* 0:0 = any FTDI MPSSE chip (6010/6011/6014) */
    const char *serial;            /* exact iSerialNumber, NULL = any */
    const char *description;       /* exact iProduct, NULL = any */
    const char *usb_path;          /* "BUS-PORT[.PORT...]" as in sysfs, NULL = any */
    char interface;                /* 'A'..'D', 0 = the layout's */
    const struct pp_ftdi_layout *layout;   /* NULL = by chip: generic 2232H/4232H/232H */
    unsigned khz;                  /* TCK request, 0 = 15000 */
    bool sync;                     /* never overlap transfers (for measurements) */
};

/*
 * Finds, opens and configures the adapter: reset, MPSSE mode, latency
 * timer, purge, MPSSE sync (0xAA -> 0xFA 0xAA), loopback off, divide-by-5
 * off, adaptive and 3-phase clocking off, the divisor, the layout's pins.
 * Returns PP_OK and *out, or with a message in err:
 *   PP_E_NOTFOUND     no matching device (the message lists what was seen)
 *   PP_E_BUSY         claimed by another program or driver, or permission
 *                     denied (the message names PP_FTDI_UDEV_RULES)
 *   PP_E_UNSUPPORTED  the chip or channel has no MPSSE (FT232R, FT4232H C/D)
 *   PP_E_PROTO        the channel did not answer MPSSE as expected (0xFA)
 *   PP_E_LINK         USB failed (unplugged while opening)
 *   PP_E_NOMEM
 */
int pp_link_ftdi_open(const struct pp_ftdi_params *p, struct pp_link **out, char *err,
                      size_t errlen);

struct pp_ftdi_info {
    const char *chip;              /* "FT2232H" */
    char interface;                /* 'A'.. */
    uint32_t tck_hz;               /* exact TCK set: 30 MHz / (1 + divisor) */
    uint32_t tck_asked_hz;         /* the request it was rounded down from */
    size_t fifo;                   /* reply bytes per synchronous chunk */
    char serial[64], description[128], usb_path[32];
    const char *layout;
    enum pp_ftdi_swdio swdio;      /* how the layout carries SWD */
};
/* PP_E_INVAL when l is not an FTDI link. */
int pp_link_ftdi_info(const struct pp_link *l, struct pp_ftdi_info *out);

/*
 * SWD on the layout's SWDIO wiring: queues (no flush) the pin changes that
 * make the host drive SWDIO (drive) or let go of it for the target, only
 * where the pins are not already so; the first call also sets SWD_EN.
 * Nothing to do for PP_FTDI_SWDIO_RESISTOR.  PP_E_INVAL when l is not an
 * FTDI link, PP_E_UNSUPPORTED when its layout has no SWD wiring.
 */
int pp_link_ftdi_swdio(struct pp_link *l, bool drive);

#endif
