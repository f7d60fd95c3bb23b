/*
 * check_sink.c - the capture sinks (csv, jsonl, perf, trace, bin) and the
 * bin reader.  Pure formatting: the capture is built here by hand, no
 * simulated SoC, and each format is written to a temporary file and read
 * back.
 *
 * The capture: cpu0 (cortex-a76: cycles, instructions, L1D_CACHE_REFILL;
 * metrics IPC and L1D MPKI) and cpu2 (cortex-a55: cycles, BR_MIS_PRED),
 * 100 us interval, five records:
 *   seq 0  both ok
 *   seq 1  cpu0 ok, cpu2 a gap (core-off)
 *   seq 2  DROP: 3 samples (seq 2..4) lost
 *   seq 5  cpu0 discont (power; the instructions delta untrusted),
 *          cpu2 back with a fresh baseline (discont: gap, both deltas)
 *   seq 6  both ok
 *
 * Run as `check_sink --write-bin FILE` it writes that capture as a bin
 * file and exits: tests/sink.test converts it with `pmuprobe convert`.
 */
#include <check.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "capture/binread.h"
#include "capture/sink.h"
#include "pmu/diag.h"
#include "pmu/extend.h"
#include "pmuprobe.h"

#define START_NS 1000000000ull
#define NREC     5u

static struct pp_cap_meta *meta;
static struct pp_cap_sample *rec[NREC];
static struct pp_cap_summary summary;

/* ---- the capture ---------------------------------------------------------------- */

static void add_event(struct pp_cap_core *c, const char *name, const char *mn, uint16_t code,
                      uint8_t counter)
{
    struct pp_cap_event *e = &c->ev[c->nev++];

    snprintf(e->name, sizeof(e->name), "%s", name);
    snprintf(e->mnemonic, sizeof(e->mnemonic), "%s", mn);
    e->code = code;
    e->counter = counter;
}

static void add_metric(struct pp_cap_core *c, const char *name, uint8_t num, uint8_t den,
                       double scale)
{
    struct pp_cap_metric *mt = &c->metric[c->nmetrics++];

    snprintf(mt->name, sizeof(mt->name), "%s", name);
    mt->num = num;
    mt->den = den;
    mt->scale = scale;
}

static void build_meta(struct pp_cap_meta *m)
{
    memset(m, 0, sizeof(*m));
    snprintf(m->target, sizeof(m->target), "test-soc");
    snprintf(m->probe, sizeof(m->probe), "sim");
    m->interval_ns = 100000;
    m->start_mono_ns = START_NS;
    m->start_real_ns = 1700000000000000000ull;
    m->ncores = 2;
    m->core[0].cpu = 0;
    snprintf(m->core[0].type, sizeof(m->core[0].type), "cortex-a76");
    add_event(&m->core[0], "cycles", "CPU_CYCLES", 0x11, 31);
    add_event(&m->core[0], "instructions", "INST_RETIRED", 0x08, 0);
    add_event(&m->core[0], "L1D_CACHE_REFILL", "L1D_CACHE_REFILL", 0x03, 1);
    add_metric(&m->core[0], "IPC", 1, 0, 1);
    add_metric(&m->core[0], "L1D MPKI", 2, 1, 1000);
    m->core[1].cpu = 2;
    snprintf(m->core[1].type, sizeof(m->core[1].type), "cortex-a55");
    add_event(&m->core[1], "cycles", "CPU_CYCLES", 0x11, 31);
    add_event(&m->core[1], "BR_MIS_PRED", "BR_MIS_PRED", 0x10, 0);
    m->core[1].first = 3;
    m->nvals = 5;
}

static struct pp_cap_sample *new_record(const struct pp_cap_meta *m, uint32_t kind, uint64_t seq)
{
    struct pp_cap_sample *s = calloc(1, pp_cap_record_size(m));

    if (!s)                      /* no ck_assert: also used outside the runner */
        abort();
    s->kind = kind;
    s->ncores = m->ncores;
    s->nvals = m->nvals;
    s->seq = seq;
    s->t_start_ns = START_NS + (seq + 1) * 100000u;
    s->t_end_ns = s->t_start_ns + 2000u;
    return s;
}

static void set_vals(struct pp_cap_sample *s, unsigned first, const uint64_t *tot,
                     const uint64_t *del, unsigned n)
{
    struct pp_cap_val *v = pp_cap_vals(s) + first;

    for (unsigned i = 0; i < n; i++) {
        v[i].total = tot[i];
        v[i].delta = del[i];
    }
}

static void build_records(const struct pp_cap_meta *m, struct pp_cap_sample **r)
{
    struct pp_cap_cstat *cs;

    r[0] = new_record(m, PP_CAP_SAMPLE, 0);
    set_vals(r[0], 0, (uint64_t[]){ 200000, 300000, 3000 }, (uint64_t[]){ 200000, 300000, 3000 }, 3);
    set_vals(r[0], 3, (uint64_t[]){ 150000, 500 }, (uint64_t[]){ 150000, 500 }, 2);

    r[1] = new_record(m, PP_CAP_SAMPLE, 1);
    set_vals(r[1], 0, (uint64_t[]){ 400000, 500000, 5000 }, (uint64_t[]){ 200000, 200000, 2000 }, 3);
    cs = pp_cap_cstats(r[1]);
    cs[1].status = PP_CAP_GAP;
    cs[1].cause = PP_CAUSE_CORE_OFF;

    r[2] = new_record(m, PP_CAP_DROP, 2);
    r[2]->dropped = 3;

    r[3] = new_record(m, PP_CAP_SAMPLE, 5);
    set_vals(r[3], 0, (uint64_t[]){ 600000, 100, 6000 }, (uint64_t[]){ 200000, 0, 1000 }, 3);
    set_vals(r[3], 3, (uint64_t[]){ 50000, 100 }, (uint64_t[]){ 0, 0 }, 2);
    cs = pp_cap_cstats(r[3]);
    cs[0].status = PP_CAP_DISCONT;
    cs[0].why = PP_EXT_WHY_POWER;
    cs[0].discont = 1u << 1;
    cs[1].status = PP_CAP_DISCONT;
    cs[1].why = PP_EXT_WHY_GAP;
    cs[1].discont = 3u;

    r[4] = new_record(m, PP_CAP_SAMPLE, 6);
    set_vals(r[4], 0, (uint64_t[]){ 800000, 250000, 8000 }, (uint64_t[]){ 200000, 249900, 2000 }, 3);
    set_vals(r[4], 3, (uint64_t[]){ 200000, 700 }, (uint64_t[]){ 150000, 600 }, 2);
}

static void build_summary(struct pp_cap_summary *s)
{
    memset(s, 0, sizeof(*s));
    s->stop = PP_CAP_STOP_SIGNAL;
    snprintf(s->stop_msg, sizeof(s->stop_msg), "interrupted \"by\" SIGINT");
    s->samples = 7;
    s->written = 4;
    s->late = 1;
    s->dropped = 3;
    s->missed = 2;
    s->blocked_ns = 12;
    s->requested_hz = 10000;
    s->achieved_hz = 9999.5;
    s->jitter_p50_ns = 100;
    s->jitter_p99_ns = 2000;
    s->jitter_max_ns = 5000;
    s->elapsed_ns = 700000;
    s->bytes = 4242;
    s->bus_round_trips = 7;
    s->bus_tck = 9000;
    s->gaps[1][PP_CAUSE_CORE_OFF] = 1;
}

static void setup(void)
{
    meta = malloc(sizeof(*meta));
    if (!meta)
        abort();
    build_meta(meta);
    build_records(meta, rec);
    build_summary(&summary);
}

static void teardown(void)
{
    for (unsigned i = 0; i < NREC; i++)
        free(rec[i]);
    free(meta);
}

/* ---- helpers ------------------------------------------------------------------- */

static char *slurp(FILE *f, size_t *len)
{
    long n;
    char *buf;

    ck_assert_int_eq(fseek(f, 0, SEEK_END), 0);
    n = ftell(f);
    ck_assert_int_ge(n, 0);
    rewind(f);
    buf = malloc((size_t)n + 1);
    ck_assert_ptr_nonnull(buf);
    ck_assert_uint_eq(fread(buf, 1, (size_t)n, f), (size_t)n);
    buf[n] = '\0';
    if (len)
        *len = (size_t)n;
    return buf;
}

/* Writes the capture (records [0, nrec)) with format and opts into f. */
static void write_capture(FILE *f, const char *format, const struct pp_sink_opts *o, unsigned nrec,
                          bool trailer)
{
    char err[256];
    struct pp_sink *s = pp_sink_new(format, f, o, err, sizeof(err));

    ck_assert_msg(s != NULL, "%s", err);
    ck_assert_int_eq(pp_sink_begin(s, meta), PP_OK);
    for (unsigned i = 0; i < nrec; i++)
        ck_assert_int_eq(pp_sink_write(s, rec[i]), PP_OK);
    if (trailer)
        ck_assert_int_eq(pp_sink_end(s, &summary), PP_OK);
    else
        fflush(f);
    pp_sink_free(s);
}

/* The whole capture in format, as text. */
static char *render(const char *format, const struct pp_sink_opts *o)
{
    FILE *f = tmpfile();
    char *text;

    ck_assert_ptr_nonnull(f);
    write_capture(f, format, o, NREC, true);
    text = slurp(f, NULL);
    fclose(f);
    return text;
}

/* Line n (0-based) of text, copied into buf. */
static const char *line_of(const char *text, unsigned n, char *buf, size_t size)
{
    const char *p = text, *e;

    for (unsigned i = 0; i < n && p; i++) {
        p = strchr(p, '\n');
        if (p)
            p++;
    }
    ck_assert_msg(p && *p, "no line %u in:\n%s", n, text);
    e = strchr(p, '\n');
    if (!e)
        e = p + strlen(p);
    ck_assert_uint_lt((size_t)(e - p), size);
    memcpy(buf, p, (size_t)(e - p));
    buf[e - p] = '\0';
    return buf;
}

static unsigned count_lines(const char *text)
{
    unsigned n = 0;

    for (const char *p = text; *p; p++)
        n += *p == '\n';
    return n;
}

static unsigned count_of(const char *text, const char *what)
{
    unsigned n = 0;

    for (const char *p = strstr(text, what); p; p = strstr(p + 1, what))
        n++;
    return n;
}

static unsigned fields_of(const char *line, char sep)
{
    unsigned n = 1;

    for (; *line; line++)
        n += *line == sep;
    return n;
}

/* ---- formats --------------------------------------------------------------------- */

START_TEST(unknown_format_close_to_a_known_one_asks_did_you_mean)
{
    char err[256];

    ck_assert_ptr_null(pp_sink_new("cvs", stdout, NULL, err, sizeof(err)));
    ck_assert_str_eq(err, "unknown output format 'cvs': did you mean 'csv'?");
}
END_TEST

START_TEST(unknown_format_far_from_all_lists_the_formats)
{
    char err[256];

    ck_assert_ptr_null(pp_sink_new("spreadsheet", stdout, NULL, err, sizeof(err)));
    ck_assert_str_eq(err, "unknown output format 'spreadsheet' (formats: csv, jsonl, perf, trace, bin)");
}
END_TEST

START_TEST(format_list_names_every_format_and_each_opens)
{
    const char *const *f = pp_sink_formats();
    unsigned n = 0;

    for (; *f; f++, n++) {
        struct pp_sink *s = pp_sink_new(*f, stdout, NULL, NULL, 0);

        ck_assert_ptr_nonnull(s);
        ck_assert_str_eq(pp_sink_format(s), *f);
        pp_sink_free(s);
    }
    ck_assert_uint_eq(n, 5);
}
END_TEST

START_TEST(record_that_does_not_match_the_meta_is_refused)
{
    FILE *f = tmpfile();
    struct pp_sink *s = pp_sink_new("csv", f, NULL, NULL, 0);

    ck_assert_int_eq(pp_sink_write(s, rec[0]), PP_E_INVAL);      /* before begin */
    ck_assert_int_eq(pp_sink_begin(s, meta), PP_OK);
    rec[0]->ncores = 1;
    ck_assert_int_eq(pp_sink_write(s, rec[0]), PP_E_INVAL);
    ck_assert_ptr_nonnull(strstr(pp_sink_errmsg(s), "does not match"));
    rec[0]->ncores = 2;
    rec[0]->kind = 7;
    ck_assert_int_eq(pp_sink_write(s, rec[0]), PP_E_INVAL);
    pp_sink_free(s);
    fclose(f);
}
END_TEST

START_TEST(meta_with_value_indices_out_of_step_is_refused)
{
    FILE *f = tmpfile();
    struct pp_sink *s = pp_sink_new("bin", f, NULL, NULL, 0);

    meta->core[1].first = 2;
    ck_assert_int_eq(pp_sink_begin(s, meta), PP_E_INVAL);
    ck_assert_uint_eq(pp_sink_bytes(s), 0);
    pp_sink_free(s);
    fclose(f);
}
END_TEST

/* ---- csv ------------------------------------------------------------------------- */

START_TEST(csv_header_has_the_union_of_the_cores_events_then_the_metrics)
{
    struct pp_sink_opts o = { .metrics = true };
    char *text = render("csv", &o), line[1024];

    ck_assert_str_eq(line_of(text, 0, line, sizeof(line)),
                     "time,end,seq,cpu,status,cause,cycles_total,cycles_delta,"
                     "instructions_total,instructions_delta,L1D_CACHE_REFILL_total,"
                     "L1D_CACHE_REFILL_delta,BR_MIS_PRED_total,BR_MIS_PRED_delta,IPC,L1D MPKI");
    free(text);
}
END_TEST

START_TEST(csv_ok_row_has_totals_deltas_and_metrics_of_its_core_only)
{
    struct pp_sink_opts o = { .metrics = true };
    char *text = render("csv", &o), line[1024];

    ck_assert_str_eq(line_of(text, 1, line, sizeof(line)),
                     "0.000100000,0.000102000,0,0,ok,,200000,200000,300000,300000,3000,3000,,,"
                     "1.500,10.000");
    ck_assert_str_eq(line_of(text, 2, line, sizeof(line)),
                     "0.000100000,0.000102000,0,2,ok,,150000,150000,,,,,500,500,,");
    free(text);
}
END_TEST

START_TEST(csv_gap_row_names_the_cause_and_leaves_every_value_empty)
{
    struct pp_sink_opts o = { .metrics = true };
    char *text = render("csv", &o), line[1024];

    ck_assert_str_eq(line_of(text, 4, line, sizeof(line)),
                     "0.000200000,0.000202000,1,2,gap,core-off,,,,,,,,,,");
    free(text);
}
END_TEST

START_TEST(csv_discont_row_names_the_reason_and_leaves_untrusted_deltas_empty)
{
    struct pp_sink_opts o = { .metrics = true };
    char *text = render("csv", &o), line[1024];

    ck_assert_str_eq(line_of(text, 6, line, sizeof(line)),
                     "0.000600000,0.000602000,5,0,discont,power,600000,200000,100,,6000,1000,,,,");
    ck_assert_str_eq(line_of(text, 7, line, sizeof(line)),
                     "0.000600000,0.000602000,5,2,discont,gap,50000,,,,,,100,,,");
    free(text);
}
END_TEST

START_TEST(csv_drop_record_is_a_row_saying_how_many_samples_were_dropped)
{
    struct pp_sink_opts o = { .metrics = true };
    char *text = render("csv", &o), line[1024];

    ck_assert_str_eq(line_of(text, 5, line, sizeof(line)),
                     "0.000300000,0.000302000,2,,drop,3 samples dropped,,,,,,,,,,");
    free(text);
}
END_TEST

START_TEST(csv_every_row_has_as_many_fields_as_the_header)
{
    struct pp_sink_opts o = { .metrics = true };
    char *text = render("csv", &o), line[1024];
    unsigned n = count_lines(text);

    ck_assert_uint_eq(n, 1 + 2 + 2 + 1 + 2 + 2);
    for (unsigned i = 0; i < n; i++)
        ck_assert_uint_eq(fields_of(line_of(text, i, line, sizeof(line)), ','), 16);
    free(text);
}
END_TEST

START_TEST(csv_without_metrics_has_no_metric_columns)
{
    char *text = render("csv", NULL), line[1024];

    ck_assert_uint_eq(fields_of(line_of(text, 0, line, sizeof(line)), ','), 14);
    ck_assert_ptr_null(strstr(text, "IPC"));
    free(text);
}
END_TEST

START_TEST(csv_separator_is_used_and_a_field_holding_it_is_quoted)
{
    struct pp_sink_opts o = { .metrics = true, .sep = ' ' };
    char *text = render("csv", &o), line[1024];

    ck_assert_str_eq(line_of(text, 0, line, sizeof(line)),
                     "time end seq cpu status cause cycles_total cycles_delta "
                     "instructions_total instructions_delta L1D_CACHE_REFILL_total "
                     "L1D_CACHE_REFILL_delta BR_MIS_PRED_total BR_MIS_PRED_delta IPC \"L1D MPKI\"");
    ck_assert_str_eq(line_of(text, 5, line, sizeof(line)),
                     "0.000300000 0.000302000 2  drop \"3 samples dropped\"          ");
    free(text);
}
END_TEST

START_TEST(csv_realtime_column_follows_cause_when_samples_carry_it)
{
    char *text, line[1024];

    meta->realtime = true;
    rec[0]->t_real_ns = 1700000000123456789ull;
    text = render("csv", NULL);
    ck_assert_ptr_nonnull(strstr(line_of(text, 0, line, sizeof(line)), "cause,realtime,cycles_total"));
    ck_assert_ptr_nonnull(strstr(line_of(text, 1, line, sizeof(line)),
                                 ",ok,,1700000000.123456789,200000,"));
    free(text);
}
END_TEST

START_TEST(csv_long_form_has_one_row_per_core_and_event_and_metric)
{
    struct pp_sink_opts o = { .metrics = true, .long_form = true };
    char *text = render("csv", &o), line[1024];

    ck_assert_str_eq(line_of(text, 0, line, sizeof(line)),
                     "time,end,seq,cpu,status,cause,event,total,delta,metric");
    ck_assert_str_eq(line_of(text, 1, line, sizeof(line)),
                     "0.000100000,0.000102000,0,0,ok,,cycles,200000,200000,");
    ck_assert_str_eq(line_of(text, 4, line, sizeof(line)),
                     "0.000100000,0.000102000,0,0,ok,,IPC,,,1.500");
    ck_assert_str_eq(line_of(text, 6, line, sizeof(line)),
                     "0.000100000,0.000102000,0,2,ok,,cycles,150000,150000,");
    /* seq 1: five rows of cpu0, then cpu2's two events as gap rows */
    ck_assert_str_eq(line_of(text, 13, line, sizeof(line)),
                     "0.000200000,0.000202000,1,2,gap,core-off,cycles,,,");
    ck_assert_str_eq(line_of(text, 15, line, sizeof(line)),
                     "0.000300000,0.000302000,2,,drop,3 samples dropped,,,,");
    ck_assert_str_eq(line_of(text, 17, line, sizeof(line)),
                     "0.000600000,0.000602000,5,0,discont,power,instructions,100,,");
    for (unsigned i = 0, n = count_lines(text); i < n; i++)
        ck_assert_uint_eq(fields_of(line_of(text, i, line, sizeof(line)), ','), 10);
    free(text);
}
END_TEST

START_TEST(csv_perf_x_rows_follow_perf_stat_field_order)
{
    struct pp_sink_opts o = { .metrics = true, .perf_x = true };
    char *text, line[1024];

    /* a second metric of L1D_CACHE_REFILL: perf prints it on a row of its own */
    add_metric(&meta->core[0], "L1D per kcycle", 2, 0, 1000);
    text = render("csv", &o);
    /* time, cpu, value, unit, event, run time, pct, metric value, metric unit;
     * seq 0 is the baseline: nothing printed for it, as perf stat -I */
    ck_assert_ptr_null(strstr(text, "0.000100000,"));
    ck_assert_str_eq(line_of(text, 0, line, sizeof(line)),
                     "0.000200000,CPU0,200000,,cycles,100000,100.00,,");
    ck_assert_str_eq(line_of(text, 1, line, sizeof(line)),
                     "0.000200000,CPU0,200000,,instructions,100000,100.00,1.00,IPC");
    ck_assert_str_eq(line_of(text, 2, line, sizeof(line)),
                     "0.000200000,CPU0,2000,,L1D_CACHE_REFILL,100000,100.00,10.00,L1D MPKI");
    ck_assert_str_eq(line_of(text, 3, line, sizeof(line)),
                     "0.000200000,CPU0,,,,,,10.00,L1D per kcycle");
    ck_assert_str_eq(line_of(text, 4, line, sizeof(line)),
                     "0.000200000,CPU2,<not counted>,,cycles,0,0.00,,");
    /* the drop record prints nothing; after it the run time is the interval */
    ck_assert_str_eq(line_of(text, 6, line, sizeof(line)),
                     "0.000600000,CPU0,200000,,cycles,100000,100.00,,");
    ck_assert_str_eq(line_of(text, 7, line, sizeof(line)),
                     "0.000600000,CPU0,<not counted>,,instructions,0,0.00,,");
    ck_assert_str_eq(line_of(text, 8, line, sizeof(line)),
                     "0.000600000,CPU0,1000,,L1D_CACHE_REFILL,100000,100.00,5.00,L1D per kcycle");
    ck_assert_str_eq(line_of(text, 16, line, sizeof(line)),
                     "0.000700000,CPU2,600,,BR_MIS_PRED,100000,100.00,,");
    ck_assert_uint_eq(count_lines(text), 17);
    for (unsigned i = 0, n = count_lines(text); i < n; i++)
        ck_assert_uint_eq(fields_of(line_of(text, i, line, sizeof(line)), ','), 9);
    free(text);
}
END_TEST

/* ---- jsonl ----------------------------------------------------------------------- */

START_TEST(jsonl_has_meta_first_then_one_object_per_record_then_summary)
{
    struct pp_sink_opts o = { .metrics = true };
    char *text = render("jsonl", &o), line[4096];

    ck_assert_uint_eq(count_lines(text), 1 + NREC + 1);
    ck_assert_ptr_nonnull(strstr(line_of(text, 0, line, sizeof(line)),
                                 "{\"type\":\"meta\",\"format\":\"pmuprobe-jsonl\",\"version\":1,"
                                 "\"target\":\"test-soc\",\"probe\":\"sim\""));
    ck_assert_ptr_nonnull(strstr(line, "{\"name\":\"IPC\",\"num\":\"instructions\","
                                       "\"den\":\"cycles\",\"scale\":1.000}"));
    ck_assert_str_eq(line_of(text, 1, line, sizeof(line)),
                     "{\"type\":\"sample\",\"seq\":0,\"t_ns\":100000,\"t_end_ns\":102000,"
                     "\"late_ns\":0,\"cores\":[{\"cpu\":0,\"status\":\"ok\",\"events\":["
                     "{\"name\":\"cycles\",\"total\":200000,\"delta\":200000},"
                     "{\"name\":\"instructions\",\"total\":300000,\"delta\":300000},"
                     "{\"name\":\"L1D_CACHE_REFILL\",\"total\":3000,\"delta\":3000}],"
                     "\"metrics\":[{\"name\":\"IPC\",\"value\":1.500000},"
                     "{\"name\":\"L1D MPKI\",\"value\":10.000000}]},"
                     "{\"cpu\":2,\"status\":\"ok\",\"events\":["
                     "{\"name\":\"cycles\",\"total\":150000,\"delta\":150000},"
                     "{\"name\":\"BR_MIS_PRED\",\"total\":500,\"delta\":500}]}]}");
    ck_assert_ptr_nonnull(strstr(line_of(text, 6, line, sizeof(line)),
                                 "{\"type\":\"summary\",\"stop\":\"signal\","
                                 "\"stop_msg\":\"interrupted \\\"by\\\" SIGINT\",\"samples\":7"));
    ck_assert_ptr_nonnull(strstr(line, "\"gaps\":[{\"cpu\":2,\"cause\":\"core-off\",\"samples\":1}]}"));
    free(text);
}
END_TEST

START_TEST(jsonl_gap_core_has_its_cause_and_no_values)
{
    char *text = render("jsonl", NULL), line[4096];

    ck_assert_ptr_nonnull(strstr(line_of(text, 2, line, sizeof(line)),
                                 ",{\"cpu\":2,\"status\":\"gap\",\"cause\":\"core-off\"}]}"));
    free(text);
}
END_TEST

START_TEST(jsonl_discont_core_lists_why_and_nulls_untrusted_deltas)
{
    struct pp_sink_opts o = { .metrics = true };
    char *text = render("jsonl", &o), line[4096];

    line_of(text, 4, line, sizeof(line));
    ck_assert_ptr_nonnull(strstr(line, "{\"cpu\":0,\"status\":\"discont\",\"why\":[\"power\"],"));
    ck_assert_ptr_nonnull(strstr(line, "{\"name\":\"instructions\",\"total\":100,\"delta\":null}"));
    ck_assert_ptr_nonnull(strstr(line, "{\"name\":\"IPC\",\"value\":null}"));
    free(text);
}
END_TEST

START_TEST(jsonl_drop_record_says_how_many_samples_were_dropped)
{
    char *text = render("jsonl", NULL), line[4096];

    ck_assert_str_eq(line_of(text, 3, line, sizeof(line)),
                     "{\"type\":\"drop\",\"seq\":2,\"t_ns\":300000,\"t_end_ns\":302000,"
                     "\"dropped\":3,\"message\":\"3 samples dropped\"}");
    free(text);
}
END_TEST

START_TEST(jsonl_escapes_quotes_backslashes_controls_and_broken_utf8_in_names)
{
    char *text, line[4096];

    snprintf(meta->core[0].ev[0].name, PP_CAP_NAME_LEN, "we\"ird\\na\x01me\xff\xc3\xa9");
    text = render("jsonl", NULL);
    ck_assert_ptr_nonnull(strstr(line_of(text, 1, line, sizeof(line)),
                                 "{\"name\":\"we\\\"ird\\\\na\\u0001me\\ufffd\xc3\xa9\",\"total\""));
    free(text);
}
END_TEST

/* ---- perf ------------------------------------------------------------------------ */

START_TEST(perf_interval_rows_show_time_cpu_count_event_and_metric_comment)
{
    struct pp_sink_opts o = { .metrics = true };
    char *text = render("perf", &o), line[1024];

    ck_assert_str_eq(line_of(text, 2, line, sizeof(line)),
                     "     0.000100000 CPU0              200,000   cycles");
    ck_assert_str_eq(line_of(text, 3, line, sizeof(line)),
                     "     0.000100000 CPU0              300,000   instructions             "
                     " #     1.50  IPC");
    free(text);
}
END_TEST

START_TEST(perf_gap_discont_and_drop_are_spelled_out)
{
    char *text = render("perf", NULL);

    ck_assert_ptr_nonnull(strstr(text, "     0.000200000 CPU2        <not counted>   cycles"
                                       "                    # gap: core-off\n"));
    ck_assert_ptr_nonnull(strstr(text, "     0.000600000 CPU0        <not counted>   instructions"
                                       "              # discont: power\n"));
    ck_assert_ptr_nonnull(strstr(text, "     0.000300000                             "
                                       "3 samples dropped\n"));
    free(text);
}
END_TEST

START_TEST(perf_ends_with_totals_elapsed_time_and_capture_summary)
{
    struct pp_sink_opts o = { .metrics = true };
    char *text = render("perf", &o);

    ck_assert_ptr_nonnull(strstr(text, "\n Performance counter stats for test-soc via sim:\n\n"));
    ck_assert_ptr_nonnull(strstr(text, "\nCPU0              800,000   cycles\n"));
    ck_assert_ptr_nonnull(strstr(text, "\nCPU0              250,000   instructions"
                                       "              #     0.31  IPC\n"));
    ck_assert_ptr_nonnull(strstr(text, "\nCPU2                  700   BR_MIS_PRED\n"));
    ck_assert_ptr_nonnull(strstr(text, "     0.000700000 seconds time elapsed\n"));
    ck_assert_ptr_nonnull(strstr(text, " 7 samples, 4 written, 1 late, 3 dropped; stop: signal"));
    ck_assert_ptr_nonnull(strstr(text, " gaps: cpu2 core-off 1\n"));
    free(text);
}
END_TEST

/* ---- trace ----------------------------------------------------------------------- */

START_TEST(trace_is_an_object_with_trace_events_and_names_each_core)
{
    char *text = render("trace", NULL);
    size_t n = strlen(text);

    ck_assert_int_eq(strncmp(text, "{\"traceEvents\":[\n", 17), 0);
    ck_assert_str_eq(text + n - 2, "}\n");
    ck_assert_ptr_nonnull(strstr(text, "{\"ph\":\"M\",\"pid\":1,\"tid\":1,\"name\":\"process_name\","
                                       "\"args\":{\"name\":\"cpu0 cortex-a76\"}}"));
    ck_assert_ptr_nonnull(strstr(text, "{\"ph\":\"M\",\"pid\":2,\"tid\":1,\"name\":\"thread_name\","
                                       "\"args\":{\"name\":\"PMU\"}}"));
    ck_assert_ptr_nonnull(strstr(text, "\n],\n\"displayTimeUnit\":\"ns\",\n\"otherData\":{"));
    free(text);
}
END_TEST

START_TEST(trace_has_a_counter_event_per_trusted_delta_and_metric)
{
    struct pp_sink_opts o = { .metrics = true };
    char *text = render("trace", &o);

    /* seq 0: 3 + 2 metrics + 2; seq 1: 5, cpu1's gap ends its 2; the drop
     * ends cpu0's 5; seq 5: none (interval unknown, or untrusted); seq 6:
     * 7; the end ends those 7 */
    ck_assert_uint_eq(count_of(text, "\"ph\":\"C\""), 33);
    ck_assert_uint_eq(count_of(text, "\"NaN\""), 14);
    ck_assert_ptr_nonnull(strstr(text, "{\"ph\":\"C\",\"pid\":1,\"tid\":1,\"ts\":0.000,"
                                       "\"name\":\"cycles\",\"args\":{\"rate\":2000000000.000}}"));
    ck_assert_ptr_nonnull(strstr(text, "{\"ph\":\"C\",\"pid\":1,\"tid\":1,\"ts\":0.000,"
                                       "\"name\":\"IPC\",\"args\":{\"value\":1.500000}}"));
    free(text);
}
END_TEST

/* A viewer holds a counter's value until the track's next event: each
 * value is stamped where its interval starts, and a track has "NaN" (no
 * value) from its core's last read before a gap, a drop and the end. */
START_TEST(trace_values_start_their_interval_and_gaps_hold_none)
{
    char *text = render("trace", NULL);

    /* seq 1 (t 200): cpu0's cycles over 100 .. 200 */
    ck_assert_ptr_nonnull(strstr(text, "{\"ph\":\"C\",\"pid\":1,\"tid\":1,\"ts\":100.000,"
                                       "\"name\":\"cycles\",\"args\":{\"rate\":2000000000.000}}"));
    /* cpu1 read last at 100, a gap at 200 */
    ck_assert_ptr_nonnull(strstr(text, "{\"ph\":\"C\",\"pid\":2,\"tid\":1,\"ts\":100.000,"
                                       "\"name\":\"cycles\",\"args\":{\"rate\":\"NaN\"}}"));
    /* samples dropped after cpu0's read at 200 */
    ck_assert_ptr_nonnull(strstr(text, "{\"ph\":\"C\",\"pid\":1,\"tid\":1,\"ts\":200.000,"
                                       "\"name\":\"cycles\",\"args\":{\"rate\":\"NaN\"}}"));
    /* seq 6 (t 700) over 600 .. 700, then nothing after the last read */
    ck_assert_ptr_nonnull(strstr(text, "{\"ph\":\"C\",\"pid\":2,\"tid\":1,\"ts\":600.000,"
                                       "\"name\":\"cycles\",\"args\":{\"rate\":1500000000.000}}"));
    ck_assert_ptr_nonnull(strstr(text, "{\"ph\":\"C\",\"pid\":2,\"tid\":1,\"ts\":700.000,"
                                       "\"name\":\"cycles\",\"args\":{\"rate\":\"NaN\"}}"));
    ck_assert_ptr_null(strstr(text, "\"ts\":700.000,\"name\":\"cycles\",\"args\":{\"rate\":2"));
    free(text);
}
END_TEST

START_TEST(trace_gap_is_a_slice_spanning_the_gap_with_its_cause)
{
    char *text = render("trace", NULL);

    ck_assert_ptr_nonnull(strstr(text, "{\"ph\":\"X\",\"pid\":2,\"tid\":1,\"ts\":200.000,"
                                       "\"dur\":400.000,\"cat\":\"gap\",\"name\":\"gap: core-off\","
                                       "\"args\":{\"cause\":\"core-off\",\"samples\":1}}"));
    free(text);
}
END_TEST

START_TEST(trace_gap_still_open_at_the_end_is_closed_by_end)
{
    FILE *f = tmpfile();
    char *text;

    write_capture(f, "trace", NULL, 2, true);   /* ends inside cpu2's gap */
    text = slurp(f, NULL);
    ck_assert_ptr_nonnull(strstr(text, "{\"ph\":\"X\",\"pid\":2,\"tid\":1,\"ts\":200.000,"
                                       "\"dur\":2.000,"));
    free(text);
    fclose(f);
}
END_TEST

START_TEST(trace_marks_discont_and_drop_with_instant_events)
{
    char *text = render("trace", NULL);

    ck_assert_ptr_nonnull(strstr(text, "{\"ph\":\"i\",\"pid\":1,\"tid\":1,\"ts\":600.000,\"s\":\"t\","
                                       "\"cat\":\"discont\",\"name\":\"discont: power\""));
    ck_assert_ptr_nonnull(strstr(text, "{\"ph\":\"i\",\"pid\":0,\"tid\":0,\"ts\":300.000,\"s\":\"g\","
                                       "\"cat\":\"drop\",\"name\":\"3 samples dropped\""));
    free(text);
}
END_TEST

/* ---- bin --------------------------------------------------------------------------- */

static struct pp_binread *open_bin(FILE *f)
{
    char err[256];
    struct pp_binread *r;

    rewind(f);
    r = pp_binread_open(f, "test.bin", err, sizeof(err));
    ck_assert_msg(r != NULL, "%s", err);
    return r;
}

START_TEST(bin_starts_with_magic_version_and_lengths)
{
    FILE *f = tmpfile();
    size_t len;
    uint8_t *b;

    write_capture(f, "bin", NULL, NREC, true);
    b = (uint8_t *)slurp(f, &len);
    ck_assert_int_eq(memcmp(b, "PMUPROBE", 8), 0);
    ck_assert_uint_eq(pp_le16_get(b + 8), 1);
    ck_assert_uint_eq(pp_le32_get(b + 12), pp_bin_header_len(meta));
    ck_assert_uint_eq(pp_le32_get(b + 16), pp_cap_record_size(meta));
    ck_assert_uint_eq(len, pp_bin_header_len(meta) + NREC * pp_cap_record_size(meta) +
                               pp_bin_trailer_len(meta));
    free(b);
    fclose(f);
}
END_TEST

START_TEST(bin_round_trips_meta_records_and_summary_exactly)
{
    FILE *f = tmpfile();
    struct pp_binread *r;
    const struct pp_cap_sample *smp;
    struct pp_cap_summary sum;

    write_capture(f, "bin", NULL, NREC, true);
    r = open_bin(f);
    ck_assert_int_eq(memcmp(pp_binread_meta(r), meta, sizeof(*meta)), 0);
    for (unsigned i = 0; i < NREC; i++) {
        ck_assert_int_eq(pp_binread_next(r, &smp), 1);
        ck_assert_int_eq(memcmp(smp, rec[i], pp_cap_record_size(meta)), 0);
    }
    ck_assert_int_eq(pp_binread_next(r, &smp), 0);
    ck_assert(!pp_binread_truncated(r));
    ck_assert(pp_binread_summary(r, &sum));
    ck_assert_int_eq(memcmp(&sum, &summary, sizeof(sum)), 0);
    ck_assert_uint_eq(pp_binread_records(r), NREC);
    pp_binread_free(r);
    fclose(f);
}
END_TEST

/* Version 1.1 files end their trailer with the gaps: still read, with
 * nothing missed known. */
START_TEST(bin_of_version_1_1_reads_with_its_shorter_trailer)
{
    FILE *f = tmpfile(), *old = tmpfile();
    size_t len, tlen = pp_bin_trailer_len(meta);
    struct pp_binread *r;
    const struct pp_cap_sample *smp;
    struct pp_cap_summary sum;
    uint8_t *b;

    write_capture(f, "bin", NULL, NREC, true);
    b = (uint8_t *)slurp(f, &len);
    pp_le16_put(b + 10, 1);
    pp_le32_put(b + len - tlen + 4, (uint32_t)(tlen - 8));
    ck_assert_uint_eq(fwrite(b, 1, len - 8, old), len - 8);
    rewind(old);
    r = open_bin(old);
    for (unsigned i = 0; i < NREC; i++)
        ck_assert_int_eq(pp_binread_next(r, &smp), 1);
    ck_assert_int_eq(pp_binread_next(r, &smp), 0);
    ck_assert(!pp_binread_truncated(r));
    ck_assert(pp_binread_summary(r, &sum));
    ck_assert_uint_eq(sum.dropped, 3);
    ck_assert_uint_eq(sum.missed, 0);
    pp_binread_free(r);
    free(b);
    fclose(old);
    fclose(f);
}
END_TEST

START_TEST(bin_encoding_of_a_record_is_its_memory_layout_on_little_endian_hosts)
{
    size_t n = pp_cap_record_size(meta);
    uint8_t *buf = malloc(n);
    const uint16_t probe = 1;

    if (*(const uint8_t *)&probe != 1) {     /* big-endian host: nothing to compare */
        free(buf);
        return;
    }
    pp_bin_encode_record(rec[3], buf);
    ck_assert_int_eq(memcmp(buf, rec[3], n), 0);
    free(buf);
}
END_TEST

START_TEST(bin_cut_inside_a_record_reads_up_to_the_last_complete_one)
{
    FILE *f = tmpfile(), *cut = tmpfile();
    size_t len, keep = pp_bin_header_len(meta) + 3 * pp_cap_record_size(meta) + 17;
    char *b;
    struct pp_binread *r;
    const struct pp_cap_sample *smp;
    struct pp_cap_summary sum;

    write_capture(f, "bin", NULL, NREC, false);   /* a writer killed mid-record */
    b = slurp(f, &len);
    ck_assert_uint_gt(len, keep);
    ck_assert_uint_eq(fwrite(b, 1, keep, cut), keep);
    r = open_bin(cut);
    for (unsigned i = 0; i < 3; i++) {
        ck_assert_int_eq(pp_binread_next(r, &smp), 1);
        ck_assert_uint_eq(smp->seq, rec[i]->seq);
    }
    ck_assert_int_eq(pp_binread_next(r, &smp), 0);
    ck_assert(pp_binread_truncated(r));
    ck_assert_uint_eq(pp_binread_partial_bytes(r), 17);
    ck_assert(!pp_binread_summary(r, &sum));
    pp_binread_free(r);
    free(b);
    fclose(f);
    fclose(cut);
}
END_TEST

START_TEST(bin_without_the_magic_is_refused_as_not_a_capture)
{
    FILE *f = tmpfile();
    char err[256];

    fputs("time,end,seq\n0.1,0.2,0\n", f);
    rewind(f);
    ck_assert_ptr_null(pp_binread_open(f, "run.csv", err, sizeof(err)));
    ck_assert_str_eq(err, "run.csv: not a pmuprobe capture (no \"PMUPROBE\" header)");
    fclose(f);
}
END_TEST

START_TEST(bin_of_a_newer_major_version_is_refused_by_name)
{
    FILE *f = tmpfile();
    uint8_t two[4] = { 2, 0, 0, 0 };   /* major 2, minor 0 */
    char err[256];

    write_capture(f, "bin", NULL, 1, true);
    fseek(f, 8, SEEK_SET);
    fwrite(two, 1, sizeof(two), f);
    rewind(f);
    ck_assert_ptr_null(pp_binread_open(f, "new.bin", err, sizeof(err)));
    ck_assert_str_eq(err, "new.bin: format version 2.0; this pmuprobe reads version 1.x");
    fclose(f);
}
END_TEST

START_TEST(bin_record_of_unknown_kind_is_a_parse_error_at_its_offset)
{
    FILE *f = tmpfile();
    uint8_t nine[4] = { 9, 0, 0, 0 };
    size_t at = pp_bin_header_len(meta) + pp_cap_record_size(meta);
    struct pp_binread *r;
    const struct pp_cap_sample *smp;
    char want[128];

    write_capture(f, "bin", NULL, NREC, true);
    fseek(f, (long)at, SEEK_SET);
    fwrite(nine, 1, 4, f);
    r = open_bin(f);
    ck_assert_int_eq(pp_binread_next(r, &smp), 1);
    ck_assert_int_eq(pp_binread_next(r, &smp), PP_E_PARSE);
    snprintf(want, sizeof(want), "test.bin: record 1 at offset %zu: unknown record kind", at);
    ck_assert_str_eq(pp_binread_errmsg(r), want);
    pp_binread_free(r);
    fclose(f);
}
END_TEST

/* ---- output errors and bytes ------------------------------------------------------------ */

START_TEST(bytes_counts_everything_written)
{
    const char *const *fmt = pp_sink_formats();

    for (; *fmt; fmt++) {
        FILE *f = tmpfile();
        char err[256];
        struct pp_sink *s = pp_sink_new(*fmt, f, NULL, err, sizeof(err));
        size_t len;
        char *b;

        ck_assert_int_eq(pp_sink_begin(s, meta), PP_OK);
        for (unsigned i = 0; i < NREC; i++)
            ck_assert_int_eq(pp_sink_write(s, rec[i]), PP_OK);
        ck_assert_int_eq(pp_sink_end(s, &summary), PP_OK);
        b = slurp(f, &len);
        ck_assert_msg(pp_sink_bytes(s) == len, "%s: %llu bytes counted, %zu written", *fmt,
                      (unsigned long long)pp_sink_bytes(s), len);
        free(b);
        pp_sink_free(s);
        fclose(f);
    }
}
END_TEST

START_TEST(full_disk_is_an_io_error_naming_the_output)
{
    FILE *f = fopen("/dev/full", "w");
    struct pp_sink_opts o = { .name = "run.csv" };
    struct pp_sink *s;
    int rc = PP_OK;

    ck_assert_ptr_nonnull(f);
    s = pp_sink_new("csv", f, &o, NULL, 0);
    ck_assert_int_eq(pp_sink_begin(s, meta), PP_OK);   /* buffered: not seen yet */
    for (unsigned i = 0; i < 2000 && rc == PP_OK; i++)
        rc = pp_sink_write(s, rec[0]);
    if (rc == PP_OK)
        rc = pp_sink_end(s, &summary);
    ck_assert_int_eq(rc, PP_E_IO);
    ck_assert_str_eq(pp_sink_errmsg(s), "writing run.csv: No space left on device");
    ck_assert_int_eq(pp_sink_write(s, rec[0]), PP_E_IO);   /* sticky */
    pp_sink_free(s);
    fclose(f);
}
END_TEST

START_TEST(closed_pipe_is_an_io_error_not_a_crash)
{
    int fd[2];
    FILE *f;
    struct pp_sink *s;
    void (*old)(int) = signal(SIGPIPE, SIG_IGN);

    ck_assert_int_eq(pipe(fd), 0);
    close(fd[0]);
    f = fdopen(fd[1], "w");
    s = pp_sink_new("bin", f, NULL, NULL, 0);
    ck_assert_int_eq(pp_sink_begin(s, meta), PP_OK);
    ck_assert_int_eq(pp_sink_end(s, NULL), PP_E_IO);
    ck_assert_str_eq(pp_sink_errmsg(s), "writing output: Broken pipe");
    pp_sink_free(s);
    fclose(f);
    signal(SIGPIPE, old);
}
END_TEST

/* ---- number formatting ------------------------------------------------------------------ */

START_TEST(integer_and_time_formatting_is_exact_at_the_limits)
{
    char b[64];

    *pp_fmt_u64(b, 0) = '\0';
    ck_assert_str_eq(b, "0");
    *pp_fmt_u64(b, UINT64_MAX) = '\0';
    ck_assert_str_eq(b, "18446744073709551615");
    *pp_fmt_u64_grouped(b, 1234567) = '\0';
    ck_assert_str_eq(b, "1,234,567");
    *pp_fmt_u64_grouped(b, 999) = '\0';
    ck_assert_str_eq(b, "999");
    *pp_fmt_ns_as_s(b, 12000000345ull) = '\0';
    ck_assert_str_eq(b, "12.000000345");
    *pp_fmt_ns_as_us(b, 1000005ull) = '\0';
    ck_assert_str_eq(b, "1000.005");
    *pp_fmt_double(b, 0.0005, 3) = '\0';
    ck_assert_str_eq(b, "0.001");
    *pp_fmt_double(b, -2.25, 1) = '\0';
    ck_assert_str_eq(b, "-2.3");
    *pp_fmt_double(b, 0.0 / 0.0, 3) = '\0';
    ck_assert_str_eq(b, "nan");
}
END_TEST

static Suite *sink_suite(void)
{
    Suite *su = suite_create("sink");
    TCase *tc;

    tc = tcase_create("formats");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, unknown_format_close_to_a_known_one_asks_did_you_mean);
    tcase_add_test(tc, unknown_format_far_from_all_lists_the_formats);
    tcase_add_test(tc, format_list_names_every_format_and_each_opens);
    tcase_add_test(tc, record_that_does_not_match_the_meta_is_refused);
    tcase_add_test(tc, meta_with_value_indices_out_of_step_is_refused);
    tcase_add_test(tc, integer_and_time_formatting_is_exact_at_the_limits);
    suite_add_tcase(su, tc);

    tc = tcase_create("csv");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, csv_header_has_the_union_of_the_cores_events_then_the_metrics);
    tcase_add_test(tc, csv_ok_row_has_totals_deltas_and_metrics_of_its_core_only);
    tcase_add_test(tc, csv_gap_row_names_the_cause_and_leaves_every_value_empty);
    tcase_add_test(tc, csv_discont_row_names_the_reason_and_leaves_untrusted_deltas_empty);
    tcase_add_test(tc, csv_drop_record_is_a_row_saying_how_many_samples_were_dropped);
    tcase_add_test(tc, csv_every_row_has_as_many_fields_as_the_header);
    tcase_add_test(tc, csv_without_metrics_has_no_metric_columns);
    tcase_add_test(tc, csv_separator_is_used_and_a_field_holding_it_is_quoted);
    tcase_add_test(tc, csv_realtime_column_follows_cause_when_samples_carry_it);
    tcase_add_test(tc, csv_long_form_has_one_row_per_core_and_event_and_metric);
    tcase_add_test(tc, csv_perf_x_rows_follow_perf_stat_field_order);
    suite_add_tcase(su, tc);

    tc = tcase_create("jsonl");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, jsonl_has_meta_first_then_one_object_per_record_then_summary);
    tcase_add_test(tc, jsonl_gap_core_has_its_cause_and_no_values);
    tcase_add_test(tc, jsonl_discont_core_lists_why_and_nulls_untrusted_deltas);
    tcase_add_test(tc, jsonl_drop_record_says_how_many_samples_were_dropped);
    tcase_add_test(tc, jsonl_escapes_quotes_backslashes_controls_and_broken_utf8_in_names);
    suite_add_tcase(su, tc);

    tc = tcase_create("perf");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, perf_interval_rows_show_time_cpu_count_event_and_metric_comment);
    tcase_add_test(tc, perf_gap_discont_and_drop_are_spelled_out);
    tcase_add_test(tc, perf_ends_with_totals_elapsed_time_and_capture_summary);
    suite_add_tcase(su, tc);

    tc = tcase_create("trace");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, trace_is_an_object_with_trace_events_and_names_each_core);
    tcase_add_test(tc, trace_has_a_counter_event_per_trusted_delta_and_metric);
    tcase_add_test(tc, trace_values_start_their_interval_and_gaps_hold_none);
    tcase_add_test(tc, trace_gap_is_a_slice_spanning_the_gap_with_its_cause);
    tcase_add_test(tc, trace_gap_still_open_at_the_end_is_closed_by_end);
    tcase_add_test(tc, trace_marks_discont_and_drop_with_instant_events);
    suite_add_tcase(su, tc);

    tc = tcase_create("bin");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, bin_starts_with_magic_version_and_lengths);
    tcase_add_test(tc, bin_round_trips_meta_records_and_summary_exactly);
    tcase_add_test(tc, bin_of_version_1_1_reads_with_its_shorter_trailer);
    tcase_add_test(tc, bin_encoding_of_a_record_is_its_memory_layout_on_little_endian_hosts);
    tcase_add_test(tc, bin_cut_inside_a_record_reads_up_to_the_last_complete_one);
    tcase_add_test(tc, bin_without_the_magic_is_refused_as_not_a_capture);
    tcase_add_test(tc, bin_of_a_newer_major_version_is_refused_by_name);
    tcase_add_test(tc, bin_record_of_unknown_kind_is_a_parse_error_at_its_offset);
    suite_add_tcase(su, tc);

    tc = tcase_create("output errors");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, bytes_counts_everything_written);
    tcase_add_test(tc, full_disk_is_an_io_error_naming_the_output);
    tcase_add_test(tc, closed_pipe_is_an_io_error_not_a_crash);
    suite_add_tcase(su, tc);
    return su;
}

/* `check_sink --write-bin FILE [--no-trailer]`: the capture above as a bin
 * file, for tests/sink.test. */
static int write_bin_file(const char *path, bool trailer)
{
    FILE *f = fopen(path, "wb");

    if (!f) {
        fprintf(stderr, "check_sink: cannot create %s: %s\n", path, strerror(errno));
        return EXIT_FAILURE;
    }
    struct pp_sink *s = pp_sink_new("bin", f, NULL, NULL, 0);
    int rc;

    setup();
    rc = pp_sink_begin(s, meta);
    for (unsigned i = 0; i < NREC && rc == PP_OK; i++)
        rc = pp_sink_write(s, rec[i]);
    if (rc == PP_OK && trailer)
        rc = pp_sink_end(s, &summary);
    if (rc != PP_OK)
        fprintf(stderr, "check_sink: %s\n", pp_sink_errmsg(s));
    pp_sink_free(s);
    teardown();
    return fclose(f) == 0 && rc == PP_OK ? EXIT_SUCCESS : EXIT_FAILURE;
}

int main(int argc, char **argv)
{
    SRunner *sr;
    int failed;

    if (argc >= 3 && strcmp(argv[1], "--write-bin") == 0)
        return write_bin_file(argv[2], !(argc >= 4 && strcmp(argv[3], "--no-trailer") == 0));
    sr = srunner_create(sink_suite());
    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
