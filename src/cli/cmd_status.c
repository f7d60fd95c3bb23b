/*
 * cmd_status.c - `pmuprobe status`: per core, what the debug block says
 * about power, locks and authentication, and whether the PMU answers.
 */
#include <getopt.h>
#include <stdio.h>

#include "cli.h"
#include "json.h"
#include "session/inspect.h"

void help_status(FILE *out)
{
    fprintf(out,
        "Usage: pmuprobe [OPTIONS] status [--json] [CPUS]\n"
        "For each core (default: all; CPUS as 0-3, 0,2, cpu1 or all) print whether it\n"
        "is powered, OS-locked, double-locked, halted, whether external non-invasive\n"
        "debug is enabled, and whether its PMU answers; when it does not, the condition\n"
        "that blocks it, the register values that prove it, and what to do.\n"
        "Reading EDPRSR clears its sticky bits; status reads it once per core.\n"
        "On -p ftdi a first line gives the TCK set: the --speed request rounded down\n"
        "to 30 MHz / (1 + divisor).\n"
        "  -j, --json  one JSON document instead: the link (its TCK in Hz, null where\n"
        "              the server or OpenOCD sets it), per core power, locks, auth,\n"
        "              PMU access, cause, evidence (with the register values), remedy\n"
        "Exit status: 0 when every core was diagnosed, 3 when the access path failed.\n");
}

static const char *yesno(bool v)
{
    return v ? "yes" : "no";
}

/* DBGAUTHSTATUS NSNID [3:2]: 0b11 enabled, 0b10 disabled (spec 3.5). */
static const char *auth_str(const struct pp_core_status *d)
{
    if (!d->authstatus_valid)
        return "?";
    return d->nid_enabled ? "enabled" : "disabled";
}

static void print_row(const struct pp_core_desc *c, const struct pp_core_status *d)
{
    bool known = d->edprsr_valid;

    printf("cpu%-2u %-11s %-5s %-6s %-6s %-6s %-9s %s\n", c->cpu, c->type->pretty,
           known ? (d->powered ? "on" : "off") : "?",
           known && d->powered ? yesno(d->oslock) : "-",
           known && d->powered ? yesno(d->doublelock) : "-",
           known && d->powered ? yesno(d->halted) : "-",
           auth_str(d), d->pmu_ok ? "ok" : pp_cause_str(d->cause));
}

static void print_detail(const struct pp_core_status *d)
{
    char text[PP_DIAG_TEXT_MAX];

    printf("cpu%u: %s\n", d->cpu,
           pp_diag_text_of(d->cause, d->evidence, d->remedy, 2, text, sizeof(text)));
}

/* A register value, or null when its read failed. */
static void json_reg(struct json *j, const char *name, uint32_t v, bool valid)
{
    if (valid)
        json_kuint(j, name, v);
    else
        json_knull(j, name);
}

/* A decoded EDPRSR bit, meaningful only when the core was read powered. */
static void json_flag(struct json *j, const char *name, const struct pp_core_status *d, bool v)
{
    if (d->edprsr_valid && d->powered)
        json_kbool(j, name, v);
    else
        json_knull(j, name);
}

static void json_core(struct json *j, const struct pp_core_desc *c,
                      const struct pp_core_status *d)
{
    bool known = d->edprsr_valid;

    json_object(j);
    json_kuint(j, "cpu", c->cpu);
    json_kstring(j, "type", c->type->pretty);
    json_kstring(j, "power", known ? (d->powered ? "on" : "off") : NULL);
    json_flag(j, "oslock", d, d->oslock);
    json_flag(j, "doublelock", d, d->doublelock);
    json_flag(j, "halted", d, d->halted);
    json_kstring(j, "auth", d->authstatus_valid ? auth_str(d) : NULL);
    json_kstring(j, "pmu", d->pmu_ok ? "ok" : pp_cause_name(d->cause));
    json_kbool(j, "pmu_ok", d->pmu_ok);
    json_kstring(j, "cause", pp_cause_name(d->cause));
    json_kstring(j, "cause_text", pp_cause_str(d->cause));
    json_kstring(j, "evidence", d->evidence);
    json_kstring(j, "remedy", d->remedy);
    json_key(j, "registers");
    json_object(j);
    json_reg(j, "EDPRSR", d->edprsr, d->edprsr_valid);
    json_reg(j, "DBGAUTHSTATUS", d->authstatus, d->authstatus_valid);
    json_reg(j, "PMCFGR", d->pmcfgr, d->pmcfgr_valid);
    if (c->type->arch == PP_ARCH_V7)
        json_reg(j, "DBGOSLSR", d->oslsr, d->oslsr_valid);
    json_object_end(j);
    json_object_end(j);
}

static void print_header(void)
{
    printf("%-5s %-11s %-5s %-6s %-6s %-6s %-9s %s\n", "cpu", "type", "power", "oslock",
           "dlock", "halted", "auth", "pmu");
}

/* Diagnoses every core in set into diag[] and prints (or writes) its row;
 * returns the exit code. */
static int diagnose_all(struct session *s, uint64_t set, struct pp_core_status *diag,
                        struct json *j)
{
    for (unsigned i = 0; i < s->target->ncores; i++) {
        const struct pp_core_desc *c = &s->target->cores[i];
        int rc;

        diag[i].pmu_ok = true;
        if (!(set & (1ull << c->cpu)))
            continue;
        rc = pp_status_read(s->bus, c, &diag[i]);
        if (rc != PP_OK) {
            cli_error("cpu%u: access path failed: %s %s; check the probe and its "
                      "connection, then retry", c->cpu, pp_strerror(rc),
                      pp_bus_errmsg(s->bus));
            return EXIT_PATH;
        }
        if (j)
            json_core(j, c, &diag[i]);
        else
            print_row(c, &diag[i]);
    }
    return EXIT_OK;
}

static int status_text(struct session *s, uint64_t set)
{
    struct pp_core_status diag[PP_MAX_CORES];
    unsigned blocked = 0;
    int rc;

    link_report_print(s->bus);
    print_header();
    rc = diagnose_all(s, set, diag, NULL);
    if (rc != EXIT_OK)
        return rc;
    for (unsigned i = 0; i < s->target->ncores; i++)
        blocked += !diag[i].pmu_ok;
    if (blocked)
        printf("\n");
    for (unsigned i = 0; i < s->target->ncores; i++)
        if (!diag[i].pmu_ok)
            print_detail(&diag[i]);
    return EXIT_OK;
}

/* The document stays whole when the path fails midway: "error" says so. */
static int status_json(struct session *s, uint64_t set)
{
    struct pp_core_status diag[PP_MAX_CORES];
    struct json j;
    int rc;

    json_begin(&j, stdout);
    json_object(&j);
    json_kstring(&j, "target", s->target->name);
    json_kstring(&j, "probe", pp_bus_name(s->bus));
    link_report_json(&j, s->bus);
    json_key(&j, "cores");
    json_array(&j);
    rc = diagnose_all(s, set, diag, &j);
    json_array_end(&j);
    if (rc != EXIT_OK)
        json_kstring(&j, "error", "access path failed");
    json_object_end(&j);
    if (!json_end(&j)) {
        cli_error("status: writing the output failed");
        return EXIT_OUTPUT;
    }
    return rc;
}

int cmd_status(const struct cli_opts *o, int argc, char **argv)
{
    struct session s;
    uint64_t set = ~0ull;
    bool json = false;
    int rc;

    if ((rc = parse_json_only(argc, argv, "status", help_status, &json)) >= 0)
        return rc;
    if (argc - optind > 1) {
        cli_usage("status", "one list of cores, not '%s' and '%s' (join them: %s,%s)",
                  argv[optind], argv[optind + 1], argv[optind], argv[optind + 1]);
        return EXIT_USAGE;
    }
    rc = session_open(o, &s);
    if (rc != EXIT_OK)
        return rc;
    if (argc - optind == 1 && !parse_cpus(s.target, argv[optind], &set)) {
        session_close(&s);
        return EXIT_USAGE;
    }
    rc = json ? status_json(&s, set) : status_text(&s, set);
    session_close(&s);
    return rc;
}
