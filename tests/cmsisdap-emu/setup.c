/*
 * setup.c - the emulator's one state (emu.h): the probe configured from
 * the environment, its simulated SoC, a recursive lock, the clock, the
 * trace and the counters written at exit.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "emu.h"
#include "../emu-soc.h"
#include "sim/sim.h"
#include "target/target.h"

static pthread_mutex_t dap_mutex = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP;
static struct dap state;

void dap_lock(void)
{
    pthread_mutex_lock(&dap_mutex);
}

void dap_unlock(void)
{
    pthread_mutex_unlock(&dap_mutex);
}

uint64_t dap_now_ns(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

void dap_sleep_until_ns(uint64_t t)
{
    struct timespec ts = { .tv_sec = (time_t)(t / 1000000000u),
                           .tv_nsec = (long)(t % 1000000000u) };

    while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
        ;
}

uint32_t dap_timer(const struct dap *d)
{
    uint64_t ns = dap_now_ns() - d->start_ns;
    uint64_t ticks = ns / 1000000000u * d->timer_hz + ns % 1000000000u * d->timer_hz / 1000000000u;

    return (uint32_t)(ticks / d->timer_slow);       /* wraps, as a 32-bit timer does */
}

void dap_log(const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    emu_vlog(state.log, "cmsisdap-emu", fmt, ap);
    va_end(ap);
}

static unsigned env_uint(const char *name, unsigned dflt, unsigned lo, unsigned hi)
{
    unsigned v = (unsigned)strtoul(emu_env(name, ""), NULL, 0);

    if (!getenv(name) || !*getenv(name))
        return dflt;
    if (v < lo || v > hi) {
        fprintf(stderr, "cmsisdap-emu: %s=%u: expected %u..%u\n", name, v, lo, hi);
        return dflt;
    }
    return v;
}

static void unplug_setup(struct dap *d)
{
    const char *f = emu_env("PMUPROBE_EMU_FAULT", "");
    unsigned long long ms = strtoull(f + (strncmp(f, "unplug@", 7) == 0 ? 7 : 0), NULL, 0);

    if (!*f)
        return;
    if (strncmp(f, "unplug@", 7) != 0 || ms == 0) {
        fprintf(stderr, "cmsisdap-emu: PMUPROBE_EMU_FAULT=%s: expected unplug@MS\n", f);
        return;
    }
    d->unplug_at_ns = d->start_ns + ms * 1000000u;
}

bool dap_unplug_due(struct dap *d)
{
    if (!d->unplugged && d->unplug_at_ns && dap_now_ns() >= d->unplug_at_ns) {
        dap_log("unplugged at its time, after %llu packets out",
                (unsigned long long)d->n.bulk_out);
        d->unplugged = true;
    }
    return d->unplugged;
}

__attribute__((cold, noinline)) static void setup(struct dap *d)
{
    const char *log = emu_env("PMUPROBE_EMU_LOG", NULL);
    unsigned vid = 0x0D28, pid = 0x0204;      /* DAPLink (spec 1.1) */

    d->ready = true;
    emu_env_vidpid("cmsisdap-emu", &vid, &pid);
    d->vid = (uint16_t)vid;
    d->pid = (uint16_t)pid;
    snprintf(d->serial, sizeof(d->serial), "%s", emu_env("PMUPROBE_EMU_SERIAL", "PMUDAP01"));
    d->count = env_uint("PMUPROBE_EMU_DAP_COUNT", 4, 1, DAP_MAX_COUNT);
    d->size = env_uint("PMUPROBE_EMU_DAP_SIZE", 512, 64, DAP_MAX_PACKET);
    d->realtime = strcmp(emu_env("PMUPROBE_EMU_REALTIME", "0"), "1") == 0;
    d->timer_hz = env_uint("PMUPROBE_EMU_TIMER_HZ", DAP_TIMER_HZ, 0, 1000000000u);
    d->timer_slow = env_uint("PMUPROBE_EMU_TIMER_SLOW", 1, 1, 1000);
    if (log)
        d->log = fopen(log, "a");
    snprintf(d->stats_path, sizeof(d->stats_path), "%s", emu_env("PMUPROBE_EMU_STATS", ""));
    /* The reference firmware's defaults (spec 2.6). */
    d->clock_hz = 1000000u;
    d->wait_retry = 100;
    d->turnaround = 1;
    d->match_mask = 0xFFFFFFFFu;
    d->ntaps = 1;
    d->irlen[0] = 4;
    d->state = PP_TAP_UNKNOWN;
    d->ntrst = d->nreset = true;
    d->start_ns = dap_now_ns();
    unplug_setup(d);
    emu_soc_build("cmsisdap-emu", &d->target, &d->sim, &d->tap);
}

struct dap *dap_get(void)
{
    if (!state.ready)
        setup(&state);
    return &state;
}

static void write_stats(const struct dap *d)
{
    FILE *f = fopen(d->stats_path, "w");
    const struct dap_counters *n = &d->n;
    struct pp_simjtag_stats js = { 0 };

    if (!f)
        return;
    if (d->tap)
        pp_simjtag_get_stats(d->tap, &js);
    fprintf(f, "bulk_out=%llu\nbulk_in=%llu\ncommands=%llu\ninvalid=%llu\ntransfers=%llu\n"
            "transfer_blocks=%llu\njtag_sequences=%llu\nqueued=%llu\nscans=%llu\n"
            "waits=%llu\ntimestamps=%llu\ntck=%llu\nmax_in_flight=%llu\nclock_hz=%u\n"
            "realtime=%d\nmodel_ns=%llu\napacc=%llu\nap_reads=%llu\nswd_sequences=%llu\n"
            "port=%u\nround_trips=%llu\ntimer_hz=%u\nsticky=%llu\n",
            (unsigned long long)n->bulk_out, (unsigned long long)n->bulk_in,
            (unsigned long long)n->commands, (unsigned long long)n->invalid,
            (unsigned long long)n->transfers, (unsigned long long)n->transfer_blocks,
            (unsigned long long)n->jtag_sequences, (unsigned long long)n->queued,
            (unsigned long long)n->scans, (unsigned long long)n->waits,
            (unsigned long long)n->timestamps, (unsigned long long)n->tck,
            (unsigned long long)n->max_in_flight, d->clock_hz, d->realtime ? 1 : 0,
            (unsigned long long)n->model_ns, (unsigned long long)js.apacc,
            (unsigned long long)js.ap_reads, (unsigned long long)n->swd_sequences,
            (unsigned)d->port, (unsigned long long)n->round_trips, d->timer_hz,
            (unsigned long long)js.sticky);
    fclose(f);
}

/* At exit: the counters, then everything freed (valgrind checks the
 * emulator too). */
__attribute__((destructor)) static void teardown(void)
{
    struct dap *d = &state;

    if (!d->ready)
        return;
    if (d->stats_path[0])
        write_stats(d);
    pp_simjtag_free(d->tap);
    pp_sim_free(d->sim);
    pp_target_free(d->target);
    if (d->log)
        fclose(d->log);
    memset(d, 0, sizeof(*d));
}
