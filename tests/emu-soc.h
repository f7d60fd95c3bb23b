/*
 * emu-soc.h - the simulated SoC the USB-level emulators (tests/ftdi-emu,
 * tests/cmsisdap-emu) put behind their JTAG pins, built from the
 * environment: PMUPROBE_EMU_TARGET (default a76-cluster) and
 * PMUPROBE_EMU_SIM_FAULTS (comma-separated, as pmuprobe --fault takes).
 */
#ifndef EMU_SOC_H
#define EMU_SOC_H

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

#endif
