/*
 * emu-soc.h - the simulated SoC the USB-level emulators (tests/ftdi-emu,
 * tests/cmsisdap-emu) put behind their JTAG pins, built from the
 * environment: PMUPROBE_EMU_TARGET (default a76-cluster) and
 * PMUPROBE_EMU_SIM_FAULTS (comma-separated, as pmuprobe --fault takes).
 */
#ifndef EMU_SOC_H
#define EMU_SOC_H

#include <stdarg.h>
#include <stdio.h>

struct pp_target;
struct pp_sim;
struct pp_simjtag;

/* Fills *t, *sim and *jtag; on failure says why on stderr (prefixed by
 * who) and leaves the ones not built NULL: nothing wired to the pins. */
void emu_soc_build(const char *who, struct pp_target **t, struct pp_sim **sim,
                   struct pp_simjtag **jtag);

/* The environment variable name, or dflt when it is unset or empty: the
 * emulators' settings all read this way. */
const char *emu_env(const char *name, const char *dflt);

/* PMUPROBE_EMU_VIDPID ("VID:PID" in hex) into *vid and *pid, which hold
 * the emulator's defaults; a malformed value is said on stderr. */
void emu_env_vidpid(const char *who, unsigned *vid, unsigned *pid);

/* One line "who: ..." appended to log and flushed, so that a log read
 * while the host still runs is complete; nothing when log is NULL. */
void emu_vlog(FILE *log, const char *who, const char *fmt, va_list ap)
    __attribute__((format(printf, 3, 0)));

#endif
