/*
 * emu-soc.c - the simulated SoC behind an emulator's JTAG pins (emu-soc.h).
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emu-soc.h"
#include "sim/jtag.h"
#include "sim/sim.h"
#include "target/target.h"

const char *emu_env(const char *name, const char *dflt)
{
    const char *v = getenv(name);

    return v && *v ? v : dflt;
}

void emu_env_vidpid(const char *who, unsigned *vid, unsigned *pid)
{
    const char *vp = emu_env("PMUPROBE_EMU_VIDPID", NULL);

    if (vp && sscanf(vp, "%x:%x", vid, pid) != 2)
        fprintf(stderr, "%s: PMUPROBE_EMU_VIDPID=%s: expected VID:PID in hex\n", who, vp);
}

void emu_vlog(FILE *log, const char *who, const char *fmt, va_list ap)
{
    if (!log)
        return;
    fprintf(log, "%s: ", who);
    vfprintf(log, fmt, ap);
    fputc('\n', log);
    fflush(log);
}

static void apply_faults(const char *who, struct pp_sim *sim)
{
    /* A copy of any length: a soak's schedule runs to kilobytes. */
    char *buf = strdup(emu_env("PMUPROBE_EMU_SIM_FAULTS", "")), err[512];

    if (!buf) {
        fprintf(stderr, "%s: PMUPROBE_EMU_SIM_FAULTS: out of memory\n", who);
        return;
    }
    for (char *save = NULL, *f = strtok_r(buf, ",", &save); f; f = strtok_r(NULL, ",", &save))
        if (pp_sim_apply_fault(sim, f, err, sizeof(err)) != PP_OK)
            fprintf(stderr, "%s: PMUPROBE_EMU_SIM_FAULTS: %s\n", who, err);
    free(buf);
}

void emu_soc_build(const char *who, struct pp_target **t, struct pp_sim **sim,
                   struct pp_simjtag **jtag)
{
    const char *name = emu_env("PMUPROBE_EMU_TARGET", "a76-cluster");
    char path[512], err[512];

    *t = NULL;
    *sim = NULL;
    *jtag = NULL;
    if (pp_target_find(name, path, sizeof(path)) != PP_OK ||
        pp_target_load(path, t, err, sizeof(err)) != PP_OK) {
        fprintf(stderr, "%s: target '%s' not found or invalid: nothing wired to the "
                "JTAG pins\n", who, name);
        return;
    }
    *sim = pp_sim_new(*t, err, sizeof(err));
    if (*sim)
        *jtag = pp_simjtag_new(*sim, err, sizeof(err));
    if (!*jtag) {
        fprintf(stderr, "%s: cannot build the simulated SoC: %s\n", who, err);
        return;
    }
    apply_faults(who, *sim);
}
