/*
 * cmd_complete.c - `pmuprobe __complete KIND`: the names the bash
 * completion offers, taken from the same tables the commands use (the
 * command table, each command's option tables as it hands them to
 * cli_getopt, the register map, the event catalog and aliases of the
 * target given with -t, the metric tables and the sim's fault actions),
 * so completion cannot drift from what pmuprobe accepts.
 */
#include <ctype.h>
#include <dirent.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "cmd_complete.h"
#include "capture/capture.h"
#include "pmu/catalog.h"
#include "pmu/evname.h"
#include "pmu/regs.h"
#include "session/session.h"
#include "sim/sim.h"

#define NAME_MAX_LEN 48

/* Candidates without repeats, in first-seen order. */
struct names {
    char (*v)[NAME_MAX_LEN];
    size_t n, cap;
};

static bool names_has(const struct names *l, const char *s)
{
    for (size_t i = 0; i < l->n; i++)
        if (strcmp(l->v[i], s) == 0)
            return true;
    return false;
}

static void names_add(struct names *l, const char *s, size_t len)
{
    char buf[NAME_MAX_LEN];

    if (len == 0 || len >= sizeof(buf))
        return;
    memcpy(buf, s, len);
    buf[len] = '\0';
    if (names_has(l, buf))
        return;
    if (l->n == l->cap) {
        size_t cap = l->cap ? 2 * l->cap : 64;
        void *v = realloc(l->v, cap * sizeof(*l->v));

        if (!v)
            return;
        l->v = v;
        l->cap = cap;
    }
    memcpy(l->v[l->n++], buf, len + 1);
}

static void names_put(struct names *l, const char *s)
{
    names_add(l, s, strlen(s));
}

static int names_print(struct names *l)
{
    for (size_t i = 0; i < l->n; i++)
        printf("%s\n", l->v[i]);
    free(l->v);
    return EXIT_OK;
}

/* ---- options: the tables the commands parse with --------------------------------------- */

/* The options c takes, as its cli_getopt call names them: the command
 * runs in describe mode, which returns at its first cli_getopt (as after
 * a usage error) before it opens anything. */
static bool describe(const struct cli_opts *o, const struct command *c,
                     struct cli_optspec *spec)
{
    char name[32];
    char *argv[] = { name, NULL };

    snprintf(name, sizeof(name), "%s", c->name);
    *spec = (struct cli_optspec){ NULL, NULL };
    cli_describe_options(spec);
    (void)c->run(o, 1, argv);
    cli_describe_options(NULL);
    return spec->shortopts != NULL;
}

/* "-x" for each letter of shortopts and "--name" for each long option;
 * with valued, only those that take a value (for counting operands). */
static void options_of(const struct cli_optspec *spec, bool valued, struct names *l)
{
    char buf[NAME_MAX_LEN];

    for (const char *p = spec->shortopts; p && *p; p++) {
        if (!isalnum((unsigned char)*p) || (valued && p[1] != ':'))
            continue;
        snprintf(buf, sizeof(buf), "-%c", *p);
        names_put(l, buf);
    }
    for (const struct option *lo = spec->longopts; lo && lo->name; lo++) {
        if (valued && lo->has_arg == no_argument)
            continue;
        snprintf(buf, sizeof(buf), "--%s", lo->name);
        names_put(l, buf);
    }
}

static int complete_options(const struct cli_opts *o, const char *cmd, bool valued,
                            const struct command *cmds, size_t ncmds,
                            const struct cli_optspec *global)
{
    struct names l = { 0 };
    struct cli_optspec spec = *global;

    for (size_t i = 0; cmd && i < ncmds; i++)
        if (strcmp(cmds[i].name, cmd) == 0 && !describe(o, &cmds[i], &spec))
            return names_print(&l);
    if (!cmd || strcmp(cmd, "help") != 0)
        options_of(&spec, valued, &l);
    return names_print(&l);
}

/* ---- names from the target ---------------------------------------------------------------- */

static struct pp_target *load_target(const struct cli_opts *o)
{
    struct pp_target *t = NULL;
    char path[512], err[256];
    /* Completion never opens a probe, so a board to discover has no names. */
    const char *name = o->target ? o->target : pp_session_default_target(o->probe);

    if (!name || pp_target_find(name, path, sizeof(path)) != PP_OK ||
        pp_target_load(path, &t, err, sizeof(err)) != PP_OK)
        return NULL;
    return t;
}

/* cpus: "cpu2", "0-3", "all"; unparsable means all (the user is still
 * typing), and parse_cpus' message is not wanted here. */
static uint64_t cpu_set(const struct pp_target *t, const char *arg)
{
    uint64_t set = 0;
    unsigned a, b;
    char *end;

    if (!arg || strcmp(arg, "all") == 0)
        return ~0ull;
    if (strncmp(arg, "cpu", 3) == 0)
        arg += 3;
    a = (unsigned)strtoul(arg, &end, 10);
    if (end == arg)
        return ~0ull;
    b = a;
    if (*end == '-')
        b = (unsigned)strtoul(end + 1, &end, 10);
    for (unsigned i = 0; i < t->ncores; i++)
        if (t->cores[i].cpu >= a && t->cores[i].cpu <= b && t->cores[i].cpu < 64)
            set |= 1ull << t->cores[i].cpu;
    return set ? set : ~0ull;
}

/* Every instance the core has: pp_reg_at applies the same gates (PMU
 * version, features, PMCFGR.N) as a read by name does. */
static void add_map(struct names *l, const struct pp_core_desc *c, const struct pp_reg *map,
                    size_t n)
{
    for (size_t i = 0; i < n; i++) {
        const struct pp_reg *r = &map[i];

        for (unsigned k = 0; k < (r->count ? r->count : 1u); k++) {
            struct pp_reg_ref ref;
            unsigned off = r->offset + k * r->stride;

            if (off < 0x1000 &&
                pp_reg_at(c->type, c->counters, r->block, (uint16_t)off, &ref) == PP_OK &&
                ref.reg == r)
                names_put(l, ref.name);
        }
    }
}

static void add_registers(struct names *l, const struct pp_core_desc *c)
{
    const struct pp_reg *map;
    size_t n;

    map = pp_regs_pmu(c->type->pmu_version, &n);
    if (map)
        add_map(l, c, map, n);
    map = pp_regs_debug(c->type->arch, &n);
    if (map)
        add_map(l, c, map, n);
}

/* The perf aliases that resolve on the core (pp_event_resolve, as -e
 * does), then the core's own table, then the common events it lacks. */
static void add_events(struct names *l, const struct pp_core_desc *c)
{
    const struct pp_catalog *cat = pp_catalog_find(c->type->catalog);
    const char *alias;
    struct pp_evsel ev;
    char err[256];

    for (size_t i = 0; (alias = pp_event_alias_name(i)) != NULL; i++)
        if (pp_event_resolve(c->type, alias, &ev, err, sizeof(err)) == PP_OK)
            names_put(l, alias);
    for (; cat; cat = cat->common)
        for (size_t i = 0; i < cat->n; i++)
            names_put(l, cat->events[i].name);
}

/* --fault: cpuN:ACTION for each core and action the sim takes, and the DP
 * faults (pp_sim_apply_fault; ADDR:error has no name to offer). */
static void add_faults(struct names *l, const struct pp_core_desc *c)
{
    const char *act;
    char buf[NAME_MAX_LEN];

    for (size_t i = 0; (act = pp_sim_fault_action(i)) != NULL; i++) {
        snprintf(buf, sizeof(buf), "cpu%u:%s", c->cpu, act);
        names_put(l, buf);
    }
}

static int complete_target(const struct cli_opts *o, const char *kind, const char *arg)
{
    struct pp_target *t = load_target(o);
    struct names l = { 0 };
    uint64_t set;

    if (!t)
        return EXIT_USAGE;
    set = cpu_set(t, arg);
    for (unsigned i = 0; i < t->ncores; i++) {
        const struct pp_core_desc *c = &t->cores[i];
        char buf[16];

        if (strcmp(kind, "cpus") == 0 || strcmp(kind, "cpu") == 0) {
            if (i == 0 && kind[3] == 's')
                names_put(&l, "all");
            snprintf(buf, sizeof(buf), "cpu%u", c->cpu);
            names_put(&l, buf);
        } else if (strcmp(kind, "faults") == 0) {
            add_faults(&l, c);
        } else if (c->cpu < 64 && (set & (1ull << c->cpu))) {
            (strcmp(kind, "events") == 0 ? add_events : add_registers)(&l, c);
        }
    }
    if (strcmp(kind, "faults") == 0) {
        names_put(&l, "dp:overrun");
        names_put(&l, "dp:wait:");
    }
    pp_target_free(t);
    return names_print(&l);
}

/* plot --metric: every metric a capture may hold, spaces as '-' so the
 * name is one word ("L1D-MPKI"; plot matches names that way). */
static int complete_metrics(void)
{
    static const unsigned pmu_versions[] = { 3, 2 };
    struct names l = { 0 };
    const char *name;
    char buf[NAME_MAX_LEN];

    for (size_t v = 0; v < sizeof(pmu_versions) / sizeof(pmu_versions[0]); v++)
        for (size_t i = 0; (name = pp_cap_metric_name(pmu_versions[v], i)) != NULL; i++) {
            snprintf(buf, sizeof(buf), "%s", name);
            for (char *p = buf; *p; p++)
                *p = *p == ' ' ? '-' : *p;
            names_put(&l, buf);
        }
    return names_print(&l);
}

/* NAME.target in each directory where pp_target_find looks. */
static void targets_in(struct names *l, const char *dir, size_t dirlen)
{
    char path[512];
    struct dirent *e;
    DIR *d;

    if (dirlen == 0 || dirlen >= sizeof(path))
        return;
    memcpy(path, dir, dirlen);
    path[dirlen] = '\0';
    d = opendir(path);
    if (!d)
        return;
    while ((e = readdir(d)) != NULL) {
        size_t n = strlen(e->d_name);

        if (n > 7 && strcmp(e->d_name + n - 7, ".target") == 0)
            names_add(l, e->d_name, n - 7);
    }
    closedir(d);
}

static int complete_targets(void)
{
    const char *env = getenv("PMUPROBE_TARGETS");
    struct names l = { 0 };

    while (env && *env) {
        size_t n = strcspn(env, ":");

        targets_in(&l, env, n);
        env += n + (env[n] == ':');
    }
#ifdef PP_SRCTARGETDIR
    targets_in(&l, PP_SRCTARGETDIR, strlen(PP_SRCTARGETDIR));
#endif
#ifdef PP_TARGETDIR
    targets_in(&l, PP_TARGETDIR, strlen(PP_TARGETDIR));
#endif
    return names_print(&l);
}

static int complete_list(const char *const *v)
{
    for (; *v; v++)
        printf("%s\n", *v);
    return EXIT_OK;
}

int cmd_complete(const struct cli_opts *o, int argc, char **argv,
                 const struct command *cmds, size_t ncmds, const struct cli_optspec *global)
{
    static const char *const formats[] = { "csv", "jsonl", "perf", "trace", "bin", NULL };
    static const char *const probes[] = { "sim", "rbb:", "openocd", "ftdi", "cmsis-dap",
                                          NULL };
    const char *kind = argc > 1 ? argv[1] : "";
    const char *arg = argc > 2 ? argv[2] : NULL;

    if (strcmp(kind, "commands") == 0) {
        for (size_t i = 0; i < ncmds; i++)
            printf("%s\n", cmds[i].name);
        printf("help\n");
        return EXIT_OK;
    }
    if (strcmp(kind, "options") == 0 || strcmp(kind, "valued") == 0)
        return complete_options(o, arg, kind[0] == 'v', cmds, ncmds, global);
    if (strcmp(kind, "registers") == 0 || strcmp(kind, "events") == 0 ||
        strcmp(kind, "cpus") == 0 || strcmp(kind, "cpu") == 0 || strcmp(kind, "faults") == 0)
        return complete_target(o, kind, arg);
    if (strcmp(kind, "metrics") == 0)
        return complete_metrics();
    if (strcmp(kind, "targets") == 0)
        return complete_targets();
    if (strcmp(kind, "formats") == 0)
        return complete_list(formats);
    if (strcmp(kind, "probes") == 0)
        return complete_list(probes);
    return EXIT_USAGE;
}
