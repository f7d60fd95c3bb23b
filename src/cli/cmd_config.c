/*
 * cmd_config.c - `pmuprobe config`: program, start, stop and show the
 * counters of a set of cores, without taking counters that on-target
 * software is using.
 *
 * Per core: one batch of reads decides who owns the PMU (counters in use,
 * claim tags), then one batch of writes does the whole step.  Events are
 * resolved and allocated for every core before anything is written, so a
 * typo or too many events writes nothing.
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bus/bus.h"
#include "cli.h"
#include "json.h"
#include "pmu/diag.h"
#include "pmu/program.h"
#include "pmu/regs.h"

#define MAX_SIM_SOFTWARE 8

void help_config(FILE *out)
{
    fprintf(out,
        "Usage: pmuprobe [OPTIONS] config [-c CPUS] -e EVENTS [--no-start] [--steal]\n"
        "       pmuprobe [OPTIONS] config [-c CPUS] [--start|--stop] [--reset] [--release]\n"
        "                                 [--steal]\n"
        "       pmuprobe [OPTIONS] config [-c CPUS] [--observe] [-e EVENTS]\n"
        "       (each form takes -j, --json)\n"
        "Program the counters of each core and leave them counting, for a later\n"
        "'read', 'stream' or an OpenOCD/perf user to pick up.  With no action,\n"
        "show how the counters are programmed now (as --observe).\n"
        "  -c, --cpu CPUS      cores (default all): 0-3, 0,2, cpu1, all\n"
        "  -e, --events LIST   comma-separated events, as for 'stream': cycles goes\n"
        "                      to the cycle counter, the others to PMEVCNTR0, 1, ...\n"
        "                      in order; Arm mnemonics, perf names, raw r0x42,\n"
        "                      modifiers :u :k :h.  Claims the PMU, writes PMEVTYPER<n>\n"
        "                      and PMCCFILTR, zeroes and starts the counters\n"
        "      --no-start      with -e: program and zero, but leave PMCR.E clear\n"
        "      --start         set PMCR.E: the enabled counters count\n"
        "      --stop          clear PMCR.E, disable every counter (values are kept\n"
        "                      for 'read') and release the claim\n"
        "      --reset         zero every counter (PMCR.P and PMCR.C); with --start\n"
        "                      both happen in one PMCR write\n"
        "      --release       clear pmuprobe's claim tag only\n"
        "      --steal         take counters that on-target software is using\n"
        "      --observe       read only, never write: each counter's event, whether\n"
        "                      it counts, its value, the claim tags and who owns the\n"
        "                      PMU; with -e also what would be programmed\n"
        "  -j, --json          one JSON document on stdout instead of the text: the\n"
        "                      action and per core cpu, type, ok, and what was\n"
        "                      programmed (counter, event, code, register, value),\n"
        "                      controlled (actions), or observed (PMCR, PMCNTENSET,\n"
        "                      claim, owner, each counter's state, event and value)\n"
        "      --sim-software SPEC  sim only: before the command, act as on-target\n"
        "                      software on a core: cpuN:EVENTS programs and starts\n"
        "                      EVENTS (as perf would), cpuN:claim sets the\n"
        "                      self-hosted claim tag (repeatable)\n"
        "Ownership: before writing, each core's PMCR, PMCNTENSET, PMEVTYPER<n>,\n"
        "PMCCFILTR and claim tags are read.  Counters enabled with PMCR.E set or with\n"
        "an event programmed are in use; so is the whole PMU when self-hosted\n"
        "software holds claim tag 1.  Such a core is refused (the counters, their\n"
        "events and the register values are named) unless --steal.  pmuprobe sets\n"
        "claim tag 0 (external debugger) while it owns the counters; counters in use\n"
        "under tag 0 alone are taken as an earlier pmuprobe's.  A running stream also\n"
        "holds tag 2 or 3: every action but --observe is then refused unless --steal.\n"
        "Claim tags are the CoreSight/Linux convention, not an architectural lock.\n"
        "Exit status: 0 done, 1 a core was refused or failed (the others are still\n"
        "done), 2 bad arguments, unknown events or too many events.\n");
}

enum action { ACT_SHOW, ACT_PROGRAM, ACT_CONTROL };

struct config_opts {
    const char *cpus, *events;
    const char *sim_software[MAX_SIM_SOFTWARE];
    unsigned nsim_software;
    unsigned ctl;                    /* PP_CTL_START/STOP/RESET/RELEASE asked for */
    bool steal, observe, no_start, json;
};

struct config_core {
    const struct pp_core_desc *core;
    struct pp_pmu_prog prog;
};

/* ---- arguments --------------------------------------------------------------- */

enum { OPT_START = 256, OPT_STOP, OPT_RESET, OPT_RELEASE, OPT_NO_START, OPT_SIM_SOFTWARE,
       OPT_STEAL, OPT_OBSERVE };

static int check_combination(const struct config_opts *co)
{
    if ((co->ctl & PP_CTL_START) && (co->ctl & PP_CTL_STOP)) {
        cli_error("config: --start and --stop exclude each other");
        return EXIT_USAGE;
    }
    if (co->events && (co->ctl & (PP_CTL_STOP | PP_CTL_RELEASE))) {
        cli_error("config: -e programs and starts counters; it cannot go with --stop or "
                  "--release (stop first, then program)");
        return EXIT_USAGE;
    }
    if (co->no_start && (!co->events || (co->ctl & PP_CTL_START))) {
        cli_error("config: --no-start goes with -e and without --start");
        return EXIT_USAGE;
    }
    if (co->observe && co->ctl) {
        cli_error("config: --observe never writes; it cannot go with --start, --stop, "
                  "--reset or --release");
        return EXIT_USAGE;
    }
    return EXIT_OK;
}

static int parse_config_opts(int argc, char **argv, struct config_opts *co)
{
    static const struct option longopts[] = {
        { "cpu", required_argument, NULL, 'c' }, { "cpus", required_argument, NULL, 'c' },
        { "events", required_argument, NULL, 'e' },
        /* Long only: -f is --force (overwrite an output file) and -o is
         * --output wherever they exist. */
        { "steal", no_argument, NULL, OPT_STEAL }, { "observe", no_argument, NULL, OPT_OBSERVE },
        { "start", no_argument, NULL, OPT_START }, { "stop", no_argument, NULL, OPT_STOP },
        { "reset", no_argument, NULL, OPT_RESET }, { "release", no_argument, NULL, OPT_RELEASE },
        { "no-start", no_argument, NULL, OPT_NO_START },
        { "sim-software", required_argument, NULL, OPT_SIM_SOFTWARE },
        { "json", no_argument, NULL, 'j' },
        { "help", no_argument, NULL, 'h' }, { NULL, 0, NULL, 0 },
    };
    int ch;

    *co = (struct config_opts){ .cpus = "all" };
    while ((ch = cli_getopt(argc, argv, "c:e:jh", longopts, "config")) != -1) {
        switch (ch) {
        case 'j': co->json = true; break;
        case 'c': co->cpus = optarg; break;
        case 'e': co->events = optarg; break;
        case OPT_STEAL: co->steal = true; break;
        case OPT_OBSERVE: co->observe = true; break;
        case OPT_START: co->ctl |= PP_CTL_START; break;
        case OPT_STOP: co->ctl |= PP_CTL_STOP; break;
        case OPT_RESET: co->ctl |= PP_CTL_RESET; break;
        case OPT_RELEASE: co->ctl |= PP_CTL_RELEASE; break;
        case OPT_NO_START: co->no_start = true; break;
        case OPT_SIM_SOFTWARE:
            if (co->nsim_software == MAX_SIM_SOFTWARE) {
                cli_error("too many --sim-software options (at most %d)", MAX_SIM_SOFTWARE);
                return EXIT_USAGE;
            }
            co->sim_software[co->nsim_software++] = optarg;
            break;
        case 'h': help_config(stdout); return -1;
        default: return EXIT_USAGE;         /* said in one line */
        }
    }
    if (optind < argc) {
        cli_usage("config", "unexpected argument '%s' (events go after -e)", argv[optind]);
        return EXIT_USAGE;
    }
    return check_combination(co);
}

static enum action action_of(const struct config_opts *co)
{
    if (co->observe || (!co->events && !co->ctl))
        return ACT_SHOW;
    return co->events ? ACT_PROGRAM : ACT_CONTROL;
}

/* Resolves and allocates the events for one core; EXIT_USAGE with a message. */
static int plan_core(const struct pp_core_desc *c, const char *events, struct pp_pmu_prog *prog)
{
    struct pp_evsel ev[CLI_MAX_EVENTS];
    unsigned n;

    return plan_events(c, events, ev, &n, prog);
}

/* ---- simulated on-target software ------------------------------------------- */

static int sim_software(struct session *s, const char *spec)
{
    char cpu[32];
    const char *colon = strchr(spec, ':');
    const struct pp_core_desc *c;
    struct pp_pmu_prog prog;
    size_t len = colon ? (size_t)(colon - spec) : 0;
    int rc;

    if (!s->sim) {
        cli_error("--sim-software: only on the sim access path");
        return EXIT_USAGE;
    }
    if (!colon || len == 0 || len >= sizeof(cpu) || colon[1] == '\0') {
        cli_error("--sim-software '%s': expected cpuN:EVENTS (e.g. cpu1:INST_RETIRED,cycles) "
                  "or cpuN:claim", spec);
        return EXIT_USAGE;
    }
    memcpy(cpu, spec, len);
    cpu[len] = '\0';
    if (!(c = parse_cpu(s->target, cpu)))
        return EXIT_USAGE;
    if (strcmp(colon + 1, "claim") == 0)
        rc = pp_bus_write32(s->bus, c->debug_base + PP_DBG_CLAIMSET, PP_CLAIM_SELF);
    else if ((rc = plan_core(c, colon + 1, &prog)) != EXIT_OK)
        return rc;
    else
        rc = pp_pmu_program(s->bus, c, &prog);
    if (rc != PP_OK) {
        cli_error("--sim-software '%s': cpu%u did not take it: %s", spec, c->cpu,
                  pp_strerror(rc));
        return EXIT_TARGET;
    }
    return EXIT_OK;
}

/* ---- printing ------------------------------------------------------------------- */

/* A failed step on a core, with one diagnosis (core off, locks...). */
static void explain(struct session *s, const struct pp_core_desc *c, const char *what, int rc)
{
    struct pp_diag d;
    char text[PP_DIAG_TEXT_MAX];

    if (rc == PP_E_SLVERR && pp_diag_core(s->bus, c, &d) == PP_OK)
        fprintf(stderr, "pmuprobe: cpu%u: %s: %s\n", c->cpu, what,
                pp_diag_text(&d, 2, text, sizeof(text)));
    else
        fprintf(stderr, "pmuprobe: cpu%u: %s: %s\n", c->cpu, what, pp_strerror(rc));
}

static void print_event(const struct pp_core_desc *c, uint16_t code)
{
    const char *name = pp_pmu_event_name(c, code);
    char buf[64];

    snprintf(buf, sizeof(buf), "%s%s0x%04X", name ? name : "", name ? " " : "", code);
    printf(" %-28s", buf);
}

/* What a program step wrote, one line per counter in the order asked. */
static void print_programmed(const struct config_core *cc, const char *how)
{
    const struct pp_pmu_prog *p = &cc->prog;

    printf("cpu%u %s: %s\n", cc->core->cpu, cc->core->type->pretty, how);
    for (unsigned i = 0; i < p->nreq; i++) {
        unsigned slot = p->slot[i];

        if (slot == PP_CYCLE_SLOT) {
            printf("  %-10s %-20s %-28s PMCCFILTR=0x%08" PRIX32 "\n", "PMCCNTR", "cycles",
                   "cycle counter", p->cycles_filter);
            continue;
        }
        printf("  PMEVCNTR%-2u %-20s", slot, p->ev[slot].name);
        print_event(cc->core, p->ev[slot].code);
        printf(" PMEVTYPER%u=0x%08" PRIX32 "\n", slot,
               (uint32_t)p->ev[slot].code | p->ev[slot].filter);
    }
}

static const char *claim_str(const struct pp_pmu_state *st, char *buf, size_t len)
{
    if (!st->claim_ok) {
        snprintf(buf, len, "claim tags: none (%s)", st->claim_st == PP_OP_OK ?
                 "tags 0 and 1 not implemented" : pp_op_status_str(st->claim_st));
        return buf;
    }
    snprintf(buf, len, "claim=0x%02" PRIX32 "%s%s%s", st->claim,
             st->claim & PP_CLAIM_EXTERNAL ? " external-debugger" : "",
             st->claim & PP_CLAIM_SELF ? " self-hosted" : "",
             st->claim & PP_CLAIM_LIVE ? " running-capture" : "");
    return buf;
}

static void print_counter(const struct pp_core_desc *c, const struct pp_pmu_state *st,
                          unsigned slot)
{
    bool cyc = slot == PP_CYCLE_SLOT;
    uint32_t typer = cyc ? st->ccfiltr : st->evtyper[slot];
    bool enabled = st->cntenset >> slot & 1u;
    const char *state = pp_pmu_counting(st, slot) ? "counting" : enabled ? "enabled" : "off";
    char name[16];

    snprintf(name, sizeof(name), cyc ? "PMCCNTR" : "PMEVCNTR%u", slot);
    printf("  %-10s %-9s", name, state);
    if (cyc)
        printf(" %-28s PMCCFILTR=0x%08" PRIX32, "cycles", typer);
    else if (!enabled && typer == 0)
        printf(" %-28s PMEVTYPER%u=0x%08" PRIX32, "-", slot, typer);
    else {
        print_event(c, pp_pmu_evtyper_code(c, typer));
        printf(" PMEVTYPER%u=0x%08" PRIX32, slot, typer);
    }
    printf(" %" PRIu64 "\n", st->value[slot]);
}

static void print_state(const struct pp_core_desc *c, const struct pp_pmu_state *st)
{
    char claim[96], msg[512];
    int rc = pp_pmu_check_owner(c, st, msg, sizeof(msg));
    const char *why = strchr(msg, ':');

    printf("cpu%u %s: PMCR=0x%08" PRIX32 " (E=%u: %s) PMCNTENSET=0x%08" PRIX32 " %s\n",
           c->cpu, c->type->pretty, st->pmcr, st->pmcr & PP_PMCR_E,
           st->pmcr & PP_PMCR_E ? "running" : "stopped", st->cntenset,
           claim_str(st, claim, sizeof(claim)));
    print_counter(c, st, PP_CYCLE_SLOT);
    for (unsigned i = 0; i < st->ncnt; i++)
        print_counter(c, st, i);
    why = why ? why + 2 : msg;
    if (rc == PP_E_BUSY)
        printf("  owner: in use, config would refuse without --steal: %s\n", why);
    else
        printf("  owner: %s\n", msg[0] ? why : "free");
}

/* ---- --json: the same facts as data ---------------------------------------------- */

static void json_code(struct json *j, const struct pp_core_desc *c, uint16_t code)
{
    json_kuint(j, "code", code);
    json_khex(j, "code_hex", code, 4);
    json_kstring(j, "mnemonic", pp_pmu_event_name(c, code));
}

/* What a program step wrote (or would), per counter in the order asked. */
static void json_programmed(struct json *j, const struct config_core *cc, const char *key)
{
    const struct pp_pmu_prog *p = &cc->prog;
    char name[24];

    json_key(j, key);
    json_array(j);
    for (unsigned i = 0; i < p->nreq; i++) {
        unsigned slot = p->slot[i];
        bool cyc = slot == PP_CYCLE_SLOT;

        json_object(j);
        snprintf(name, sizeof(name), cyc ? "PMCCNTR" : "PMEVCNTR%u", slot);
        json_kstring(j, "counter", name);
        json_kstring(j, "event", cyc ? "cycles" : p->ev[slot].name);
        if (!cyc)
            json_code(j, cc->core, p->ev[slot].code);
        snprintf(name, sizeof(name), cyc ? "PMCCFILTR" : "PMEVTYPER%u", slot);
        json_kstring(j, "register", name);
        json_kuint(j, "value", cyc ? p->cycles_filter
                                   : (uint32_t)p->ev[slot].code | p->ev[slot].filter);
        json_object_end(j);
    }
    json_array_end(j);
}

static void json_counter(struct json *j, const struct pp_core_desc *c,
                         const struct pp_pmu_state *st, unsigned slot)
{
    bool cyc = slot == PP_CYCLE_SLOT, enabled = st->cntenset >> slot & 1u;
    uint32_t typer = cyc ? st->ccfiltr : st->evtyper[slot];
    char name[24];

    json_object(j);
    snprintf(name, sizeof(name), cyc ? "PMCCNTR" : "PMEVCNTR%u", slot);
    json_kstring(j, "counter", name);
    json_kstring(j, "state", pp_pmu_counting(st, slot) ? "counting" : enabled ? "enabled" : "off");
    snprintf(name, sizeof(name), cyc ? "PMCCFILTR" : "PMEVTYPER%u", slot);
    json_kstring(j, "register", name);
    json_kuint(j, "register_value", typer);
    if (cyc) {
        json_kstring(j, "event", "cycles");
    } else if (!enabled && typer == 0) {
        json_knull(j, "event");
    } else {
        json_kstring(j, "event", pp_pmu_event_name(c, pp_pmu_evtyper_code(c, typer)));
        json_code(j, c, pp_pmu_evtyper_code(c, typer));
    }
    json_kuint(j, "value", st->value[slot]);
    json_object_end(j);
}

static void json_state(struct json *j, const struct pp_core_desc *c, const struct pp_pmu_state *st)
{
    char msg[512];
    int rc = pp_pmu_check_owner(c, st, msg, sizeof(msg));
    const char *why = strchr(msg, ':');

    json_kuint(j, "pmcr", st->pmcr);
    json_kbool(j, "running", st->pmcr & PP_PMCR_E);
    json_kuint(j, "pmcntenset", st->cntenset);
    if (st->claim_ok) {
        json_kuint(j, "claim", st->claim);
        json_kbool(j, "claim_external_debugger", st->claim & PP_CLAIM_EXTERNAL);
        json_kbool(j, "claim_self_hosted", st->claim & PP_CLAIM_SELF);
        json_kbool(j, "claim_running_capture", st->claim & PP_CLAIM_LIVE);
    } else {
        json_knull(j, "claim");
    }
    json_kbool(j, "in_use", rc == PP_E_BUSY);
    json_kstring(j, "owner", msg[0] ? (why ? why + 2 : msg) : "free");
    json_key(j, "counters");
    json_array(j);
    json_counter(j, c, st, PP_CYCLE_SLOT);
    for (unsigned i = 0; i < st->ncnt; i++)
        json_counter(j, c, st, i);
    json_array_end(j);
}

static void json_control(struct json *j, const struct pp_pmu_state *st, unsigned ctl)
{
    static const struct { unsigned bit; const char *name; } acts[] = {
        { PP_CTL_RESET, "reset" }, { PP_CTL_START, "start" }, { PP_CTL_STOP, "stop" },
        { PP_CTL_CLAIM, "claim" }, { PP_CTL_RELEASE, "release" },
    };

    json_key(j, "actions");
    json_array(j);
    for (size_t i = 0; i < sizeof(acts) / sizeof(acts[0]); i++)
        if (ctl & acts[i].bit)
            json_string(j, acts[i].name);
    json_array_end(j);
    json_kuint(j, "pmcntenset", st->cntenset);
    json_kbool(j, "claim_tags", st->claim_ok);
}

/* ---- the steps ------------------------------------------------------------------ */

/* The ownership read; false (with the reason printed) when it failed. */
static bool read_state(struct session *s, const struct pp_core_desc *c, struct pp_pmu_state *st,
                       int *rc)
{
    int r = pp_pmu_read_state(s->bus, c, st);

    if (r == PP_OK)
        return true;
    if (r == PP_E_LINK) {
        cli_error("access path lost: %s", pp_bus_errmsg(s->bus));
        *rc = EXIT_PATH;
    } else {
        explain(s, c, "cannot read the PMU programming", r);
        *rc = EXIT_TARGET;
    }
    return false;
}

static void print_refusal(const struct pp_core_desc *c, const char *msg)
{
    fprintf(stderr, "pmuprobe: %s\n  refused: nothing written to cpu%u; stop that software "
            "first, or pass --steal to take the counters anyway\n", msg, c->cpu);
}

/* Refuses (false) or lets the step go on, printing why either way. */
static bool may_write(const struct pp_core_desc *c, const struct pp_pmu_state *st, bool steal)
{
    char msg[512];
    int rc = pp_pmu_check_owner(c, st, msg, sizeof(msg));

    if (rc == PP_OK) {
        if (msg[0])
            fprintf(stderr, "pmuprobe: note: %s\n", msg);
        return true;
    }
    if (steal) {
        fprintf(stderr, "pmuprobe: warning: --steal: %s\n", msg);
        return true;
    }
    print_refusal(c, msg);
    return false;
}

/* Read, check, claim and program: pp_pmu_configure, two batches. */
static int do_program(struct session *s, const struct config_core *cc,
                      const struct config_opts *co, struct json *j)
{
    unsigned flags = (co->no_start ? PP_PROG_NOSTART : 0u) | (co->steal ? PP_PROG_FORCE : 0u);
    struct pp_pmu_state st;
    char msg[512], how[128];
    int rc = pp_pmu_configure(s->bus, cc->core, &cc->prog, flags, &st, msg, sizeof(msg));

    if (rc == PP_E_BUSY) {
        print_refusal(cc->core, msg);
        return EXIT_TARGET;
    }
    if (rc == PP_E_UNSUPPORTED) {       /* fewer counters than asked for */
        fprintf(stderr, "pmuprobe: %s\n  refused: nothing written to cpu%u\n", msg,
                cc->core->cpu);
        return EXIT_TARGET;
    }
    if (rc != PP_OK) {
        explain(s, cc->core, st.st != PP_OP_OK ? "cannot read the PMU programming" :
                "programming failed", rc);
        return rc == PP_E_LINK ? EXIT_PATH : EXIT_TARGET;
    }
    if (msg[0])
        fprintf(stderr, "pmuprobe: %s%s\n", pp_pmu_check_owner(cc->core, &st, NULL, 0) ==
                PP_E_BUSY ? "warning: --steal: " : "note: ", msg);
    if (j) {
        json_kbool(j, "started", !co->no_start);
        json_kbool(j, "claim_tag_set", st.claim_ok);
        json_programmed(j, cc, "programmed");
        return EXIT_OK;
    }
    snprintf(how, sizeof(how), "programmed, zeroed, %s; %s",
             co->no_start ? "stopped (PMCR.E=0, start with --start)" : "counting (PMCR.E=1)",
             st.claim_ok ? "claim tag 0 set" : "no claim tags");
    print_programmed(cc, how);
    return EXIT_OK;
}

static void print_control(const struct pp_core_desc *c, const struct pp_pmu_state *st,
                          unsigned ctl)
{
    printf("cpu%u %s:", c->cpu, c->type->pretty);
    if (ctl & PP_CTL_RESET)
        printf(" counters zeroed;");
    if ((ctl & PP_CTL_START) && st->cntenset)
        printf(" started (PMCR.E=1, PMCNTENSET=0x%08" PRIX32 ");", st->cntenset);
    else if (ctl & PP_CTL_START)
        printf(" PMCR.E=1 but no counter is enabled (program them with -e);");
    if (ctl & PP_CTL_STOP)
        printf(" stopped (PMCR.E=0, every counter disabled, values kept);");
    if (ctl & PP_CTL_RELEASE)
        printf(" claim tag 0 released");
    else if (ctl & PP_CTL_CLAIM)
        printf(" claim tag 0 set");
    else if (!st->claim_ok)
        printf(" no claim tags");
    printf("\n");
}

static int do_control(struct session *s, const struct pp_core_desc *c,
                      const struct pp_pmu_state *st, const struct config_opts *co, struct json *j)
{
    unsigned ctl = co->ctl;
    int rc;

    /* Stopping hands the PMU back; starting or zeroing takes it. */
    if (ctl & PP_CTL_STOP)
        ctl |= PP_CTL_RELEASE;
    else if (ctl & (PP_CTL_START | PP_CTL_RESET))
        ctl |= PP_CTL_CLAIM;
    if (!st->claim_ok)
        ctl &= ~(PP_CTL_CLAIM | PP_CTL_RELEASE);
    rc = pp_pmu_control(s->bus, c, st, ctl);
    if (rc != PP_OK) {
        explain(s, c, "control failed", rc);
        return rc == PP_E_LINK ? EXIT_PATH : EXIT_TARGET;
    }
    if (j)
        json_control(j, st, ctl);
    else
        print_control(c, st, ctl);
    return EXIT_OK;
}

static int core_step(struct session *s, const struct config_core *cc,
                     const struct config_opts *co, struct json *j)
{
    enum action act = action_of(co);
    struct pp_pmu_state st;
    int rc = EXIT_OK;

    if (act == ACT_PROGRAM)
        return do_program(s, cc, co, j);
    if (!read_state(s, cc->core, &st, &rc))
        return rc;
    if (act == ACT_SHOW && j) {
        json_state(j, cc->core, &st);
        if (co->events)
            json_programmed(j, cc, "would_program");
        return EXIT_OK;
    }
    if (act == ACT_SHOW) {
        print_state(cc->core, &st);
        if (co->events)
            print_programmed(cc, "would program (--observe: nothing written)");
        return EXIT_OK;
    }
    /* Dropping our own claim takes nothing from anyone: no owner check,
     * unless a running capture holds the PMU (its live tag would go). */
    if ((co->ctl != PP_CTL_RELEASE || (st.claim_ok && (st.claim & PP_CLAIM_LIVE))) &&
        !may_write(cc->core, &st, co->steal))
        return EXIT_TARGET;
    return do_control(s, cc->core, &st, co, j);
}

/* One core's step; with --json inside its object, ok saying whether it
 * was done (why not went to stderr, as in the text form). */
static int run_core(struct session *s, const struct config_core *cc,
                    const struct config_opts *co, struct json *j)
{
    int rc;

    if (!j)
        return core_step(s, cc, co, NULL);
    json_object(j);
    json_kuint(j, "cpu", cc->core->cpu);
    json_kstring(j, "type", cc->core->type->pretty);
    rc = core_step(s, cc, co, j);
    json_kbool(j, "ok", rc == EXIT_OK);
    json_object_end(j);
    return rc;
}

static const char *action_name(const struct config_opts *co)
{
    static const char *const names[] = { "observe", "program", "control" };

    return names[action_of(co)];
}

/* Selected cores with their plans; EXIT_USAGE before any write on a bad
 * event list. */
static int plan_all(const struct session *s, uint64_t set, const char *events,
                    struct config_core *cores, unsigned *n)
{
    *n = 0;
    for (unsigned i = 0; i < s->target->ncores; i++) {
        const struct pp_core_desc *c = &s->target->cores[i];
        struct config_core *cc;

        if (!(set & (1ull << c->cpu)))
            continue;
        cc = &cores[(*n)++];
        cc->core = c;
        if (events && plan_core(c, events, &cc->prog) != EXIT_OK)
            return EXIT_USAGE;
    }
    return EXIT_OK;
}

int cmd_config(const struct cli_opts *o, int argc, char **argv)
{
    struct config_opts co;
    struct config_core *cores = NULL;
    struct session s;
    struct json j;
    uint64_t set;
    unsigned n = 0;
    int rc = parse_config_opts(argc, argv, &co), worst = EXIT_OK;

    if (rc != EXIT_OK)
        return rc < 0 ? EXIT_OK : rc;
    rc = session_open(o, &s);
    if (rc != EXIT_OK)
        return rc;
    for (unsigned i = 0; i < co.nsim_software && rc == EXIT_OK; i++)
        rc = sim_software(&s, co.sim_software[i]);
    if (rc != EXIT_OK)
        goto out;
    cores = calloc(PP_MAX_CORES, sizeof(*cores));
    if (!cores) {
        cli_error("out of memory");
        rc = EXIT_PATH;
        goto out;
    }
    if (!parse_cpus(s.target, co.cpus, &set) ||
        plan_all(&s, set, co.events, cores, &n) != EXIT_OK) {
        rc = EXIT_USAGE;
        goto out;
    }
    if (co.json) {
        json_begin(&j, stdout);
        json_object(&j);
        json_kstring(&j, "action", action_name(&co));
        json_key(&j, "cores");
        json_array(&j);
    }
    for (unsigned i = 0; i < n && worst != EXIT_PATH; i++) {
        rc = run_core(&s, &cores[i], &co, co.json ? &j : NULL);
        worst = rc > worst ? rc : worst;
    }
    rc = worst;
    if (co.json) {
        json_array_end(&j);
        json_object_end(&j);
        if (!json_end(&j)) {
            cli_error("config: writing the output failed");
            rc = EXIT_OUTPUT;
        }
    }
out:
    free(cores);
    session_close(&s);
    return rc;
}
