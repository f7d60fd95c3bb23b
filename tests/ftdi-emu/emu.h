/*
 * emu.h - a USB-level FT2232H (FT232H, FT4232H) emulator for the tests:
 * a libusb-1.0 replacement loaded with LD_PRELOAD under the unmodified
 * libftdi1 and OpenOCD.  Facts: spec/ftdi-mpsse-jtag.md 1 (MPSSE), 3
 * (USB level: descriptors, vendor requests, IN framing, latency timer).
 *
 *   usb.c     the libusb API: contexts, devices, handles, descriptors,
 *             sync and async transfers, event handling
 *   chip.c    one channel's USB side: vendor requests, FIFOs, IN packets
 *             with two modem-status bytes, the latency timer
 *   engine.c  the MPSSE command interpreter driving pp_simjtag pins
 *   board.c   the adapter boards: which pins reach the target's resets and
 *             enable its JTAG buffers (from the adapters' documentation,
 *             not the library's layouts)
 *   setup.c   configuration from the environment, the simulated SoCs,
 *             counters written at exit
 *
 * Environment (read once, at the first libusb call):
 *   PMUPROBE_EMU_TARGET   target of the simulated SoC (default a76-cluster)
 *   PMUPROBE_EMU_SIM_FAULTS  comma-separated faults as pmuprobe --fault takes
 *   PMUPROBE_EMU_CHIP     2232h (default) | 4232h | 232h
 *   PMUPROBE_EMU_VIDPID   VID:PID in hex (default the chip's)
 *   PMUPROBE_EMU_PRODUCT  iProduct (default the chip's: "Dual RS232-HS" ...)
 *   PMUPROBE_EMU_SERIAL   iSerialNumber (default PMUEMU01; device i > 0 gets i+1)
 *   PMUPROBE_EMU_COUNT    devices (default 1), each with its own SoC
 *   PMUPROBE_EMU_ADAPTER  the board emulated (board.c): how its pins reach the
 *                         target; when named, it also gives the defaults of
 *                         _CHIP, _VIDPID and _PRODUCT (default: the chip's bare
 *                         module, minimodule, ft232h or ft4232h);
 *                         wired:ntrst=MASK,nsrst=MASK for a board of
 *                         the test's making (reset pins driven low)
 *   PMUPROBE_EMU_FAULT    absent | access | busy | unplug:N (after N bulk
 *                         transfers) | unplug@MS (at the first bulk transfer
 *                         MS ms after the emulator started) | reject:0xNN
 *                         (answer 0xFA to opcode NN)
 *   (PMUPROBE_EMU_SIM_FAULTS takes @TIME too: cpu1:off@400ms, dp:wait:300@300ms)
 *   PMUPROBE_EMU_STATS    file that gets the counters (key=value) at exit:
 *                         the USB side's (struct emu_counters) and device
 *                         0's JTAG-DP's (struct pp_simjtag_stats: waits =
 *                         scans answered WAIT, sticky = STICKYERR or
 *                         STICKYORUN set), so a test can tell that a
 *                         dp:wait or dp:overrun fault landed; faults= (the
 *                         SoC's applied PMUPROBE_EMU_SIM_FAULTS, a timed one
 *                         when its time came); also divisor=
 *                         (the last 0x86 value, -1 none) and trst_asserts=,
 *                         srst_asserts= (reset pin assertions)
 *   PMUPROBE_EMU_LOG      file that gets a trace (requests, odd opcodes)
 *
 * One global state (there is one USB bus); every entry point holds a
 * recursive lock, so callbacks may call back into the API.
 */
#ifndef FTDI_EMU_H
#define FTDI_EMU_H

#include <libusb.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "sim/jtag.h"

#define EMU_MAX_DEVICES 4
#define EMU_PACKET      512u           /* HS bulk wMaxPacketSize */
#define EMU_PAYLOAD     (EMU_PACKET - 2u)
#define EMU_MAX_FIFO    4096u

enum emu_fault { FAULT_NONE, FAULT_ABSENT, FAULT_ACCESS, FAULT_BUSY };

#define EMU_MAX_ENABLES 6

/*
 * How a board takes one active-low reset line to the target: pin drives
 * it (asserted when the pin is an output at level asserts_high: low for a
 * direct or open-drain line, high for an inverting transistor stage),
 * through a driver that enable, when not 0, must switch on (an output,
 * low when enable_low).  pin 0: not wired, never asserted.
 */
struct emu_wire {
    uint16_t pin;
    bool asserts_high;
    uint16_t enable;
    bool enable_low;
};

/* One adapter board (board.c). */
struct emu_board {
    const char *name;                  /* as pmuprobe's --adapter names it */
    const char *chip;                  /* PMUPROBE_EMU_CHIP value */
    uint16_t vid, pid;
    const char *product;
    /* The JTAG buffers pass TCK/TDI/TMS/TDO only while each pin is an
     * output at its level; pin 0 ends the list. */
    struct { uint16_t pin; bool high; } enable[EMU_MAX_ENABLES];
    struct emu_wire ntrst, nsrst;
};

struct emu_counters {
    uint64_t bulk_out, bulk_in;        /* bulk transfers completed */
    uint64_t bytes_out, bytes_in;      /* payload bytes (no status bytes) */
    uint64_t status_only;              /* IN packets with no payload */
    uint64_t control;                  /* control transfers */
    uint64_t commands;                 /* MPSSE commands executed */
    uint64_t bad_commands;             /* answered 0xFA */
    uint64_t tck;                      /* TCK cycles clocked */
    uint64_t send_immediate;           /* 0x87 executed */
};

/* One channel (interface) of the chip. */
struct emu_channel {
    struct emu_device *dev;
    unsigned index;                    /* 0 = A */
    void *claimed_by;                  /* the handle that claimed it */
    uint8_t bitmode, bitmask;
    unsigned latency_ms;
    uint64_t latency_start_ms;         /* last packet sent to the host */
    /* host -> chip: command bytes not yet executed */
    uint8_t rx[EMU_MAX_FIFO];
    size_t rx_head, rx_len;
    /* chip -> host: reply bytes not yet sent */
    uint8_t tx[EMU_MAX_FIFO];
    size_t tx_head, tx_len;
    uint64_t tx_made, tx_sent, flush_to;   /* totals; flush_to = tx_made at 0x87 */
    bool term_pending;                 /* a full packet ended a flush: a short
                                        * (status-only) one must follow */
    /* MPSSE engine */
    uint8_t cmd[3];                    /* header of the command being parsed */
    size_t cmd_len;
    uint32_t bytes_left;               /* data bytes left of a byte shift */
    uint16_t value, dir;               /* GPIO */
    bool tms, tdi;                     /* levels on the pins */
    bool loopback, div5, adaptive, three_phase;
    uint16_t divisor;
    bool trst, srst;                   /* as last applied to the TAP */
    struct pp_simjtag *tap;            /* NULL: nothing wired (TDO pulled up) */
};

struct emu_device {
    unsigned index;
    uint16_t vid, pid, bcd;
    unsigned nif;                      /* interfaces */
    size_t fifo;                       /* per channel and direction */
    char manufacturer[32], product[64], serial[32];
    uint8_t bus, address, port;
    bool unplugged;
    struct emu_channel ch[4];
    struct pp_target *target;
    struct pp_sim *sim;
    struct pp_simjtag *jtag;
};

struct emu {
    bool ready;
    unsigned ndev;
    struct emu_device dev[EMU_MAX_DEVICES];
    enum emu_fault fault;
    uint64_t unplug_after;             /* bulk transfers, 0 = never */
    uint64_t unplug_at_ms;             /* emu_now_ms() deadline, 0 = never */
    int reject;                        /* opcode answered 0xFA, -1 none */
    const struct emu_board *board;
    bool unbuffered_logged;            /* the log said once: TCK with buffers off */
    struct emu_counters n;
    FILE *log;
    char stats_path[512];
    /* What the host set up, for the stats: the clock it asked for (TCK =
     * 30 MHz / (1 + divisor), spec 1.7) and how often it asserted the
     * board's resets. */
    int32_t last_divisor;              /* -1: no 0x86 yet */
    uint64_t trst_asserts, srst_asserts;
};

/* The one state; setup.c. */
struct emu *emu_get(void);
void emu_lock(void);
void emu_unlock(void);
void emu_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
uint64_t emu_now_ms(void);
/* Counts a bulk transfer; unplugs the devices after the configured count. */
void emu_count_bulk(bool in);

/* For tests that link the emulator in (tests/check_ftdi.c): forget every
 * device, free the SoCs, and read the environment again at the next call.
 * No libusb context may be open. */
void emu_restart(void);

/* chip.c */
void chip_reset_channel(struct emu_channel *c);
/* A vendor or standard control request; libusb-style result. */
int chip_control(struct emu_device *d, uint8_t type, uint8_t req, uint16_t value,
                 uint16_t index, unsigned char *data, uint16_t len);
/* Accepts up to n OUT bytes into the channel (running the engine); returns
 * how many were taken (fewer when the FIFOs are full). */
size_t chip_out(struct emu_channel *c, const uint8_t *buf, size_t n);
/*
 * Moves packets into an IN transfer buffer of len bytes already filled up
 * to *filled.  Returns true when the transfer is complete (a short packet
 * went out, possibly status-only when the latency timer fired, or the
 * buffer is full).
 */
bool chip_in(struct emu_channel *c, unsigned char *buf, size_t len, size_t *filled);
/* When the latency timer fires for this channel next. */
uint64_t chip_latency_deadline(const struct emu_channel *c);

/* board.c: a board by name (case-insensitive) or NULL; the bare module
 * of a chip ("2232h" -> minimodule). */
const struct emu_board *emu_board_find(const char *name);
const struct emu_board *emu_board_for_chip(const char *chip);
/* What the target sees of pins value/dir: its nTRST or nSRST low, and
 * whether the JTAG signals pass the board's buffers. */
bool emu_board_trst(const struct emu_board *b, uint16_t value, uint16_t dir);
bool emu_board_srst(const struct emu_board *b, uint16_t value, uint16_t dir);
bool emu_board_buffers_on(const struct emu_board *b, uint16_t value, uint16_t dir);

/* engine.c */
/* Executes what it can of c->rx; stops at a partial command or a full TX
 * FIFO. */
void engine_run(struct emu_channel *c);
void engine_reset(struct emu_channel *c);

#endif
