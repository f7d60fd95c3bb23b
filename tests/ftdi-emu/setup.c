/*
 * setup.c - the emulator's one state: devices configured from the
 * environment (see emu.h), each with its own simulated SoC behind channel
 * A, a recursive lock, the trace and the counters written at exit.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "emu.h"
#include "../emu-soc.h"
#include "sim/swdp.h"
#include "sim/sim.h"
#include "target/target.h"

static pthread_mutex_t emu_mutex = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP;
static struct emu state = { .reject = -1 };
static uint64_t transfers_started;

struct chip_kind {
    const char *name;
    uint16_t pid, bcd;
    unsigned nif;
    size_t fifo;
    const char *product;
};

/* spec/ftdi-mpsse-jtag.md 2.6 */
static const struct chip_kind kinds[] = {
    { "2232h", 0x6010, 0x0700, 2, 4096, "Dual RS232-HS" },
    { "4232h", 0x6011, 0x0800, 4, 2048, "Quad RS232-HS" },
    { "232h",  0x6014, 0x0900, 1, 1024, "Single RS232-HS" },
};

void emu_lock(void)
{
    pthread_mutex_lock(&emu_mutex);
}

void emu_unlock(void)
{
    pthread_mutex_unlock(&emu_mutex);
}

uint64_t emu_now_ms(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

void emu_log(const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    emu_vlog(state.log, "ftdi-emu", fmt, ap);
    va_end(ap);
}

static const struct chip_kind *chip_kind(const char *dflt)
{
    const char *name = emu_env("PMUPROBE_EMU_CHIP", dflt);

    for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
        if (strcmp(kinds[i].name, name) == 0)
            return &kinds[i];
    fprintf(stderr, "ftdi-emu: PMUPROBE_EMU_CHIP=%s: expected 2232h, 4232h or 232h\n", name);
    return &kinds[0];
}

static void read_fault(struct emu *e)
{
    const char *f = emu_env("PMUPROBE_EMU_FAULT", "");

    if (strcmp(f, "absent") == 0)
        e->fault = FAULT_ABSENT;
    else if (strcmp(f, "access") == 0)
        e->fault = FAULT_ACCESS;
    else if (strcmp(f, "busy") == 0)
        e->fault = FAULT_BUSY;
    else if (strncmp(f, "unplug:", 7) == 0)
        e->unplug_after = strtoull(f + 7, NULL, 0);
    else if (strncmp(f, "unplug@", 7) == 0 && strtoull(f + 7, NULL, 0) > 0)
        e->unplug_at_ms = emu_now_ms() + strtoull(f + 7, NULL, 0);
    else if (strncmp(f, "reject:", 7) == 0)
        e->reject = (int)strtol(f + 7, NULL, 0);
    else if (*f)
        fprintf(stderr, "ftdi-emu: PMUPROBE_EMU_FAULT=%s: expected absent, access, busy, "
                "unplug:N, unplug@MS or reject:0xNN\n", f);
}

/* The simulated SoC behind channel A of device d. */
static void build_soc(struct emu_device *d)
{
    emu_soc_build("ftdi-emu", &d->target, &d->sim, &d->jtag);
    /* SWDIO on DO and DI, as SWD adapter boards wire it (sim/swdp.h). */
    if (d->jtag && strcmp(emu_env("PMUPROBE_EMU_SWDIO", "tms"), "tdi") == 0)
        pp_simswd_set_swdio_pin(d->jtag, PP_SWDIO_ON_TDI);
}

/* "wired:ntrst=MASK,nsrst=MASK": a board of the test's own making whose
 * reset lines are those pins, pulled low while driven low (a custom
 * --adapter layout seen from the target's side). */
static const struct emu_board *wired_board(const char *spec)
{
    static struct emu_board b = { .name = "wired", .chip = "2232h", .vid = 0x0403,
                                  .pid = 0x6010, .product = "Dual RS232-HS" };
    char buf[128];

    /* b outlives emu_restart(): a pin the previous spec wired and this
     * one does not name must not stay wired. */
    b.ntrst = b.nsrst = (struct emu_wire){ 0 };
    snprintf(buf, sizeof(buf), "%s", spec);
    for (char *save = NULL, *f = strtok_r(buf, ",", &save); f; f = strtok_r(NULL, ",", &save)) {
        struct emu_wire *w = strncmp(f, "ntrst=", 6) == 0 ? &b.ntrst :
                             strncmp(f, "nsrst=", 6) == 0 ? &b.nsrst : NULL;

        if (!w) {
            fprintf(stderr, "ftdi-emu: PMUPROBE_EMU_ADAPTER=wired:%s: '%s' is not "
                    "ntrst=MASK or nsrst=MASK\n", spec, f);
            continue;
        }
        *w = (struct emu_wire){ (uint16_t)strtoul(f + 6, NULL, 0), false, 0, false };
    }
    return &b;
}

/* The board PMUPROBE_EMU_ADAPTER names, NULL when none is named. */
static const struct emu_board *named_board(void)
{
    const char *name = emu_env("PMUPROBE_EMU_ADAPTER", NULL);
    const struct emu_board *b;

    if (name && strncmp(name, "wired:", 6) == 0)
        return wired_board(name + 6);
    b = emu_board_find(name);

    if (name && !b)
        fprintf(stderr, "ftdi-emu: PMUPROBE_EMU_ADAPTER=%s: unknown board (see board.c); "
                "emulating the chip's bare module\n", name);
    return b;
}

/* named: the board PMUPROBE_EMU_ADAPTER named, whose identity is the
 * default; else the chip's. */
static void init_device(struct emu_device *d, unsigned i, const struct chip_kind *k,
                        const struct emu_board *named)
{
    unsigned vid = named ? named->vid : 0x0403, pid = named ? named->pid : k->pid;

    emu_env_vidpid("ftdi-emu", &vid, &pid);
    d->index = i;
    d->vid = (uint16_t)vid;
    d->pid = (uint16_t)pid;
    d->bcd = k->bcd;
    d->nif = k->nif;
    d->fifo = k->fifo;
    d->bus = 1;
    d->address = (uint8_t)(2 + i);
    d->port = (uint8_t)(1 + i);
    snprintf(d->manufacturer, sizeof(d->manufacturer), "FTDI");
    snprintf(d->product, sizeof(d->product), "%s",
             emu_env("PMUPROBE_EMU_PRODUCT", named ? named->product : k->product));
    if (i == 0)
        snprintf(d->serial, sizeof(d->serial), "%s", emu_env("PMUPROBE_EMU_SERIAL", "PMUEMU01"));
    else    /* 20 characters, '-' and 10 digits fit serial[32] */
        snprintf(d->serial, sizeof(d->serial), "%.20s-%u",
                 emu_env("PMUPROBE_EMU_SERIAL", "PMUEMU01"), i + 1);
    build_soc(d);
    for (unsigned c = 0; c < d->nif; c++) {
        d->ch[c].dev = d;
        d->ch[c].index = c;
        d->ch[c].latency_ms = 16;
        d->ch[c].tap = c == 0 ? d->jtag : NULL;
        chip_reset_channel(&d->ch[c]);
    }
}

/* Out of line: emu_get runs for every TCK, and with setup inlined it
 * would save and restore registers on each call. */
__attribute__((cold, noinline)) static void setup(struct emu *e)
{
    const struct emu_board *named = named_board();
    const struct chip_kind *k = chip_kind(named ? named->chip : "2232h");
    const char *log = emu_env("PMUPROBE_EMU_LOG", NULL);
    unsigned count = (unsigned)strtoul(emu_env("PMUPROBE_EMU_COUNT", "1"), NULL, 0);

    e->ready = true;
    e->reject = -1;
    if (log)
        e->log = fopen(log, "a");
    snprintf(e->stats_path, sizeof(e->stats_path), "%s", emu_env("PMUPROBE_EMU_STATS", ""));
    e->board = named ? named : emu_board_for_chip(k->name);
    e->last_divisor = -1;
    e->realtime = strcmp(emu_env("PMUPROBE_EMU_REALTIME", "0"), "1") == 0;
    if (strcmp(emu_env("PMUPROBE_EMU_REALTIME", "0"), "0") != 0 && !e->realtime)
        fprintf(stderr, "ftdi-emu: PMUPROBE_EMU_REALTIME=%s: expected 1 (real time) or 0\n",
                emu_env("PMUPROBE_EMU_REALTIME", ""));
    read_fault(e);
    e->ndev = count < 1 ? 1 : count > EMU_MAX_DEVICES ? EMU_MAX_DEVICES : count;
    for (unsigned i = 0; i < e->ndev; i++)
        init_device(&e->dev[i], i, k, named);
}

struct emu *emu_get(void)
{
    if (!state.ready)
        setup(&state);
    return &state;
}

void emu_count_bulk(bool in)
{
    struct emu *e = emu_get();

    (void)in;
    transfers_started++;
    if (e->unplug_at_ms && emu_now_ms() >= e->unplug_at_ms && !e->dev[0].unplugged) {
        emu_log("unplugged at its time, after %llu bulk transfers",
                (unsigned long long)transfers_started);
        for (unsigned i = 0; i < e->ndev; i++)
            e->dev[i].unplugged = true;
    }
    if (e->unplug_after && transfers_started > e->unplug_after && !e->dev[0].unplugged) {
        emu_log("unplugged after %llu bulk transfers", (unsigned long long)e->unplug_after);
        for (unsigned i = 0; i < e->ndev; i++)
            e->dev[i].unplugged = true;
    }
}

/* Ticks of 60 MHz as ns. */
static unsigned long long tick_ns(uint64_t ticks)
{
    return (unsigned long long)(ticks / 3u * 50u + ticks % 3u * 50u / 3u);
}

/* The real-time model's accounting (rt.c says what each means). */
static void write_rt_stats(FILE *f, const struct emu *e)
{
    const struct emu_counters *n = &e->n;
    bool spanned = n->model_end > n->model_start;

    fprintf(f, "realtime=%d\ntck_hz=%llu\ntck_ns=%llu\nmodel_ns=%llu\nwall_ns=%llu\n"
            "packets_out=%llu\npackets_in=%llu\nuframes_out=%llu\nuframes_in=%llu\n",
            e->realtime ? 1 : 0,
            n->last_tck_ticks ? (unsigned long long)(EMU_TICK_HZ / n->last_tck_ticks) : 0ull,
            tick_ns(n->tck_ticks), spanned ? tick_ns(n->model_end - n->model_start) : 0ull,
            spanned ? tick_ns(n->wall_end - n->model_start) : 0ull,
            (unsigned long long)n->packets_out, (unsigned long long)n->packets_in,
            (unsigned long long)n->uframes_out, (unsigned long long)n->uframes_in);
    fprintf(f, "idle_out_ns=%llu\nidle_host_ns=%llu\nstall_tx_ns=%llu\nin_wait_ns=%llu\n"
            "in_full=%llu\nin_flush=%llu\nin_timer=%llu\nmax_pending_out=%llu\n"
            "max_pending_in=%llu\n",
            tick_ns(n->idle_out_ticks), tick_ns(n->idle_host_ticks), tick_ns(n->stall_tx_ticks),
            tick_ns(n->in_wait_ticks), (unsigned long long)n->in_full,
            (unsigned long long)n->in_flush, (unsigned long long)n->in_timer,
            (unsigned long long)n->max_pending_out, (unsigned long long)n->max_pending_in);
}

static void write_stats(const struct emu *e)
{
    FILE *f = fopen(e->stats_path, "w");
    struct pp_simjtag_stats js = { 0 };
    struct pp_sim_stats ss = { 0 };

    if (!f)
        return;
    if (e->dev[0].jtag)
        pp_simjtag_get_stats(e->dev[0].jtag, &js);
    if (e->dev[0].sim)
        pp_sim_get_stats(e->dev[0].sim, &ss);
    fprintf(f, "bulk_out=%llu\nbulk_in=%llu\nbytes_out=%llu\nbytes_in=%llu\n"
            "status_only=%llu\ncontrol=%llu\ncommands=%llu\nbad_commands=%llu\ntck=%llu\n"
            "send_immediate=%llu\n",
            (unsigned long long)e->n.bulk_out, (unsigned long long)e->n.bulk_in,
            (unsigned long long)e->n.bytes_out, (unsigned long long)e->n.bytes_in,
            (unsigned long long)e->n.status_only, (unsigned long long)e->n.control,
            (unsigned long long)e->n.commands, (unsigned long long)e->n.bad_commands,
            (unsigned long long)e->n.tck, (unsigned long long)e->n.send_immediate);
    fprintf(f, "dr_scans=%llu\nir_scans=%llu\ndpacc=%llu\napacc=%llu\nwaits=%llu\n"
            "sticky=%llu\nap_reads=%llu\nap_writes=%llu\n",
            (unsigned long long)js.dr_scans, (unsigned long long)js.ir_scans,
            (unsigned long long)js.dpacc, (unsigned long long)js.apacc,
            (unsigned long long)js.waits, (unsigned long long)js.sticky,
            (unsigned long long)js.ap_reads, (unsigned long long)js.ap_writes);
    fprintf(f, "faults=%llu\n", (unsigned long long)ss.faults);
    fprintf(f, "swdio_fights=%llu\nswdio_releases=%llu\n",
            (unsigned long long)e->n.swdio_fights, (unsigned long long)e->n.swdio_releases);
    fprintf(f, "divisor=%d\ntrst_asserts=%llu\nsrst_asserts=%llu\n", (int)e->last_divisor,
            (unsigned long long)e->trst_asserts, (unsigned long long)e->srst_asserts);
    write_rt_stats(f, e);
    fclose(f);
}

static void teardown_state(struct emu *e)
{
    if (!e->ready)
        return;
    if (e->stats_path[0])
        write_stats(e);
    for (unsigned i = 0; i < e->ndev; i++) {
        pp_simjtag_free(e->dev[i].jtag);
        pp_sim_free(e->dev[i].sim);
        pp_target_free(e->dev[i].target);
    }
    if (e->log)
        fclose(e->log);
    memset(e, 0, sizeof(*e));
    transfers_started = 0;
}

void emu_restart(void)
{
    emu_lock();
    teardown_state(&state);
    emu_unlock();
}

/* At exit: the counters, then everything freed (valgrind checks the
 * emulator too). */
__attribute__((destructor)) static void teardown(void)
{
    teardown_state(&state);
}
