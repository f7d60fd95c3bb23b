/*
 * jtag.h - the simulated SoC's JTAG-DP at pin level (internal API).
 *
 * A one-TAP chain (or the target's chain; see pp_simjtag_new) whose TAP is
 * an ADIv5 JTAG-DP (spec/arm-pmu-coresight.md 7.1-7.4) in front of a MEM-AP
 * of type APB (IDR 0x54770002 unless the target says otherwise) at the
 * target's ap_index, whose bus is pp_sim_apb_read/write.  The
 * remote_bitbang server (pmuprobe-sim), the in-process "simpins" link and
 * the USB-level FTDI emulator all drive this one model, so all three paths
 * see the same DP, the same WAITs and the same sticky errors.
 *
 * Pins follow IEEE 1149.1: the TAP samples TMS and TDI on the rising edge
 * of TCK and changes TDO on the falling edge.  pp_simjtag_pins() takes
 * pin levels as a bit-banging adapter drives them (edges detected inside);
 * pp_simjtag_cycle() is one whole clock for callers that think in cycles.
 *
 * APB timing: an AP access starts at Update-DR and needs apb_tck TCKs
 * (default 3) to complete; a DPACC/APACC scan whose Capture-DR comes
 * earlier gets ACK WAIT and is not accepted (spec 7.1).  The host meets
 * it with Run-Test/Idle cycles after the scan.  That is what makes the
 * "45 TCK per counter read" budget honest.
 *
 * The target's dp key may make the port a SW-DP or a SWJ-DP instead
 * (sim/swdp.h): the same object, the same DP/AP model (sim/dap.h), with
 * SWCLK on TCK and SWDIO on TMS.
 *
 * Not thread-safe, like the sim it drives.
 */
#ifndef PP_SIM_JTAG_H
#define PP_SIM_JTAG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sim/sim.h"

struct pp_simjtag;

/* Builds the TAP over sim (which must outlive it).  IDCODE from the
 * target's dp_idcode, the APB-AP at its ap_index.  NULL on failure. */
struct pp_simjtag *pp_simjtag_new(struct pp_sim *sim, char *err, size_t errlen);
void pp_simjtag_free(struct pp_simjtag *j);
struct pp_sim *pp_simjtag_sim(struct pp_simjtag *j);

/* Drives the pins; a TCK 0->1 transition clocks the TAP. */
void pp_simjtag_pins(struct pp_simjtag *j, bool tck, bool tms, bool tdi);
/* TDO as the TAP drives it now (what a host samples before raising TCK). */
bool pp_simjtag_tdo(const struct pp_simjtag *j);
/* One full clock: TCK low with tms/tdi, TDO sampled, TCK high.  Returns
 * the sampled TDO.  Equivalent to pins(0,..); tdo(); pins(1,..). */
bool pp_simjtag_cycle(struct pp_simjtag *j, bool tms, bool tdi);
/* n (at most 32) full clocks with TMS steady, TDI from bit i of tdi on
 * clock i; bit i of the result is the TDO sampled before clock i.  The
 * same as n pp_simjtag_cycle calls, but in Shift-DR or Shift-IR with TMS
 * low all n bits pass the chain at once (a byte shift of an MPSSE). */
uint32_t pp_simjtag_shift(struct pp_simjtag *j, bool tms, uint32_t tdi, unsigned n);
/* TRST asserted puts the TAP in Test-Logic-Reset; SRST asserted resets
 * the cores' PMU state as a warm reset would (the DP keeps its state). */
void pp_simjtag_reset(struct pp_simjtag *j, bool trst, bool srst);

/* DP-level faults ("WAIT for N accesses, error on an address"; address errors are pp_sim_set_addr_error on the sim). */
/* The next n DPACC/APACC scans that would be accepted answer WAIT. */
void pp_simjtag_set_wait(struct pp_simjtag *j, unsigned n);
/* A sticky overrun: STICKYORUN set as if ORUNDETECT had caught an
 * overrun; the DP discards APACCs until the host clears it (spec 7.2). */
void pp_simjtag_set_overrun(struct pp_simjtag *j);
/*
 * TCKs an AP access takes to complete (0 = immediately).  Exactly: the
 * access starts at Update-DR and a DPACC/APACC Capture-DR on the k-th
 * rising TCK edge after the one entering Update-DR answers WAIT while
 * k <= apb_tck (the window is k - 0.5 TCK periods after the Update-DR
 * falling edge; spec/ftdi-mpsse-jtag.md 4.2).  The direct path
 * Update-DR -> Select-DR-Scan has k = 3 (39 TCK per scan); through
 * Run-Test/Idle with r extra idle clocks k = 4 + r (40 + r TCK).  So the
 * default 3 needs the pass through Run-Test/Idle, and apb_tck = 3 + r
 * needs r idle clocks.
 */
void pp_simjtag_set_apb_tck(struct pp_simjtag *j, unsigned tck);

/* Called after each APB read the AP makes that got an OK response, with
 * its address and value: pmuprobe-sim --read-log dates them on the
 * server's clock, so a test can check a sample's time window against
 * when its read really happened.  NULL (the default) turns it off. */
typedef void (*pp_simjtag_read_fn)(void *arg, uint32_t addr, uint32_t value);
void pp_simjtag_set_read_hook(struct pp_simjtag *j, pp_simjtag_read_fn fn, void *arg);

struct pp_simjtag_stats {
    uint64_t tck;                 /* rising edges */
    uint64_t ir_scans, dr_scans;  /* Update-IR / Update-DR passes */
    uint64_t dpacc, apacc;        /* accepted DPACC / APACC transactions */
    uint64_t waits;               /* scans answered WAIT */
    uint64_t sticky;              /* STICKYERR set events */
    uint64_t ap_reads, ap_writes; /* APB accesses made by the AP */
    uint64_t resets;              /* TRST or TMS-reset entries to Test-Logic-Reset */
    uint64_t srst;                /* SRST assertions (warm resets of the cores) */
    uint64_t line_resets;         /* SWD line resets (swdp.h) */
    uint64_t swd_errors;          /* SWD protocol errors: packets left unanswered */
    uint64_t switches;            /* SWJ-DP wire switches (JTAG-to-SWD, SWD-to-JTAG) */
};
void pp_simjtag_get_stats(const struct pp_simjtag *j, struct pp_simjtag_stats *out);
void pp_simjtag_reset_stats(struct pp_simjtag *j);

#endif
