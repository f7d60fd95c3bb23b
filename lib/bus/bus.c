/*
 * bus.c - the generic half of struct pp_bus: statistics, single-access
 * helpers and error detail.  The paths live in their own files.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bus/bus.h"
#include "clock.h"
#include "trace.h"

struct pp_bus *pp_bus_new(const struct pp_bus_ops *ops, void *priv)
{
    struct pp_bus *bus = calloc(1, sizeof(*bus));

    if (!bus)
        return NULL;
    bus->ops = ops;
    bus->priv = priv;
    return bus;
}

void pp_bus_set_errmsg(struct pp_bus *bus, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(bus->errmsg, sizeof(bus->errmsg), fmt, ap);
    va_end(ap);
    bus->errseq++;
}

void pp_bus_set_trace(struct pp_bus *bus, struct pp_trace *tr)
{
    if (bus->ops->set_trace)
        bus->ops->set_trace(bus, tr);
    if (bus->trace != tr)
        pp_trace_free(bus->trace);
    bus->trace = tr;
}

/* The APB records come after the path ran the batch: below them, in
 * order, the DP and wire records of the round trip that carried it.  An
 * op a repetition did not carry (once) was no access. */
static void trace_ops(struct pp_bus *bus, const struct pp_op *ops, size_t n)
{
    if (!pp_trace_on(bus->trace, PP_TRACE_APB))
        return;
    for (size_t i = 0; i < n; i++)
        if (ops[i].st != PP_OP_SKIPPED)
            pp_trace_apb(bus->trace, &ops[i]);
}

static uint64_t count_skipped(const struct pp_op *ops, size_t n)
{
    uint64_t k = 0;

    for (size_t i = 0; i < n; i++)
        k += ops[i].st == PP_OP_SKIPPED;
    return k;
}

int pp_bus_run(struct pp_bus *bus, struct pp_op *ops, size_t n)
{
    int rc;

    if (!bus || (!ops && n))
        return PP_E_INVAL;
    for (size_t i = 0; i < n; i++)
        ops[i].st = PP_OP_PENDING;
    bus->stats.batches++;
    bus->stats.ops += n;
    rc = bus->ops->run(bus, ops, n);
    trace_ops(bus, ops, n);
    return rc;
}

int pp_bus_run_repeat(struct pp_bus *bus, struct pp_op *ops, size_t n, unsigned count,
                      uint64_t interval_ns, uint64_t *t_ns)
{
    return pp_bus_run_repeat_window(bus, ops, n, count, interval_ns, t_ns, NULL);
}

/* Whether the path dated every repetition of a call that ran [lo, hi]:
 * inside it, within its window, windows in order (run_repeat's contract,
 * bus.h).  A call that failed as a whole (a reply that does not parse, a
 * lost link) leaves them as pp_bus_run_repeat_window cleared them, 0. */
static bool dated(const uint64_t *t, const struct pp_bus_window *w, unsigned count,
                  uint64_t lo, uint64_t hi)
{
    for (unsigned k = 0; k < count; k++) {
        if (t[k] < lo || t[k] > hi)
            return false;
        if (w && (w[k].lo < lo || w[k].hi > hi || t[k] < w[k].lo || t[k] > w[k].hi ||
                  (k && (w[k].lo < w[k - 1].lo || w[k].hi < w[k - 1].hi))))
            return false;
    }
    return true;
}

/* Undated repetitions each get the whole call as their window and dates
 * spread evenly over it, so their records never go back in time, as an
 * earlier call's dates would make them. */
static void date_evenly(uint64_t *t, struct pp_bus_window *w, unsigned count, uint64_t lo,
                        uint64_t hi)
{
    for (unsigned k = 0; k < count; k++) {
        t[k] = lo + (hi - lo) * k / count;
        if (w)
            w[k] = (struct pp_bus_window){ lo, hi };
    }
}

int pp_bus_run_repeat_window(struct pp_bus *bus, struct pp_op *ops, size_t n, unsigned count,
                             uint64_t interval_ns, uint64_t *t_ns, struct pp_bus_window *win)
{
    uint64_t lo, hi;
    int rc;

    if (!bus || !ops || !n || !count || !t_ns)
        return PP_E_INVAL;
    if (!bus->ops->run_repeat)
        return PP_E_UNSUPPORTED;
    for (size_t i = 0; i < n * count; i++)
        ops[i].st = PP_OP_PENDING;
    bus->stats.batches += count;
    bus->stats.ops += n * count;
    /* 0 is before any call: what the path leaves undated fails dated(),
     * which then never reads the caller's uninitialised memory. */
    memset(t_ns, 0, count * sizeof(*t_ns));
    if (win)
        memset(win, 0, count * sizeof(*win));
    lo = pp_mono_ns();
    rc = bus->ops->run_repeat(bus, ops, n, count, interval_ns, t_ns, win);
    hi = pp_mono_ns();
    if (!dated(t_ns, win, count, lo, hi))
        date_evenly(t_ns, win, count, lo, hi);
    bus->stats.ops -= count_skipped(ops, n * count);
    trace_ops(bus, ops, n * count);
    return rc;
}

int pp_bus_read32(struct pp_bus *bus, uint32_t addr, uint32_t *val)
{
    struct pp_op op = { .addr = addr, .write = 0 };
    int rc = pp_bus_run(bus, &op, 1);

    if (rc == PP_OK)
        *val = op.rdata;
    return rc;
}

int pp_bus_write32(struct pp_bus *bus, uint32_t addr, uint32_t val)
{
    struct pp_op op = { .addr = addr, .wdata = val, .write = 1 };

    return pp_bus_run(bus, &op, 1);
}

void pp_bus_get_stats(const struct pp_bus *bus, struct pp_bus_stats *out)
{
    *out = bus->stats;
}

const char *pp_bus_name(const struct pp_bus *bus)
{
    return bus->name ? bus->name : bus->ops->name;
}

const char *pp_bus_errmsg(const struct pp_bus *bus)
{
    return bus->errmsg;
}

void pp_bus_close(struct pp_bus *bus)
{
    if (!bus)
        return;
    if (bus->ops->close)
        bus->ops->close(bus);
    pp_trace_free(bus->trace);
    free(bus);
}

/* spec/arm-pmu-coresight.md 6.1: BASE[1] = 1 is the ADIv5 format, whose
 * bit 0 says whether debug entries are present; the legacy format has
 * only the "no entries" value 0xFFFFFFFF (any other value is an address). */
int pp_bus_rom_base(const struct pp_bus *bus, uint32_t *rom)
{
    uint32_t base;

    if (!bus || !bus->ap.known)
        return PP_E_NOTFOUND;
    base = bus->ap.base;
    if (base == 0xFFFFFFFFu || ((base & 0x2u) && !(base & 0x1u)))
        return PP_E_NOTFOUND;
    *rom = base & 0xFFFFF000u;
    return PP_OK;
}
