/*
 * select.c - what `pmuprobe plot` draws: the user's --events, --metric and
 * --cpu checked against the capture's description (plot.h).  A name the
 * capture lacks is refused with the list of what it has, so a typo costs
 * one round.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "pmuprobe.h"
#include "plot/plot.h"

static int sel_fail(char *err, size_t n, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* PP_E_INVAL with the message in err. */
static int sel_fail(char *err, size_t n, const char *fmt, ...)
{
    va_list ap;

    if (err && n) {
        va_start(ap, fmt);
        vsnprintf(err, n, fmt, ap);
        va_end(ap);
    }
    return PP_E_INVAL;
}

int pp_plot_find_event(const struct pp_cap_core *c, const char *name)
{
    for (unsigned i = 0; i < c->nev; i++)
        if (strcasecmp(c->ev[i].name, name) == 0 || strcasecmp(c->ev[i].mnemonic, name) == 0)
            return (int)i;
    return -1;
}

/* "L1D MPKI", "l1d-mpki" and "l1d_mpki" are one metric: letters, digits
 * and '%' count, in any case. */
static bool metric_name_eq(const char *a, const char *b)
{
    for (;;) {
        while (*a && !isalnum((unsigned char)*a) && *a != '%')
            a++;
        while (*b && !isalnum((unsigned char)*b) && *b != '%')
            b++;
        if (!*a || !*b)
            return !*a && !*b;
        if (tolower((unsigned char)*a) != tolower((unsigned char)*b))
            return false;
        a++;
        b++;
    }
}

int pp_plot_find_metric(const struct pp_cap_core *c, const char *name)
{
    for (unsigned i = 0; i < c->nmetrics; i++)
        if (metric_name_eq(c->metric[i].name, name))
            return (int)i;
    return -1;
}

/* Appends s to the ", "-separated list in buf unless it is already there. */
static void list_add(char *buf, size_t n, const char *s)
{
    size_t len = strlen(buf), sl = strlen(s);

    for (const char *p = buf; *p; ) {
        const char *e = strstr(p, ", ");
        size_t il = e ? (size_t)(e - p) : strlen(p);

        if (il == sl && strncmp(p, s, sl) == 0)
            return;
        p += il + (e ? 2 : 0);
    }
    snprintf(buf + len, n - len, "%s%s", len ? ", " : "", s);
}

static void list_events(const struct pp_cap_meta *m, uint64_t cores, char *buf, size_t n)
{
    buf[0] = '\0';
    for (unsigned k = 0; k < m->ncores; k++)
        for (unsigned i = 0; cores >> k & 1u && i < m->core[k].nev; i++)
            list_add(buf, n, m->core[k].ev[i].name);
}

static void list_metrics(const struct pp_cap_meta *m, uint64_t cores, char *buf, size_t n)
{
    buf[0] = '\0';
    for (unsigned k = 0; k < m->ncores; k++)
        for (unsigned i = 0; cores >> k & 1u && i < m->core[k].nmetrics; i++)
            list_add(buf, n, m->core[k].metric[i].name);
}

static void list_cpus(const struct pp_cap_meta *m, char *buf, size_t n)
{
    buf[0] = '\0';
    for (unsigned k = 0; k < m->ncores; k++) {
        size_t len = strlen(buf);

        snprintf(buf + len, n - len, "%scpu%u", k ? ", " : "", m->core[k].cpu);
    }
}

static int core_of_cpu(const struct pp_cap_meta *m, unsigned long cpu)
{
    for (unsigned k = 0; k < m->ncores; k++)
        if (m->core[k].cpu == cpu)
            return (int)k;
    return -1;
}

static bool parse_number(const char *s, char **end, unsigned long *v)
{
    if (strncasecmp(s, "cpu", 3) == 0)
        s += 3;
    if (!isdigit((unsigned char)*s))
        return false;
    errno = 0;
    *v = strtoul(s, end, 10);
    return errno == 0 && *v < 4096;
}

/* One item of --cpu: "cpu2", "2" or "0-3"; every cpu named must be in
 * the capture. */
static int select_cpu_item(const struct pp_cap_meta *m, const char *item, uint64_t *cores,
                           char *err, size_t n)
{
    unsigned long lo, hi;
    char *end, has[PP_CAP_MAX_CORES * 8];

    if (!parse_number(item, &end, &lo))
        return sel_fail(err, n, "--cpu '%s': expected cpuN, N, N-M or all", item);
    hi = lo;
    if (*end == '-' && !parse_number(end + 1, &end, &hi))
        return sel_fail(err, n, "--cpu '%s': expected cpuN, N, N-M or all", item);
    if (*end || hi < lo)
        return sel_fail(err, n, "--cpu '%s': expected cpuN, N, N-M or all", item);
    for (unsigned long cpu = lo; cpu <= hi; cpu++) {
        int k = core_of_cpu(m, cpu);

        if (k < 0) {
            list_cpus(m, has, sizeof(has));
            return sel_fail(err, n, "--cpu '%s': no cpu%lu in the capture "
                              "(it has %s)", item, cpu, has);
        }
        *cores |= 1ull << k;
    }
    return PP_OK;
}

static int select_cpus(const struct pp_cap_meta *m, const char *cpus, uint64_t *cores,
                       char *err, size_t n)
{
    char buf[256], *save = NULL;
    int rc = PP_OK;

    *cores = 0;
    if (!cpus || strcasecmp(cpus, "all") == 0) {
        *cores = m->ncores >= 64 ? ~0ull : (1ull << m->ncores) - 1u;
        return PP_OK;
    }
    if (strlen(cpus) >= sizeof(buf))
        return sel_fail(err, n, "--cpu: list too long");
    snprintf(buf, sizeof(buf), "%s", cpus);
    for (char *it = strtok_r(buf, ",", &save); it && rc == PP_OK; it = strtok_r(NULL, ",", &save))
        rc = select_cpu_item(m, it, cores, err, n);
    if (rc == PP_OK && !*cores)
        rc = sel_fail(err, n, "--cpu '%s': no cpu named", cpus);
    return rc;
}

static bool has_panel(const struct pp_plot_sel *sel, const char *name, bool metric)
{
    for (unsigned j = 0; j < sel->npanels; j++)
        if (sel->panel[j].metric == metric && strcmp(sel->panel[j].name, name) == 0)
            return true;
    return false;
}

static int add_panel(struct pp_plot_sel *sel, const char *name, bool metric, char *err,
                     size_t n)
{
    if (has_panel(sel, name, metric))
        return PP_OK;
    if (sel->npanels >= PP_PLOT_MAX_PANELS)
        return sel_fail(err, n, "too many panels (at most %u)",
                          (unsigned)PP_PLOT_MAX_PANELS);
    snprintf(sel->panel[sel->npanels].name, PP_PLOT_NAME_LEN, "%s", name);
    sel->panel[sel->npanels++].metric = metric;
    return PP_OK;
}

/* The capture's own spelling of name on the first selected core that has
 * it, or NULL. */
static const char *canonical(const struct pp_cap_meta *m, uint64_t cores, const char *name,
                             bool metric)
{
    for (unsigned k = 0; k < m->ncores; k++) {
        const struct pp_cap_core *c = &m->core[k];
        int i;

        if (!(cores >> k & 1u))
            continue;
        i = metric ? pp_plot_find_metric(c, name) : pp_plot_find_event(c, name);
        if (i >= 0)
            return metric ? c->metric[i].name : c->ev[i].name;
    }
    return NULL;
}

static int select_one(const struct pp_cap_meta *m, struct pp_plot_sel *sel, const char *name,
                      bool metric, char *err, size_t n)
{
    const char *canon = canonical(m, sel->cores, name, metric);
    char has[1024];

    if (canon)
        return add_panel(sel, canon, metric, err, n);
    if (metric) {
        list_metrics(m, sel->cores, has, sizeof(has));
        return sel_fail(err, n, "no metric '%s' in the capture for the cores "
                          "asked (it has: %s)", name,
                          has[0] ? has : "none; a metric needs both of its events captured, "
                                         "e.g. IPC needs instructions and cycles");
    }
    list_events(m, sel->cores, has, sizeof(has));
    return sel_fail(err, n, "no event '%s' in the capture for the cores asked "
                      "(it has: %s)", name, has[0] ? has : "none");
}

static int select_events(const struct pp_cap_meta *m, const char *events,
                         struct pp_plot_sel *sel, char *err, size_t n)
{
    char buf[1024], *save = NULL;
    int rc = PP_OK;

    if (strlen(events) >= sizeof(buf))
        return sel_fail(err, n, "--events: list too long");
    snprintf(buf, sizeof(buf), "%s", events);
    for (char *it = strtok_r(buf, ",", &save); it && rc == PP_OK; it = strtok_r(NULL, ",", &save))
        rc = select_one(m, sel, it, false, err, n);
    return rc;
}

/* Every event of the selected cores, in capture order. */
static int select_all_events(const struct pp_cap_meta *m, struct pp_plot_sel *sel, char *err,
                             size_t n)
{
    int rc = PP_OK;

    for (unsigned k = 0; k < m->ncores && rc == PP_OK; k++)
        for (unsigned i = 0; sel->cores >> k & 1u && i < m->core[k].nev && rc == PP_OK; i++)
            rc = add_panel(sel, m->core[k].ev[i].name, false, err, n);
    return rc;
}

int pp_plot_select(const struct pp_cap_meta *m, const char *events, const char *const *metrics,
                   unsigned nmetrics, const char *cpus, struct pp_plot_sel *sel, char *err,
                   size_t n)
{
    int rc;

    memset(sel, 0, sizeof(*sel));
    rc = select_cpus(m, cpus, &sel->cores, err, n);
    if (rc != PP_OK)
        return rc;
    if (events)
        rc = select_events(m, events, sel, err, n);
    else if (!nmetrics)
        rc = select_all_events(m, sel, err, n);
    for (unsigned j = 0; j < nmetrics && rc == PP_OK; j++)
        rc = select_one(m, sel, metrics[j], true, err, n);
    if (rc == PP_OK && !sel->npanels)
        rc = sel_fail(err, n, "nothing to plot: the capture has no events");
    return rc;
}
