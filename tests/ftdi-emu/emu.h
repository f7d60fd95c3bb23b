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
 *   rt.c      the real-time model: TCK at the configured clock, 125 us
 *             microframes, 512-byte packets, FIFO back-pressure; the
 *             model and its sources are written at its top
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
 *   PMUPROBE_EMU_SWDIO    tms (default) | tdi: the pin that carries SWDIO when
 *                         the target's DP is a SW-DP or SWJ-DP (sim/swdp.h):
 *                         tdi ties DO (ADBUS1) and DI (ADBUS2) to SWDIO, as
 *                         OpenOCD's SWD layouts and its resistor hack wire it
 *                         (ignored on boards that wire SWDIO themselves:
 *                         ft232h-module-swd, minimodule-swd and
 *                         olimex-arm-usb-ocd-h-swd, board.c); their
 *                         counters add swdio_fights= (SWCLKs with the
 *                         host's and the target's drivers fighting) and
 *                         swdio_releases= (the host let go of SWDIO)
 *   PMUPROBE_EMU_LOG      file that gets a trace (requests, odd opcodes)
 *   PMUPROBE_EMU_REALTIME 1: keep real time (rt.c): no reply reaches the host
 *                         before its TCK have been clocked at the configured
 *                         frequency and the USB microframes that carry it
 *                         have passed; 0 or unset (default): replies are
 *                         ready as soon as the functional model has them,
 *                         for the functional tests.  The counters then add
 *                         realtime=, tck_hz=, tck_ns=, model_ns=, wall_ns=,
 *                         packets_out=, packets_in=, uframes_out=,
 *                         uframes_in=, idle_out_ns=, idle_host_ns=,
 *                         stall_tx_ns=, in_wait_ns=, in_full=, in_flush=,
 *                         in_timer=, max_pending_out=, max_pending_in=
 *                         (rt.c says what each means)
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
#define EMU_MAX_FLUSHES 16u            /* 0x87 marks kept; more merge (rt.c) */

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

/*
 * How a board takes SWDIO to the target (spec/cmsis-dap-swd.md 5.1, 5.3),
 * for a SW-DP or SWJ-DP: EMU_SWD_PIN leaves it to PMUPROBE_EMU_SWDIO (TMS,
 * or TDI through a series resistor and TDO: the resistor hack, where the
 * target always wins).  The two others are strong drivers: TIED, DO
 * (ADBUS1) and DI (ADBUS2) on the line, DO driving while it is an output
 * (OpenOCD's SWDIO_OE with no pin: its direction bit); BUFFER, a buffer
 * from DO onto the line enabled while pin oe is an output at level
 * oe_high (SWDIO_OE), DI reading the line.  en, when not 0: the board
 * routes SWDIO to its connector only while en is an output at level
 * en_high (SWD_EN).  The host and the target both driving is a fight
 * (counted; the host's driver wins, so it reads back its own bit).
 */
enum emu_swd_wiring { EMU_SWD_PIN, EMU_SWD_TIED, EMU_SWD_BUFFER };

struct emu_swd {
    enum emu_swd_wiring wiring;
    uint16_t oe;
    bool oe_high;
    uint16_t en;
    bool en_high;
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
    struct emu_swd swd;
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
    uint64_t swdio_fights;             /* SWCLKs with host and target driving
                                        * SWDIO to different levels */
    uint64_t swdio_releases;           /* the host's SWDIO driver switched off */
    /* The real-time model's accounting (rt.c), in 60 MHz ticks. */
    uint64_t tck_ticks;                /* time spent clocking TCK */
    uint64_t last_tck_ticks;           /* the period of the last TCK clocked */
    uint64_t packets_out, packets_in;  /* 512-byte bulk packets (IN: status-only too) */
    uint64_t uframes_out, uframes_in;  /* microframes that carried them */
    uint64_t model_start, model_end;   /* first bulk transfer submitted, last one done */
    uint64_t wall_end;                 /* the real clock when the last one completed */
    /* Where the model's time goes besides TCK (rt.c, "Where the time
     * goes"): real time only, all in ticks but the counts. */
    uint64_t idle_out_ticks;           /* engine idle: its next OUT byte not there */
    uint64_t idle_host_ticks;          /* ... of which before the host submitted it */
    uint64_t stall_tx_ticks;           /* engine stopped on a full TX FIFO */
    uint64_t in_wait_ticks;            /* per IN packet: its last byte made -> sent */
    uint64_t in_full, in_flush, in_timer;  /* IN packets sent: full, 0x87, latency/short */
    uint64_t max_pending_out, max_pending_in;  /* async transfers submitted at once */
};

/* A 0x87 executed: reply bytes up to byte number upto may go at tick at. */
struct emu_flush {
    uint64_t upto, at;
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
    uint64_t tx_made, tx_sent;         /* totals */
    struct emu_flush flush[EMU_MAX_FLUSHES];   /* 0x87 not yet served, oldest first */
    size_t nflush;
    bool term_pending;                 /* a full packet ended a flush: a short
                                        * (status-only) one must follow */
    /* Real-time model (rt.c), all in 60 MHz ticks of the monotonic clock:
     * when each byte arrived or was made, and the engine's own time. */
    uint64_t rx_at[EMU_MAX_FIFO];      /* arrival of rx[i] */
    uint64_t tx_at[EMU_MAX_FIFO];      /* when tx[i] had been clocked */
    uint64_t taken_at[EMU_MAX_FIFO];   /* byte number n % EMU_MAX_FIFO: when the
                                        * engine took it out of the RX FIFO */
    uint64_t rx_total, taken_total;    /* byte numbers: received, taken */
    uint64_t engine_at;                /* the engine has done all it executed */
    uint64_t tck_period;               /* rt_tck_ticks() as the clock commands left it */
    bool tx_stalled;                   /* the engine waits for room in the TX FIFO */
    uint64_t rt_latency_start;         /* the last IN packet, in the model */
    uint64_t out_uframe, in_uframe;    /* the last microframe each direction used */
    unsigned out_packets, in_packets;  /* packets in it */
    /* MPSSE engine */
    uint8_t cmd[3];                    /* header of the command being parsed */
    size_t cmd_len;
    uint32_t bytes_left;               /* data bytes left of a byte shift */
    uint16_t value, dir;               /* GPIO */
    bool tms, tdi;                     /* levels on the pins */
    bool loopback, div5, adaptive, three_phase;
    uint16_t divisor;
    bool trst, srst;                   /* as last applied to the TAP */
    bool swd_host;                     /* the host drove SWDIO last SWCLK */
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
    bool realtime;                     /* PMUPROBE_EMU_REALTIME=1 */
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
/* The same for the part of a transfer submitted at tick since (n from a
 * packet boundary of it): in real time whole packets only, and *done gets
 * the tick the last packet taken reaches the chip (rt.c). */
size_t chip_out_at(struct emu_channel *c, const uint8_t *buf, size_t n, uint64_t since,
                   uint64_t *done);
/*
 * Moves packets into an IN transfer buffer of len bytes already filled up
 * to *filled.  Returns true when the transfer is complete (a short packet
 * went out, possibly status-only when the latency timer fired, or the
 * buffer is full).
 */
bool chip_in(struct emu_channel *c, unsigned char *buf, size_t len, size_t *filled);
/* The same for a transfer submitted at tick since: in real time only what
 * the model has clocked by the last microframe boundary passed (rt.c). */
bool chip_in_at(struct emu_channel *c, unsigned char *buf, size_t len, size_t *filled,
                uint64_t since);
/* When the latency timer fires for this channel next (ms, emu_now_ms). */
uint64_t chip_latency_deadline(const struct emu_channel *c);
/* The tick at which chip_in_at for a transfer submitted at since may make
 * progress next, without the host doing anything. */
uint64_t chip_next_tick(const struct emu_channel *c, uint64_t since);

/* board.c: a board by name (case-insensitive) or NULL; the bare module
 * of a chip ("2232h" -> minimodule). */
const struct emu_board *emu_board_find(const char *name);
const struct emu_board *emu_board_for_chip(const char *chip);
/* What the target sees of pins value/dir: its nTRST or nSRST low, and
 * whether the JTAG signals pass the board's buffers. */
bool emu_board_trst(const struct emu_board *b, uint16_t value, uint16_t dir);
bool emu_board_srst(const struct emu_board *b, uint16_t value, uint16_t dir);
bool emu_board_buffers_on(const struct emu_board *b, uint16_t value, uint16_t dir);
/* SWD on a board with a strong SWDIO driver (TIED, BUFFER): whether SWDIO
 * reaches the connector (SWD_EN), and whether the host drives it. */
bool emu_board_swd_routed(const struct emu_board *b, uint16_t value, uint16_t dir);
bool emu_board_swd_host_drives(const struct emu_board *b, uint16_t value, uint16_t dir);

/* rt.c: the real-time model; ticks of 60 MHz (the chip's master clock,
 * so every TCK period is a whole number of them). */
#define EMU_TICK_HZ     60000000u
#define EMU_UFRAME      7500u          /* 125 us */
#define EMU_UFRAME_PKTS 6u             /* bulk packets per direction per microframe */
uint64_t emu_now_tick(void);
void emu_sleep_until_tick(uint64_t tick);
/* One TCK period at the channel's clock settings. */
uint64_t rt_tck_ticks(const struct emu_channel *c);
uint64_t rt_tck_hz(const struct emu_channel *c);
/* The engine took the byte at rx[i] (rx_pop): not before it arrived; made
 * one at tx[i]; executed 0x87.  (A TCK clocked adds rt_tck_ticks:
 * engine.c.)  Inline: they run for every byte. */
static inline void rt_take(struct emu_channel *c, size_t i)
{
    if (c->rx_at[i] > c->engine_at) {
        if (c->engine_at)          /* 0: the first byte ever, nothing to wait for */
            emu_get()->n.idle_out_ticks += c->rx_at[i] - c->engine_at;
        c->engine_at = c->rx_at[i];
    }
    c->taken_at[c->taken_total++ % EMU_MAX_FIFO] = c->engine_at;
}

static inline void rt_made(struct emu_channel *c, size_t i)
{
    c->tx_at[i] = c->engine_at;
}

void rt_send_immediate(struct emu_channel *c);
/* Forget what the FIFOs held (purge, reset). */
void rt_purge_rx(struct emu_channel *c);
void rt_purge_tx(struct emu_channel *c);
/* The tick an OUT packet of len bytes (the next after rx_total) submitted
 * at since reaches the chip. */
uint64_t rt_out_packet(struct emu_channel *c, size_t len, uint64_t since);
/* The last microframe boundary at or before now. */
uint64_t rt_horizon(uint64_t now);
/* Reply bytes at the head of the TX FIFO clocked by tick h (at most max). */
size_t rt_ready(const struct emu_channel *c, uint64_t h, size_t max);
/* Whether an 0x87 executed by tick h still has bytes to send. */
bool rt_flush_due(const struct emu_channel *c, uint64_t h);
/* Drops the 0x87 marks the bytes sent have served; true when the last one
 * due by h ended exactly at the bytes sent. */
bool rt_flush_served(struct emu_channel *c, uint64_t h);
/* Whether microframe h/EMU_UFRAME - 1 may carry one more IN packet; counts
 * the packet when take. */
bool rt_in_packet(struct emu_channel *c, uint64_t h, bool take);
/* A transfer was submitted at since / completed at done (model ticks). */
void rt_mark(uint64_t since, uint64_t done);

/* engine.c */
/* Executes what it can of c->rx; stops at a partial command or a full TX
 * FIFO. */
void engine_run(struct emu_channel *c);
void engine_reset(struct emu_channel *c);

#endif
