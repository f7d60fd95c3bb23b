/*
 * link.h - moving bits to and from a JTAG chain (internal API).
 *
 * A link driver (remote_bitbang over TCP or a UNIX socket, FTDI MPSSE over
 * libftdi1, the simulated SoC's pins in process) implements struct
 * pp_link_ops the way a libusb OS backend implements its ops: three
 * queueing primitives and a flush.  Everything queued between two flushes
 * goes out together and its replies come back together: one flush is one
 * round trip on a pipelined link (design.md rule 1).  The JTAG layer
 * (jtag.h) tracks the TAP state and builds IR/DR scans out of these
 * primitives; drivers know nothing of TAP states, DPs or APs.
 *
 * Bit order everywhere: LSB first, bit i of a buffer is (buf[i/8] >> (i%8)) & 1.
 */
#ifndef PP_LINK_H
#define PP_LINK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pmuprobe.h"

struct pp_link;

struct pp_link_ops {
    const char *name;                /* "rbb", "ftdi", "simpins" */
    /* Queues n TCK cycles with TMS taken from tms[] bits and TDI held at tdi. */
    int (*tms)(struct pp_link *l, const uint8_t *tms, unsigned n, bool tdi);
    /*
     * Queues n TCK cycles shifting tdi[] out (NULL: zeros) with TMS low,
     * except on the last cycle when last_tms is true (leaving Shift-xR).
     * When tdo is not NULL the n TDO bits sampled are stored there by the
     * next flush; the buffer must stay valid until then.
     */
    int (*shift)(struct pp_link *l, const uint8_t *tdi, uint8_t *tdo, unsigned n,
                 bool last_tms);
    /* Sends everything queued, waits for every reply, fills the tdo
     * buffers.  PP_OK, or PP_E_LINK / PP_E_PROTO / PP_E_TIMEOUT with a
     * message in l->errmsg; after an error the queue is empty. */
    int (*flush)(struct pp_link *l);
    /* Drives TRST and SRST (true = asserted) after flushing the queue.
     * Drivers without the pins return PP_E_UNSUPPORTED. */
    int (*reset)(struct pp_link *l, bool trst, bool srst);
    /* Sets TCK as near khz as the hardware allows, reports the exact
     * result.  NULL when the link has no clock of its own. */
    int (*set_speed)(struct pp_link *l, unsigned khz, unsigned *actual_khz);
    void (*close)(struct pp_link *l);        /* frees priv */
};

struct pp_link_stats {
    uint64_t tck;                    /* TCK cycles sent */
    uint64_t flushes;                /* flush calls that sent something */
    uint64_t round_trips;            /* waits for a reply from the other end */
    uint64_t bytes_out, bytes_in;    /* on the wire (socket, USB) */
};

struct pp_link {
    const struct pp_link_ops *ops;
    void *priv;
    struct pp_link_stats stats;      /* kept by the driver */
    /* TCK frequency the link runs at, 0 when it has no clock of its own
     * (remote_bitbang: the server clocks as fast as it reads).  Set by the
     * driver (FTDI: from its divisor); lets a repeat run space samples by
     * Run-Test/Idle clocks and date them by the TCK schedule. */
    uint32_t tck_hz;
    /* A link whose DP engine measures when transfers ran instead of
     * scheduling TCKs (CMSIS-DAP, whose probe clocks the DP transfers
     * itself): the rate of what pp_dp_exec then puts in tck_at and
     * run_tck (counted from the run's first dated transfer), 0 for none.
     * A probe timer (CMSIS-DAP's Test Domain Timer, spec/cmsis-dap-swd.md
     * 2.4) gives its ticks; without one the host's ns at which the reply
     * carrying the transfer arrived, and date_upper is set: such a date
     * bounds the transfer from above only.  Such a link paces a repeat
     * run's repetitions by not_before in ns (the probe waits, DAP_Delay). */
    uint32_t date_hz;
    bool date_upper;
    char errmsg[256];
};

/* Thin wrappers that keep the driver calls in one place. */
static inline int pp_link_tms(struct pp_link *l, const uint8_t *tms, unsigned n, bool tdi)
{
    return l->ops->tms(l, tms, n, tdi);
}

static inline int pp_link_shift(struct pp_link *l, const uint8_t *tdi, uint8_t *tdo,
                                unsigned n, bool last_tms)
{
    return l->ops->shift(l, tdi, tdo, n, last_tms);
}

static inline int pp_link_flush(struct pp_link *l)
{
    return l->ops->flush(l);
}

void pp_link_close(struct pp_link *l);   /* NULL-safe */

/* How long pp_link_reset_pulse holds a reset asserted: OpenOCD's
 * "adapter srst pulse_width" is 0 by default, but a board's reset
 * supervisor and the DP's power-on logic want milliseconds; 100 ms
 * covers the supervisors of common boards. */
#define PP_LINK_RESET_HOLD_MS 100u

/*
 * Asserts the named resets (nTRST, nSRST), holds them hold_ms, releases
 * both.  The TAP is in Test-Logic-Reset after a TRST pulse, and what was
 * cached about the chain is stale after either: open the JTAG layer
 * (and the DP) after this, not before.  PP_E_UNSUPPORTED when the link
 * has no reset operation or lacks a pin asked for (l->errmsg names it);
 * the link's error otherwise.  Nothing is asserted when a pin is missing.
 */
int pp_link_reset_pulse(struct pp_link *l, bool trst, bool srst, unsigned hold_ms);

#endif
