/*
 * emu.h - a USB-level CMSIS-DAP v2 probe emulator for the tests: a
 * libusb-1.0 replacement loaded with LD_PRELOAD under the unmodified
 * OpenOCD (cmsis-dap driver, usb_bulk backend) and pmuprobe's cmsis-dap
 * path.  Facts: spec/cmsis-dap-swd.md 1 (USB interface), 2 (commands),
 * 3 (what hosts send), 6 (timing).
 *
 *   usb.c    the libusb API: one device, one vendor interface whose
 *            string holds "CMSIS-DAP", bulk OUT 0x01 and IN 0x81;
 *            synchronous bulk transfers (all the hosts above use)
 *   dap.c    the command interpreter: DAP_Info ... DAP_ExecuteCommands,
 *            the packet buffers (Packet Count) and QueueCommands
 *   tap.c    the probe's JTAG engine on the simulated SoC's TAP
 *            (pp_simjtag pins): sequences, IR/DR scans, DAP_Transfer's
 *            posted reads and WAIT retries the way probe firmware does
 *            (in SWD mode too, its wire packets from swd.c)
 *   swd.c    the probe's SWD engine on the SoC's SW-DP (sim/swdp.h):
 *            SWJ and SWD sequences, request/ACK/data/parity packets
 *   setup.c  the state, the environment, the real-time clock, counters
 *
 * Environment (read at the first libusb call):
 *   PMUPROBE_EMU_TARGET, PMUPROBE_EMU_SIM_FAULTS   the SoC (tests/emu-soc.h)
 *   PMUPROBE_EMU_VIDPID   VID:PID in hex (default 0d28:0204, DAPLink's)
 *   PMUPROBE_EMU_SERIAL   iSerialNumber (default PMUDAP01)
 *   PMUPROBE_EMU_DAP_COUNT  Packet Count (default 4)
 *   PMUPROBE_EMU_DAP_SIZE   Packet Size (default 512)
 *   PMUPROBE_EMU_LOG      file that gets a trace of the packets
 *   PMUPROBE_EMU_STATS    file that gets the counters (key=value) at exit
 *   PMUPROBE_EMU_REALTIME 1: a reply reaches the host no earlier than a
 *                         probe would give it: the OUT packet waits for
 *                         the next 125 us microframe, the command runs
 *                         after the ones before it for the TCKs it clocks
 *                         at the DAP_SWJ_Clock rate plus a fixed
 *                         processing time per command and per transfer
 *                         (the command runs then, when the host reads:
 *                         the SoC and the timer see it at that time),
 *                         and the reply waits for the next microframe;
 *                         0 or unset (default): replies are ready at once.
 *   PMUPROBE_EMU_TIMER_HZ the Test Domain Timer's rate that DAP_Info 0xF1
 *                         reports (default 1000000, the Debug Probe's);
 *                         0: no timer (capabilities bit 5 clear)
 *   PMUPROBE_EMU_TIMER_SLOW N: the timer ticks N times slower than it
 *                         says (default 1), so that a test can tell dates
 *                         taken from it from the host's
 *   PMUPROBE_EMU_FAULT    unplug@MS: the probe is unplugged MS ms after the
 *                         first libusb call (the SoC's fault clock): every
 *                         bulk transfer from then on fails NO_DEVICE, as
 *                         the FTDI emulator's unplug@MS
 * The timer reads the host's clock when the emulator makes the transfer
 * it stamps (spec 2.4: right after its data phase), which is when the
 * simulated SoC saw the access: the emulator runs a command when its
 * packet arrives, and real time only holds the reply back.  So a stamp
 * dates the SoC's counters in their own clock, as a probe's timer dates
 * the wire.
 *
 * One global state under a recursive lock.
 */
#ifndef CMSISDAP_EMU_H
#define CMSISDAP_EMU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "link/jtag.h"
#include "sim/jtag.h"

#define DAP_EP_SIZE       512u     /* HS bulk wMaxPacketSize */
#define DAP_MAX_PACKET    1024u
#define DAP_MAX_COUNT     16u
#define DAP_MAX_TAPS      8u
#define DAP_TIMER_HZ      1000000u /* Test Domain Timer default: 1 MHz, as
                                    * the Raspberry Pi Debug Probe (spec 2.4) */

/* Command IDs (spec 2.2). */
enum {
    ID_INFO = 0x00, ID_HOST_STATUS = 0x01, ID_CONNECT = 0x02, ID_DISCONNECT = 0x03,
    ID_TRANSFER_CONFIGURE = 0x04, ID_TRANSFER = 0x05, ID_TRANSFER_BLOCK = 0x06,
    ID_TRANSFER_ABORT = 0x07, ID_WRITE_ABORT = 0x08, ID_DELAY = 0x09,
    ID_SWJ_PINS = 0x10, ID_SWJ_CLOCK = 0x11, ID_SWJ_SEQUENCE = 0x12, ID_SWD_CONFIGURE = 0x13,
    ID_SWD_SEQUENCE = 0x1D,
    ID_JTAG_SEQUENCE = 0x14, ID_JTAG_CONFIGURE = 0x15, ID_JTAG_IDCODE = 0x16,
    ID_QUEUE_COMMANDS = 0x7E, ID_EXECUTE_COMMANDS = 0x7F, ID_INVALID = 0xFF,
};

/* DAP_Transfer response ACK values (spec 2.4). */
#define DAP_ACK_OK    1u
#define DAP_ACK_WAIT  2u
#define DAP_ACK_FAULT 4u
#define DAP_RESP_PARITY 0x08u          /* SWD read-data parity error */

/* DAP_Connect ports (spec 2.2). */
#define DAP_PORT_SWD  1u
#define DAP_PORT_JTAG 2u

struct dap_counters {
    uint64_t bulk_out, bulk_in;        /* packets */
    uint64_t commands;                 /* commands executed (inner ones too) */
    uint64_t invalid;                  /* answered 0xFF */
    uint64_t transfers;                /* DAP_Transfer commands */
    uint64_t transfer_blocks;          /* DAP_TransferBlock commands */
    uint64_t jtag_sequences;           /* DAP_JTAG_Sequence commands */
    uint64_t swd_sequences;            /* DAP_SWD_Sequence commands */
    uint64_t queued;                   /* packets held by DAP_QueueCommands */
    uint64_t scans;                    /* DR scans DAP_Transfer made */
    uint64_t waits;                    /* scans answered WAIT (retried) */
    uint64_t timestamps;               /* Test Domain Timer stamps sent */
    uint64_t tck;                      /* TCKs clocked */
    uint64_t max_in_flight;            /* most packets held at once */
    uint64_t round_trips;              /* packets that found none ahead of them:
                                        * the host had waited for every reply */
    uint64_t model_ns;                 /* real time: the probe's busy time */
};

/* A reply waiting for the host, and when it may leave (ns, monotonic).
 * In real time the command itself waits here (pending) until the host
 * reads: it runs no earlier than the probe would start it, so the SoC
 * sees each access (and the timer stamps it) when a probe would make it,
 * a DAP_Delay included. */
struct dap_reply {
    uint8_t data[DAP_MAX_PACKET];
    size_t len;
    uint64_t ready_ns;
    bool pending;                      /* the command has not run yet */
    uint8_t cmd[DAP_MAX_PACKET];
    size_t cmd_len;
    uint64_t arrived_ns;
};

struct dap {
    bool ready, realtime;
    uint16_t vid, pid;
    char serial[32];
    unsigned count, size;              /* Packet Count, Packet Size */
    struct pp_target *target;
    struct pp_sim *sim;
    struct pp_simjtag *tap;            /* NULL: nothing wired (TDO high) */
    bool claimed, unplugged;
    uint64_t unplug_at_ns;             /* PMUPROBE_EMU_FAULT=unplug@MS; 0: never */
    /* the probe's settings */
    uint8_t port;                      /* 0 none, DAP_PORT_SWD, DAP_PORT_JTAG */
    unsigned turnaround;               /* SWD_Configure: 1..4 clocks */
    bool data_phase;                   /* SWD_Configure: data phase on WAIT/FAULT */
    uint32_t clock_hz;
    uint8_t idle;                      /* TransferConfigure */
    uint16_t wait_retry, match_retry;
    uint32_t match_mask;               /* DAP_Transfer's match mask */
    unsigned ntaps;
    uint8_t irlen[DAP_MAX_TAPS];
    enum pp_tap_state state;           /* the TAP as this probe drove it */
    bool ntrst, nreset;                /* pin levels (true = high) */
    /* packets: replies not yet read, packets held by QueueCommands */
    struct dap_reply reply[DAP_MAX_COUNT];
    size_t rhead, rlen;
    uint8_t held[DAP_MAX_COUNT][DAP_MAX_PACKET];
    size_t held_len[DAP_MAX_COUNT], nheld;
    /* time */
    uint32_t timer_hz;                 /* reported; 0 = no timer */
    unsigned timer_slow;               /* it ticks this many times slower */
    uint64_t start_ns;                 /* the Test Domain Timer's zero */
    uint64_t busy_until_ns;            /* real time: the probe is done then */
    uint64_t cmd_tck;                  /* TCKs of the command being run */
    unsigned cmd_xfers;                /* transfers of the command being run */
    uint64_t cmd_delay_ns;             /* DAP_Delay in it */
    struct dap_counters n;
    FILE *log;
    char stats_path[512];
};

/* setup.c */
struct dap *dap_get(void);
void dap_lock(void);
void dap_unlock(void);
void dap_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
uint64_t dap_now_ns(void);
void dap_sleep_until_ns(uint64_t t);
/* The Test Domain Timer now. */
uint32_t dap_timer(const struct dap *d);
/* True once the probe is unplugged (PMUPROBE_EMU_FAULT=unplug@MS). */
bool dap_unplug_due(struct dap *d);

/* dap.c: one OUT packet; false when the probe has no buffer free (the
 * host would be NAKed). */
bool dap_packet_out(struct dap *d, const uint8_t *buf, size_t len);
/* dap.c, real time: runs the pending command of r when a probe would
 * start it (sleeping, unlocked, until then) and dates its reply. */
void dap_run_pending(struct dap *d, struct dap_reply *r);

/* tap.c: the JTAG engine.  Each returns what the protocol answers. */
/* One TCK with tms/tdi; returns TDO (1 when nothing is wired). */
bool tap_cycle(struct dap *d, bool tms, bool tdi);
/* DAP_JTAG_Sequence body p[0..n): fills out (status byte first). */
size_t tap_jtag_sequence(struct dap *d, const uint8_t *p, size_t n, uint8_t *out, size_t *used);
/* DAP_JTAG_IDCODE of TAP index; false when out of range. */
bool tap_idcode(struct dap *d, unsigned index, uint32_t *idcode);
/* DAP_Transfer / DAP_TransferBlock bodies after the command byte: fill
 * out (after the command byte), return its length; *used gets the
 * request bytes taken. */
size_t tap_transfer(struct dap *d, const uint8_t *p, size_t n, uint8_t *out, size_t *used);
size_t tap_transfer_block(struct dap *d, const uint8_t *p, size_t n, uint8_t *out,
                          size_t *used);
/* DAP_WriteABORT: an ABORT scan with value. */
void tap_write_abort(struct dap *d, unsigned index, uint32_t value);

/* swd.c: the SWD engine. */
bool swd_cycle(struct dap *d, bool drive, bool bit);
/* DAP_SWJ_Sequence in SWD mode: bits on SWDIO, LSB first. */
void swd_swj_sequence(struct dap *d, const uint8_t *p, unsigned bits);
/* One wire packet for DAP request bits req[3:0]; the response bits. */
uint8_t swd_packet(struct dap *d, uint8_t req, uint32_t wdata, uint32_t *rdata);
/* DAP_SWD_Sequence body p[0..n): fills out (status byte first). */
size_t swd_sequence(struct dap *d, const uint8_t *p, size_t n, uint8_t *out, size_t *used);

#endif
