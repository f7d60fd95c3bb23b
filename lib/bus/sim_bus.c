/*
 * sim_bus.c - the in-process access path: each operation of a batch is one
 * APB access of the simulated SoC.  No link, so no round trips: the
 * batch/op counters in pp_bus_stats are the whole cost.
 */
#include "bus/bus.h"
#include "sim/sim.h"

static int sim_bus_run(struct pp_bus *bus, struct pp_op *ops, size_t n)
{
    struct pp_sim *sim = bus->priv;
    int first = PP_OK;

    pp_sim_hold_time(sim, true);
    for (size_t i = 0; i < n; i++) {
        struct pp_op *op = &ops[i];

        if (op->write)
            op->st = (uint8_t)pp_sim_apb_write(sim, op->addr, op->wdata);
        else
            op->st = (uint8_t)pp_sim_apb_read(sim, op->addr, &op->rdata);
        if (op->st != PP_OP_OK && first == PP_OK)
            first = pp_op_status_err(op->st);
    }
    pp_sim_hold_time(sim, false);
    return first;
}

/* The sim belongs to the caller, who may share it with other paths. */
static void sim_bus_close(struct pp_bus *bus)
{
    (void)bus;
}

static const struct pp_bus_ops sim_bus_ops = {
    .name = "sim",
    .run = sim_bus_run,
    .close = sim_bus_close,
};

/* No DAP in process: the AP facts are the ones the simulated DAP serves
 * over JTAG (lib/sim/jtag_dp.c), so discovery sees the same SoC either way. */
struct pp_bus *pp_bus_sim_new(struct pp_sim *sim)
{
    const struct pp_target *t = pp_sim_target(sim);
    struct pp_bus *bus = pp_bus_new(&sim_bus_ops, sim);

    if (bus && t)
        bus->ap = (struct pp_bus_ap){ .known = true, .apsel = t->ap_index, .idr = t->ap_idr,
                                      .base = t->rom_base | 0x3u };
    return bus;
}
