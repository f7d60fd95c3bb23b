/*
 * api.c - the public capture API (pmuprobe.h, section "capture") over the
 * capture engine (capture.h): setup on a session, the engine's output as
 * an optional file sink plus a callback or a bounded queue for pulling,
 * and per-core sample slices in place of the engine's whole records.
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "errmsg.h"
#include "capture/capture.h"
#include "capture/sink.h"
#include "session/session.h"

#define QUEUE_DEFAULT 1024u
#define STAGE_MAX     256u            /* records the puller takes at a time */
#define NS_PER_S      1000000000ull

struct pp_capture {
    struct pp_session *s;
    struct pp_cap *cap;
    struct pp_cap_out out;
    const struct pp_cap_meta *meta;   /* the engine's; final from begin on */
    FILE *fp;
    struct pp_sink *sink;
    pp_sample_fn fn;
    void *user;
    bool pull;

    /* The queue between the writer thread and the puller: qcap whole
     * records of rec_size bytes, a ring of count from head. */
    pthread_mutex_t mu;
    pthread_cond_t more, room;        /* signalled on a push; on a pop or close */
    unsigned char *q;
    size_t rec_size, qcap, head, count;
    size_t want;                      /* a batch waits to fill: signal at this count */
    bool ended;                       /* the writer has ended: no more pushes */
    bool closing;                     /* pp_capture_close: the writer discards */

    /* The puller's records, taken off the queue scap at a time (two
     * short lock holds, not one per record: the writer waits for that
     * lock), and the one being handed out. */
    unsigned char *stage;
    size_t scap, staged, snext;       /* records in stage; the next to hand out */
    const struct pp_cap_sample *cur;
    bool holding;                     /* cur holds a record taken off the queue */
    unsigned next_core;               /* of cur; meta->ncores: cur is used up */
    uint64_t values[PP_CAP_MAX_EVENTS], deltas[PP_CAP_MAX_EVENTS];

    atomic_bool done;                 /* pp_capture_wait saw the end (threads joined) */
    _Atomic uint64_t delivered;       /* sample records handed on (not DROP marks) */
};

/* ---- a record as per-core slices ---------------------------------------------- */

static void slice(const struct pp_cap_meta *m, const struct pp_cap_sample *smp, unsigned k,
                  struct pp_sample *out, uint64_t *values, uint64_t *deltas)
{
    const struct pp_cap_cstat *cs = &pp_cap_cstats_c(smp)[k];
    const struct pp_cap_core *core = &m->core[k];
    const struct pp_cap_val *v = pp_cap_vals_c(smp) + core->first;
    const bool gap = cs->status == PP_CAP_GAP;

    *out = (struct pp_sample){
        .seq = smp->seq, .t_ns = pp_sink_rel_ns(m, smp->t_start_ns), .core = k,
        .cpu = core->cpu, .gap = gap, .cause = gap ? cs->cause : 0, .baseline = smp->seq == 0,
        .discont = cs->status == PP_CAP_DISCONT ? cs->discont : 0,
    };
    /* Without --realtime the engine reads no wall clock per sample; the
     * start's pair of clocks gives the same instant to within the drift
     * of CLOCK_REALTIME over the capture. */
    out->t_real_ns = m->realtime ? smp->t_real_ns : m->start_real_ns + out->t_ns;
    if (gap)
        return;
    for (unsigned i = 0; i < core->nev; i++) {
        values[i] = v[i].total;
        deltas[i] = v[i].delta;
    }
    out->nvalues = core->nev;
    out->values = values;
    out->deltas = deltas;
}

/* ---- the engine's output: file, then callback or queue -------------------------- */

static int out_begin(void *ctx, const struct pp_cap_meta *m)
{
    struct pp_capture *c = ctx;
    int rc = PP_OK;

    c->meta = m;
    if (c->pull) {
        pthread_mutex_lock(&c->mu);
        c->rec_size = pp_cap_record_size(m);
        c->q = malloc(c->qcap * c->rec_size);
        c->scap = c->qcap < STAGE_MAX ? c->qcap : STAGE_MAX;
        c->stage = malloc(c->scap * c->rec_size);
        pthread_mutex_unlock(&c->mu);
        if (!c->q || !c->stage)
            return PP_E_NOMEM;
    }
    if (c->sink)
        rc = pp_sink_begin(c->sink, m);
    return rc;
}

/* Waits for room: a full queue holds the writer, and through the ring the
 * sampler, so a slow puller costs lateness, never a sample. */
static void push(struct pp_capture *c, const struct pp_cap_sample *smp)
{
    pthread_mutex_lock(&c->mu);
    while (c->q && c->count == c->qcap && !c->closing)
        pthread_cond_wait(&c->room, &c->mu);
    if (c->q && !c->closing) {
        memcpy(c->q + (c->head + c->count) % c->qcap * c->rec_size, smp, c->rec_size);
        /* A puller waits for the first record, or for a batch to fill. */
        if (++c->count == 1 || c->count == c->want)
            pthread_cond_signal(&c->more);
    }
    pthread_mutex_unlock(&c->mu);
}

static void call_back(struct pp_capture *c, const struct pp_cap_sample *smp)
{
    uint64_t values[PP_CAP_MAX_EVENTS], deltas[PP_CAP_MAX_EVENTS];
    struct pp_sample s;

    for (unsigned k = 0; k < c->meta->ncores; k++) {
        slice(c->meta, smp, k, &s, values, deltas);
        c->fn(c->user, &s);
    }
}

static int out_write(void *ctx, const struct pp_cap_sample *smp)
{
    struct pp_capture *c = ctx;

    if (c->sink) {
        int rc = pp_sink_write(c->sink, smp);

        if (rc != PP_OK)
            return rc;
    }
    /* A DROP record stands for samples that do not exist: the jump in
     * seq and the statistics say it. */
    if (smp->kind != PP_CAP_SAMPLE)
        return PP_OK;
    atomic_fetch_add_explicit(&c->delivered, 1, memory_order_relaxed);
    if (c->fn)
        call_back(c, smp);
    else if (c->pull)
        push(c, smp);
    return PP_OK;
}

static int out_end(void *ctx, const struct pp_cap_summary *sum)
{
    struct pp_capture *c = ctx;
    int rc = c->sink ? pp_sink_end(c->sink, sum) : PP_OK;

    pthread_mutex_lock(&c->mu);
    c->ended = true;
    pthread_cond_broadcast(&c->more);
    pthread_mutex_unlock(&c->mu);
    return rc;
}

static uint64_t out_bytes(void *ctx)
{
    const struct pp_capture *c = ctx;

    return c->sink ? pp_sink_bytes(c->sink) : 0;
}

static const char *out_errmsg(void *ctx)
{
    const struct pp_capture *c = ctx;

    return c->sink ? pp_sink_errmsg(c->sink) : "";
}

/* ---- setup ------------------------------------------------------------------------ */

static int check_opts(const struct pp_session *s, const struct pp_capture_opts *o, char *err,
                      size_t errlen)
{
    if (o->count && o->duration_ns) {
        pp_errmsg(err, errlen, "count and duration_ns exclude each other");
        return PP_E_INVAL;
    }
    if (o->on_sample && (o->flags & PP_CAPTURE_PULL)) {
        pp_errmsg(err, errlen, "PP_CAPTURE_PULL and a callback exclude each other");
        return PP_E_INVAL;
    }
    for (unsigned j = 0; o->cpus && j < o->ncpus; j++)
        if (!pp_target_core(s->target, o->cpus[j])) {
            pp_errmsg(err, errlen, "cpu%u: no such core in target %s", o->cpus[j],
                      s->target->name);
            return PP_E_NOTFOUND;
        }
    return PP_OK;
}

static bool selected(const struct pp_capture_opts *o, unsigned cpu)
{
    if (!o->cpus || !o->ncpus)
        return true;
    for (unsigned j = 0; j < o->ncpus; j++)
        if (o->cpus[j] == cpu)
            return true;
    return false;
}

static int add_cores(struct pp_capture *c, const struct pp_capture_opts *o, char *err,
                     size_t errlen)
{
    const char *events = o->events ? o->events : "cycles,instructions";
    const struct pp_target *t = c->s->target;

    for (unsigned i = 0; i < t->ncores; i++) {
        const struct pp_core_desc *core = &t->cores[i];
        struct pp_evsel ev[PP_CAP_PLAN_MAX];
        struct pp_pmu_prog prog;
        unsigned n;
        int rc;

        if (!selected(o, core->cpu))
            continue;
        rc = pp_cap_plan_events(core, events, ev, &n, &prog, err, errlen);
        if (rc == PP_OK)
            rc = pp_cap_add_core(c->cap, core, ev, n, err, errlen);
        if (rc != PP_OK)
            return rc;
    }
    return PP_OK;
}

/* Programs every core.  A refusal (in use, too few counters) or a dead
 * path ends the start; a core that does not answer stays in as gaps and
 * is retried by the engine, as in `pmuprobe stream`. */
static int program_cores(struct pp_capture *c, unsigned flags, char *err, size_t errlen)
{
    const unsigned how = flags & PP_CAPTURE_FORCE ? PP_CAP_FORCE : 0u;

    for (unsigned k = 0; k < pp_cap_ncores(c->cap); k++) {
        int rc = pp_cap_program(c->cap, k, how, err, errlen);

        if (rc == PP_E_BUSY || rc == PP_E_UNSUPPORTED || rc == PP_E_LINK)
            return rc;
    }
    err[0] = '\0';
    return PP_OK;
}

static int open_file(struct pp_capture *c, const struct pp_capture_opts *o, char *err,
                     size_t errlen)
{
    const char *format = o->format ? o->format : "csv";
    const struct pp_sink_opts so = { .name = o->file };

    c->fp = fopen(o->file, "wb");
    if (!c->fp) {
        pp_errmsg(err, errlen, "cannot create %s: %s", o->file, strerror(errno));
        return PP_E_IO;
    }
    c->sink = pp_sink_new(format, c->fp, &so, err, errlen);
    return c->sink ? PP_OK : PP_E_NOTFOUND;
}

static int init_queue(struct pp_capture *c, const struct pp_capture_opts *o)
{
    pthread_condattr_t ca;
    int rc;

    c->qcap = o->queue ? o->queue : QUEUE_DEFAULT;
    /* Timed waits count on the monotonic clock: a wall clock step must
     * not stretch or cut pp_capture_next's timeout. */
    if (pthread_condattr_init(&ca) != 0)
        return PP_E_NOMEM;
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    rc = pthread_cond_init(&c->more, &ca);
    pthread_condattr_destroy(&ca);
    if (rc != 0)
        return PP_E_NOMEM;
    if (pthread_cond_init(&c->room, NULL) != 0) {
        pthread_cond_destroy(&c->more);
        return PP_E_NOMEM;
    }
    if (pthread_mutex_init(&c->mu, NULL) != 0) {
        pthread_cond_destroy(&c->more);
        pthread_cond_destroy(&c->room);
        return PP_E_NOMEM;
    }
    return PP_OK;
}

static struct pp_capture *capture_new(struct pp_session *s, const struct pp_capture_opts *o)
{
    const struct pp_cap_config cfg = {
        .bus = s->bus, .target = s->target->name, .interval_ns = o->interval_ns,
        .duration_ns = o->duration_ns, .count = o->count,
        .snapshot = o->flags & PP_CAPTURE_SNAPSHOT, .live = o->flags & PP_CAPTURE_LIVE,
        .realtime = o->flags & PP_CAPTURE_REALTIME,
        .no_edprsr = o->flags & PP_CAPTURE_NO_EDPRSR,
        .no_repeat = o->flags & PP_CAPTURE_NO_REPEAT,
    };
    struct pp_capture *c = calloc(1, sizeof(*c));

    if (!c)
        return NULL;
    if (init_queue(c, o) != PP_OK) {
        free(c);
        return NULL;
    }
    c->s = s;
    c->fn = o->on_sample;
    c->user = o->user;
    c->pull = !o->on_sample && (!o->file || (o->flags & PP_CAPTURE_PULL));
    atomic_init(&c->done, false);
    atomic_init(&c->delivered, 0);
    c->cap = pp_cap_new(&cfg);
    c->out = (struct pp_cap_out){ .ctx = c, .begin = out_begin, .write = out_write,
                                  .end = out_end, .bytes = out_bytes, .errmsg = out_errmsg };
    return c;
}

static void capture_free(struct pp_capture *c)
{
    pp_cap_free(c->cap);
    pp_sink_free(c->sink);
    if (c->fp)
        fclose(c->fp);
    pthread_mutex_destroy(&c->mu);
    pthread_cond_destroy(&c->more);
    pthread_cond_destroy(&c->room);
    free(c->q);
    free(c->stage);
    free(c);
}

static int setup(struct pp_capture *c, const struct pp_capture_opts *o, char *err,
                 size_t errlen)
{
    int rc = add_cores(c, o, err, errlen);

    /* The file before the PMUs: a bad path or format leaves the target
     * as it was. */
    if (rc == PP_OK && o->file)
        rc = open_file(c, o, err, errlen);
    if (rc == PP_OK)
        rc = program_cores(c, o->flags, err, errlen);
    if (rc != PP_OK)
        return rc;
    rc = pp_cap_start(c->cap, &c->out);
    if (rc != PP_OK)
        pp_errmsg(err, errlen, "cannot start the capture: %s", pp_strerror(rc));
    return rc;
}

int pp_capture_start(struct pp_session *s, const struct pp_capture_opts *o,
                     struct pp_capture **out, char *err, size_t errlen)
{
    char scratch[1024];
    struct pp_capture *c;
    int rc;

    if (!err || !errlen) {
        err = scratch;
        errlen = sizeof(scratch);
    }
    err[0] = '\0';
    if (out)
        *out = NULL;
    if (!s || !o || !out) {
        pp_errmsg(err, errlen, "session, options and out are required");
        return PP_E_INVAL;
    }
    rc = check_opts(s, o, err, errlen);
    if (rc != PP_OK)
        return rc;
    c = capture_new(s, o);
    if (!c || !c->cap) {
        if (c)
            capture_free(c);
        pp_errmsg(err, errlen, "out of memory");
        return PP_E_NOMEM;
    }
    /* Set before the threads start: a callback may reach the capture
     * through the caller's pointer (to stop it). */
    *out = c;
    rc = setup(c, o, err, errlen);
    if (rc != PP_OK) {
        const bool created = c->fp != NULL;

        *out = NULL;
        pp_cap_release(c->cap);     /* the cores programmed so far */
        capture_free(c);
        if (created)                /* no capture, so no (empty) file */
            unlink(o->file);
    }
    return rc;
}

/* ---- pulling ---------------------------------------------------------------------- */

static struct timespec deadline(uint64_t timeout_ns)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    ts.tv_sec += (time_t)(timeout_ns / NS_PER_S);
    ts.tv_nsec += (long)(timeout_ns % NS_PER_S);
    if (ts.tv_nsec >= (long)NS_PER_S) {
        ts.tv_sec++;
        ts.tv_nsec -= (long)NS_PER_S;
    }
    return ts;
}

/* Copies k records from the queue's head into the stage, without the
 * lock: the writer only fills slots past head + count, and count cannot
 * shrink under the puller (it alone takes), so the slots copied are
 * stable; holding the lock over the copy would make the writer sleep on
 * it, and through the ring the sampler. */
static void stage_copy(struct pp_capture *c, size_t head, size_t k)
{
    for (size_t i = 0; i < k; i++)
        memcpy(c->stage + i * c->rec_size, c->q + (head + i) % c->qcap * c->rec_size,
               c->rec_size);
}

/* Waits up to timeout_ns while the queue is empty and the writer has not
 * ended; returns with c->mu held. */
static void wait_more(struct pp_capture *c, uint64_t timeout_ns)
{
    const struct timespec until = deadline(timeout_ns);

    pthread_mutex_lock(&c->mu);
    while (c->count == 0 && !c->ended && timeout_ns) {
        if (timeout_ns == UINT64_MAX)
            pthread_cond_wait(&c->more, &c->mu);
        else if (pthread_cond_timedwait(&c->more, &c->mu, &until) == ETIMEDOUT)
            break;
    }
}

/* Moves up to scap of the oldest queued records into the stage.  1 when
 * some were taken, 0 on timeout, PP_CAPTURE_END when the writer has
 * ended and none is left. */
static int take(struct pp_capture *c, uint64_t timeout_ns)
{
    const size_t half = c->qcap / 2;
    size_t head, k;
    bool was_over_half;

    wait_more(c, timeout_ns);
    if (c->count == 0) {
        const int rc = c->ended ? PP_CAPTURE_END : 0;

        pthread_mutex_unlock(&c->mu);
        return rc;
    }
    head = c->head;
    k = c->count < c->scap ? c->count : c->scap;
    pthread_mutex_unlock(&c->mu);
    stage_copy(c, head, k);
    pthread_mutex_lock(&c->mu);
    was_over_half = c->count > half;
    c->head = (c->head + k) % c->qcap;
    c->count -= k;
    /* A writer held by a full queue resumes once half of it is free,
     * not after every record: waking it per record costs two context
     * switches a record, more than the record itself. */
    if (was_over_half && c->count <= half)
        pthread_cond_signal(&c->room);
    pthread_mutex_unlock(&c->mu);
    c->staged = k;
    c->snext = 0;
    return 1;
}

/* The next record to hand out into cur, from the stage, refilled from
 * the queue when empty: 1, else take's 0 or PP_CAPTURE_END. */
static int next_record(struct pp_capture *c, uint64_t timeout_ns)
{
    if (c->snext == c->staged) {
        int rc = take(c, timeout_ns);

        if (rc != 1)
            return rc;
    }
    c->cur = (const struct pp_cap_sample *)(c->stage + c->snext++ * c->rec_size);
    c->next_core = 0;
    c->holding = true;
    return 1;
}

/* The next core slice into *out (valid until the next call): 1, else
 * take's 0 or PP_CAPTURE_END.  Both pulls go through here, so a batch
 * holds exactly the slices single pulls would give. */
static int next_slice(struct pp_capture *c, struct pp_sample *out, uint64_t timeout_ns)
{
    if (!c->holding || c->next_core >= c->meta->ncores) {
        int rc = next_record(c, timeout_ns);

        if (rc != 1)
            return rc;
    }
    slice(c->meta, c->cur, c->next_core++, out, c->values, c->deltas);
    return 1;
}

int pp_capture_next(struct pp_capture *c, struct pp_sample *out, uint64_t timeout_ns)
{
    if (!c || !out || !c->pull)
        return PP_E_INVAL;
    return next_slice(c, out, timeout_ns);
}

/* Row r of b's values and deltas: a gap's are 0, not left as they were,
 * so a caller that forgets the gap column reads zeros, never stale
 * counts. */
static void put_values(struct pp_sample_batch *b, size_t r, const struct pp_sample *s)
{
    uint64_t *v = b->values + r * b->stride;
    uint64_t *d = b->deltas ? b->deltas + r * b->stride : NULL;

    for (size_t i = 0; i < b->stride; i++) {
        v[i] = i < s->nvalues ? s->values[i] : 0;
        if (d)
            d[i] = i < s->nvalues ? s->deltas[i] : 0;
    }
}

static void put_row(struct pp_sample_batch *b, size_t r, const struct pp_sample *s)
{
    if (b->seq)
        b->seq[r] = s->seq;
    if (b->t_ns)
        b->t_ns[r] = s->t_ns;
    if (b->t_real_ns)
        b->t_real_ns[r] = s->t_real_ns;
    if (b->core)
        b->core[r] = s->core;
    if (b->cpu)
        b->cpu[r] = s->cpu;
    if (b->gap)
        b->gap[r] = s->gap;
    if (b->cause)
        b->cause[r] = s->cause;
    if (b->discont)
        b->discont[r] = s->discont;
    put_values(b, r, s);
}

/* Waits up to fill_ns until the queue holds the records that rows more
 * rows need (at most a full queue), or the writer has ended.  One
 * wake-up per batch instead of one per burst of the writer: on a loaded
 * machine every wake-up waits for a core. */
static void wait_fill(struct pp_capture *c, size_t rows, uint64_t fill_ns)
{
    const unsigned ncores = c->meta->ncores;
    const size_t left = (c->holding ? ncores - c->next_core : 0) +
                        (c->staged - c->snext) * ncores;
    const struct timespec until = deadline(fill_ns);
    size_t want;

    if (rows <= left)
        return;
    want = (rows - left + ncores - 1) / ncores;
    pthread_mutex_lock(&c->mu);
    c->want = want < c->qcap ? want : c->qcap;
    while (c->count < c->want && !c->ended &&
           pthread_cond_timedwait(&c->more, &c->mu, &until) != ETIMEDOUT)
        ;
    c->want = 0;
    pthread_mutex_unlock(&c->mu);
}

int pp_capture_next_batch(struct pp_capture *c, struct pp_sample_batch *b, uint64_t timeout_ns)
{
    struct pp_sample s;
    int rc;

    if (!c || !b || !c->pull || !b->max || !b->values || b->stride < pp_capture_nevents(c))
        return PP_E_INVAL;
    b->n = 0;
    /* The first row as pp_capture_next waits for it; then, for fill_ns
     * at most, for the batch to fill; the rest only if queued. */
    for (rc = next_slice(c, &s, timeout_ns); rc == 1; rc = next_slice(c, &s, 0)) {
        put_row(b, b->n++, &s);
        if (b->n == b->max)
            break;
        if (b->n == 1 && b->fill_ns)
            wait_fill(c, b->max - 1, b->fill_ns);
    }
    return b->n ? 1 : rc;
}

/* ---- the end --------------------------------------------------------------------- */

void pp_capture_stop(struct pp_capture *c)
{
    if (c)
        pp_cap_stop(c->cap);
}

int pp_capture_wait(struct pp_capture *c, uint64_t timeout_ns)
{
    if (!c)
        return PP_E_INVAL;
    if (!pp_cap_wait(c->cap, timeout_ns))
        return 0;
    atomic_store(&c->done, true);
    return 1;
}

static int stop_reason(enum pp_cap_stop stop)
{
    switch (stop) {
    case PP_CAP_STOP_DONE: return PP_CAPTURE_DONE;
    case PP_CAP_STOP_SIGNAL: return PP_CAPTURE_STOPPED;
    case PP_CAP_STOP_LINK: return PP_CAPTURE_LINK_LOST;
    default: return PP_CAPTURE_FILE_FAILED;
    }
}

/* Atomics are read, not changed: the cast keeps compilers that refuse an
 * atomic load through a const pointer content (as pp_cap_progress). */
static uint64_t delivered(const struct pp_capture *c)
{
    return atomic_load(&((struct pp_capture *)c)->delivered);
}

static void final_stats(const struct pp_capture *c, struct pp_capture_stats *out)
{
    const struct pp_cap_summary *s = pp_cap_summary(c->cap);

    *out = (struct pp_capture_stats){
        .samples = s->samples, .late = s->late, .dropped = s->dropped, .missed = s->missed, .bytes = s->bytes, .elapsed_ns = s->elapsed_ns,
        .requested_hz = s->requested_hz, .achieved_hz = s->achieved_hz,
        .jitter_p50_ns = s->jitter_p50_ns, .jitter_p99_ns = s->jitter_p99_ns,
        .jitter_max_ns = s->jitter_max_ns, .stop = stop_reason(s->stop),
    };
    for (unsigned k = 0; k < c->meta->ncores; k++)
        for (unsigned i = 0; i < PP_CAP_NCAUSES; i++)
            out->gap_samples += s->gaps[k][i];
    out->written = delivered(c);
    if (s->stop == PP_CAP_STOP_LINK || s->stop == PP_CAP_STOP_SINK)
        snprintf(out->stop_msg, sizeof(out->stop_msg), "%s", s->stop_msg);
}

int pp_capture_stats(const struct pp_capture *c, struct pp_capture_stats *out)
{
    struct pp_cap_progress p;

    if (!c || !out)
        return PP_E_INVAL;
    /* The summary is the writer's until it has ended; the live figures
     * are atomics any thread may read. */
    pp_cap_progress(c->cap, &p);
    if (p.done) {
        final_stats(c, out);
        return PP_OK;
    }
    *out = (struct pp_capture_stats){
        .samples = p.samples, .written = delivered(c), .late = p.late,
        .dropped = p.dropped,
        .gap_samples = p.gap_samples, .bytes = p.bytes, .elapsed_ns = p.elapsed_ns,
        .stop = PP_CAPTURE_RUNNING,
    };
    return PP_OK;
}

uint64_t pp_capture_gaps(const struct pp_capture *c, unsigned k, int cause)
{
    struct pp_cap_progress p;

    if (!c || k >= pp_cap_ncores(c->cap) || cause < 0 || (unsigned)cause >= PP_CAP_NCAUSES)
        return 0;
    /* The sampler counts these as it goes, unlocked: read once it ended. */
    pp_cap_progress(c->cap, &p);
    return p.done ? pp_cap_summary(c->cap)->gaps[k][cause] : 0;
}

size_t pp_capture_nevents(const struct pp_capture *c)
{
    return c && pp_cap_ncores(c->cap) ? pp_cap_meta(c->cap)->core[0].nev : 0;
}

const char *pp_capture_event_name(const struct pp_capture *c, size_t i)
{
    return i < pp_capture_nevents(c) ? pp_cap_meta(c->cap)->core[0].ev[i].name : NULL;
}

unsigned pp_capture_ncores(const struct pp_capture *c)
{
    return c ? pp_cap_ncores(c->cap) : 0;
}

unsigned pp_capture_cpu(const struct pp_capture *c, unsigned k)
{
    return k < pp_capture_ncores(c) ? pp_cap_meta(c->cap)->core[k].cpu : UINT32_MAX;
}

int pp_capture_close(struct pp_capture *c)
{
    int rc = PP_OK;

    if (!c)
        return PP_OK;
    pp_cap_stop(c->cap);
    /* Nobody pulls any more: a writer waiting for room discards instead. */
    pthread_mutex_lock(&c->mu);
    c->closing = true;
    pthread_cond_broadcast(&c->room);
    pthread_mutex_unlock(&c->mu);
    pp_cap_wait(c->cap, UINT64_MAX);
    pp_cap_release(c->cap);
    switch (pp_cap_summary(c->cap)->stop) {
    case PP_CAP_STOP_LINK: rc = PP_E_LINK; break;
    case PP_CAP_STOP_SINK: rc = PP_E_IO; break;
    default: break;
    }
    capture_free(c);
    return rc;
}
