/*
 * ftdi.c - the FTDI MPSSE link driver on libftdi1.
 *
 * Opening follows spec/ftdi-mpsse-jtag.md 2.1-2.5: find the device with
 * libusb on libftdi's own context (libftdi cannot match a USB port path),
 * open it with ftdi_usb_open_dev, then latency timer, purge, bitmode
 * reset -> MPSSE, the 0xAA sync, and the clock and pin setup.  A flush
 * sends the encoder's batch: one write and one exact read when the reply
 * fits the chip's FIFO (one round trip).  A larger batch is streamed (not
 * in sync mode): each chunk is written as soon as the queue closes it,
 * behind a read that stays pending (libftdi's async calls), so it neither
 * deadlocks (spec 3.5) nor pays a round trip per chunk, and the MPSSE
 * starts while the rest is still being queued (struct stream).  In sync
 * mode each chunk is its own round trip.
 */
#include <errno.h>
#include <ftdi.h>
#include <libusb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>

#include "clock.h"
#include "errmsg.h"
#include "link/ftdi.h"
#include "link/mpsse.h"
#include "pmuprobe.h"

#define DEFAULT_KHZ      15000u
/* Every reply ends with 0x87 (spec 1.8, 4.7), so the timer never holds one
 * back; it only ends a pending read with a status-only packet after that
 * long without one (spec 2.3), and a streamed batch's read, submitted
 * before its data exists, must not end that way (the chip could then not
 * send until the program submitted again).  16 ms: the chip's default. */
#define LATENCY_MS       16u
#define USB_CHUNK        16384u   /* libftdi's read cap on Linux: spec 2.2 */
#define REPLY_TIMEOUT_MS 2000u    /* on top of the TCK time of a batch */
#define MAX_PORTS        7
/* Reply bytes of a streamed batch's first chunk (mpsse.h says why).  A
 * run_repeat set over the real-time emulator at 30 MHz, against 4096 (the
 * FIFO): 4 x 7 +0.5 %, 1 x 7 +0.2 %, 1 core's cycles -0.3 %; 256 and
 * 1024 measured less (docs/sample-plan.md). */
#define FIRST_CHUNK_IN   512u

struct chip {
    const char *name;
    uint16_t bcd;                 /* bcdDevice: spec 2.1 step 6 */
    size_t fifo;                  /* per-channel TX FIFO: spec 2.6 */
    const char *mpsse;            /* channels with an MPSSE: spec 1.1 */
    bool high_byte;               /* ACBUS available to the MPSSE */
};

static const struct chip chips[] = {
    { "FT2232H", 0x0700, 4096, "AB", true },
    { "FT4232H", 0x0800, 2048, "AB", false },
    { "FT232H",  0x0900, 1024, "A",  true },
};

#define MAX_WRITES 16u           /* OUT chunks of one batch in flight */

/* One OUT chunk in flight: its own copy, as the queue may move on realloc. */
struct write {
    struct ftdi_transfer_control *tc;
    uint8_t *buf;
    size_t n;
};

/*
 * Streaming (not in sync mode): each time the queue closes a chunk
 * (mpsse.h: a reply that fits the chip's TX FIFO, ended by 0x87), its
 * settled bytes go out while the rest of the batch is still being queued
 * (the MPSSE parses commands split across transfers: spec 1.3), with one
 * read pending for the replies of the chunks closed so far.  So the MPSSE
 * clocks the batch's start while the host still encodes its end, instead
 * of idling through the whole encoding (bench/README.md, section ftdi).
 * libusb events run only at those points: an in-process emulator does the
 * chip's work in them, on the host's time.
 */
struct stream {
    size_t nck;                   /* chunks closed at the last send */
    size_t out_sent;              /* queue bytes submitted */
    size_t in_asked, in_got;      /* reply bytes a read was submitted for, and in */
    struct ftdi_transfer_control *rtc;   /* the read: libftdi allows one (spec 2.4) */
    struct write w[MAX_WRITES];
    size_t nw;
    int err;                      /* a failure while queueing, for the flush */
};

struct ftdi_link {
    struct ftdi_context *f;
    const struct chip *chip;
    struct pp_ftdi_layout layout;
    char iface;
    uint16_t value, dir;          /* GPIO as last set */
    bool swd_on;                  /* SWD_EN set (pp_link_ftdi_swdio) */
    bool swd_known;               /* the chip's pins match swd_driving */
    bool swd_driving;             /* the host drives SWDIO */
    uint32_t tck_hz;              /* what the divisor gives (spec 1.7) */
    uint32_t asked_hz;            /* what was asked for it */
    bool sync;
    bool lost;                    /* unplugged: fail fast from now on */
    struct pp_mpsse enc;
    uint8_t *in;
    size_t incap;
    char serial[64], description[128], usb_path[32];
    struct host_stats *hs;        /* PMUPROBE_FTDI_STATS set: where the host's time goes */
    uint64_t hs_mark;             /* the last phase's end, for hs */
    struct stream st;             /* a batch going out while it is queued */
};

/*
 * PMUPROBE_FTDI_STATS=FILE appends, at close, where the host's time went
 * between and during flushes (CLOCK_MONOTONIC), for measuring the link
 * against its TCK bound (bench/README.md, section ftdi) beside the
 * emulator's own counters.  Off (NULL) it costs one test per call.
 */
struct host_stats {
    char path[256];
    uint64_t flushes, pipelined;
    uint64_t queued_at;           /* first command of the batch queued (0: none yet) */
    uint64_t last_end;            /* the previous flush returned */
    uint64_t decode_ns;           /* a flush's return -> the next batch's first command */
    uint64_t encode_ns;           /* the first command -> the flush */
    uint64_t write_ns;            /* flush -> its OUT data all accepted */
    uint64_t read_ns;             /* -> its reply all in */
    bool writes_done;             /* write_ns of this flush noted */
    uint64_t bytes_out, bytes_in, writes;
};

static const struct pp_link_ops ftdi_ops;

/* Where the udev rules are installed: $(pkgdatadir), which the build
 * passes as the targets directory's parent. */
static void rules_path(char *buf, size_t n)
{
#ifdef PP_TARGETDIR
    const char *dir = PP_TARGETDIR;
    size_t len = strlen(dir);

    if (len > 8 && strcmp(dir + len - 8, "/targets") == 0)
        len -= 8;
    snprintf(buf, n, "%.*s/%s", (int)len, dir, PP_FTDI_UDEV_RULES);
#else
    snprintf(buf, n, "%s", PP_FTDI_UDEV_RULES);
#endif
}

static void permission_error(char *err, size_t errlen, const char *what, const char *where)
{
    char rules[256];

    rules_path(rules, sizeof(rules));
    pp_errmsg(err, errlen, "%s: permission denied opening the USB device at %s; install the "
            "udev rules (cp %s /etc/udev/rules.d/ && udevadm control --reload && "
            "udevadm trigger) and replug the adapter", what, where, rules);
}

/* --- finding the device ------------------------------------------------- */

struct want {
    uint16_t vid, pid;
    const char *serial, *description, *usb_path;
    char name[64];                /* "0403:6010", for messages */
};

static bool default_ftdi_id(uint16_t vid, uint16_t pid)
{
    return vid == 0x0403 && (pid == 0x6010 || pid == 0x6011 || pid == 0x6014);
}

/* "1-4.2": bus, then the port chain as sysfs writes it. */
static void usb_path_of(libusb_device *dev, char *buf, size_t n)
{
    uint8_t ports[MAX_PORTS];
    int np = libusb_get_port_numbers(dev, ports, MAX_PORTS);
    size_t len = (size_t)snprintf(buf, n, "%u", libusb_get_bus_number(dev));

    for (int i = 0; i < np && len < n; i++)
        len += (size_t)snprintf(buf + len, n - len, "%c%u", i ? '.' : '-', ports[i]);
}

static void get_string(libusb_device_handle *h, uint8_t idx, char *buf, size_t n)
{
    buf[0] = '\0';
    if (idx && libusb_get_string_descriptor_ascii(h, idx, (unsigned char *)buf, (int)n) < 0)
        buf[0] = '\0';
}

struct candidate {
    libusb_device *dev;
    struct libusb_device_descriptor desc;
    char path[32], serial[64], description[128];
    int open_rc;                  /* libusb_open result when strings were read */
};

/* Reads the strings of a device that matched by id and path; false when it
 * cannot be opened (the reason stays in c->open_rc). */
static bool read_strings(struct candidate *c)
{
    libusb_device_handle *h;

    c->open_rc = libusb_open(c->dev, &h);
    if (c->open_rc < 0)
        return false;
    get_string(h, c->desc.iSerialNumber, c->serial, sizeof(c->serial));
    get_string(h, c->desc.iProduct, c->description, sizeof(c->description));
    libusb_close(h);
    return true;
}

static bool id_matches(const struct want *w, const struct libusb_device_descriptor *d)
{
    if (!w->vid && !w->pid)
        return default_ftdi_id(d->idVendor, d->idProduct);
    return d->idVendor == w->vid && d->idProduct == w->pid;
}

/* Appends "VID:PID at PATH" of an FTDI-looking device to the seen list. */
static void note_seen(char *seen, size_t n, const struct candidate *c)
{
    size_t len = strlen(seen);

    if (len + 40 < n)
        snprintf(seen + len, n - len, "%s%04x:%04x at %s", len ? ", " : "",
                 c->desc.idVendor, c->desc.idProduct, c->path);
}

/*
 * The first device matching w; *found gets a reference.  Errors:
 * PP_E_NOTFOUND (nothing matched; err lists FTDI devices seen) or
 * PP_E_BUSY (a match by id could not be opened to read its strings).
 */
static int find_device(libusb_context *ctx, const struct want *w, struct candidate *found,
                       char *err, size_t errlen)
{
    libusb_device **devs;
    ssize_t n = libusb_get_device_list(ctx, &devs);
    char seen[256] = "", denied[32] = "";
    int rc = PP_E_NOTFOUND;

    if (n < 0) {
        pp_errmsg(err, errlen, "ftdi: cannot list USB devices: %s", libusb_strerror((int)n));
        return PP_E_LINK;
    }
    for (ssize_t i = 0; i < n && rc != PP_OK; i++) {
        struct candidate c = { .dev = devs[i] };

        if (libusb_get_device_descriptor(c.dev, &c.desc) < 0)
            continue;
        usb_path_of(c.dev, c.path, sizeof(c.path));
        if (c.desc.idVendor == 0x0403 || c.desc.idVendor == w->vid)
            note_seen(seen, sizeof(seen), &c);
        if (!id_matches(w, &c.desc) || (w->usb_path && strcmp(w->usb_path, c.path) != 0))
            continue;
        if (!read_strings(&c)) {
            if (!denied[0])
                snprintf(denied, sizeof(denied), "%s", c.path);
            continue;
        }
        if ((w->serial && strcmp(w->serial, c.serial) != 0) ||
            (w->description && strcmp(w->description, c.description) != 0))
            continue;
        *found = c;
        libusb_ref_device(c.dev);
        rc = PP_OK;
    }
    libusb_free_device_list(devs, 1);
    if (rc == PP_OK)
        return PP_OK;
    if (denied[0]) {
        permission_error(err, errlen, w->name, denied);
        return PP_E_BUSY;
    }
    pp_errmsg(err, errlen, "ftdi: no adapter %s%s%s%s%s%s%s found (FTDI devices present: %s); "
            "check the cable and the ids with lsusb", w->name,
            w->serial ? " serial " : "", w->serial ? w->serial : "",
            w->description ? " described as " : "", w->description ? w->description : "",
            w->usb_path ? " at " : "", w->usb_path ? w->usb_path : "",
            seen[0] ? seen : "none");
    return PP_E_NOTFOUND;
}

/* --- USB I/O ------------------------------------------------------------ */

/* After a failed transfer: unplugged, or some other USB failure. */
static int usb_failure(struct pp_link *l, const char *what, int code)
{
    struct ftdi_link *fl = l->priv;
    int cfg;

    if (code == LIBUSB_ERROR_NO_DEVICE || code == -666 || !fl->f->usb_dev ||
        libusb_get_configuration(fl->f->usb_dev, &cfg) == LIBUSB_ERROR_NO_DEVICE) {
        fl->lost = true;
        snprintf(l->errmsg, sizeof(l->errmsg), "ftdi %s: the adapter was unplugged (USB: no "
                 "such device) during %s", fl->usb_path, what);
        return PP_E_LINK;
    }
    snprintf(l->errmsg, sizeof(l->errmsg), "ftdi %s: USB %s failed: %s", fl->usb_path, what,
             code < 0 && code >= LIBUSB_ERROR_OTHER ? libusb_strerror(code)
                                                    : ftdi_get_error_string(fl->f));
    return PP_E_LINK;
}

static int usb_write(struct pp_link *l, const uint8_t *buf, size_t n)
{
    struct ftdi_link *fl = l->priv;
    int rc = ftdi_write_data(fl->f, buf, (int)n);

    if (rc != (int)n)
        return usb_failure(l, "write", rc);
    l->stats.bytes_out += n;
    return PP_OK;
}

/* Reads exactly n reply bytes: ftdi_read_data returns what one transfer
 * brought, 0 on a status-only packet (spec 2.3), so loop to a deadline. */
static int usb_read_exact(struct pp_link *l, uint8_t *buf, size_t n, uint64_t deadline)
{
    struct ftdi_link *fl = l->priv;
    size_t got = 0;

    while (got < n) {
        int rc = ftdi_read_data(fl->f, buf + got, (int)(n - got));

        if (rc < 0)
            return usb_failure(l, "read", rc);
        got += (size_t)rc;
        if (got < n && pp_mono_ns() > deadline) {
            snprintf(l->errmsg, sizeof(l->errmsg), "ftdi %s: %zu of %zu reply bytes arrived "
                     "in time; the MPSSE engine stalled or the adapter is not an MPSSE "
                     "channel", fl->usb_path, got, n);
            return PP_E_TIMEOUT;
        }
    }
    l->stats.bytes_in += n;
    return PP_OK;
}

static uint64_t batch_deadline(const struct ftdi_link *fl)
{
    return pp_deadline_ms(REPLY_TIMEOUT_MS + 2 * fl->enc.tck * 1000u / (fl->tck_hz ? fl->tck_hz : 1));
}

/* Drops whatever the chip or libftdi still holds (after an error, so the
 * next batch starts in step). */
static void purge(struct ftdi_link *fl)
{
#ifdef _Ftdi_Pragma
    ftdi_tcioflush(fl->f);
#else
    ftdi_usb_purge_buffers(fl->f);
#endif
    pp_mpsse_forget_pins(&fl->enc);
}

/* More reply bytes than commands asked for: a bad command answered 0xFA
 * and its opcode (spec 1.10).  in[0..n) is the reply read so far. */
static int check_surplus(struct pp_link *l, const uint8_t *in, size_t n, const uint8_t *out,
                         size_t nout)
{
    struct ftdi_link *fl = l->priv;
    size_t extra = fl->f->readbuffer_remaining;
    uint8_t *all, op = 0;
    long at;

    if (!extra)
        return PP_OK;
    all = malloc(n + extra);
    if (!all)
        return PP_E_NOMEM;
    memcpy(all, in, n);
    memcpy(all + n, fl->f->readbuffer + fl->f->readbuffer_offset, extra);
    at = pp_mpsse_find_bad_command(all, n + extra, out, nout, &op);
    free(all);
    if (at >= 0)
        snprintf(l->errmsg, sizeof(l->errmsg), "ftdi %s: the adapter rejected MPSSE command "
                 "0x%02X (bad-command reply 0xFA 0x%02X): not an FT2232H/FT232H/FT4232H, or a "
                 "clone that lacks it", fl->usb_path, op, op);
    else
        snprintf(l->errmsg, sizeof(l->errmsg), "ftdi %s: %zu reply bytes more than the "
                 "commands asked for", fl->usb_path, extra);
    purge(fl);
    return PP_E_PROTO;
}

/* --- flush ---------------------------------------------------------------- */

/* Adds the time since *mark to *sum (when stats are on) and moves the mark. */
static void note_phase(const struct ftdi_link *fl, uint64_t *mark, uint64_t *sum)
{
    uint64_t now;

    if (!fl->hs)
        return;
    now = pp_mono_ns();
    if (sum && *mark)
        *sum += now - *mark;
    *mark = now;
}

/* The flush's start: the host's time since the last one, split at the
 * batch's first command. */
static void note_flush_start(struct ftdi_link *fl)
{
    struct host_stats *h = fl->hs;
    uint64_t now;

    if (!h)
        return;
    now = pp_mono_ns();
    if (h->last_end && h->queued_at >= h->last_end) {
        h->decode_ns += h->queued_at - h->last_end;
        h->encode_ns += now - h->queued_at;
    }
    fl->hs_mark = now;
}

static void note_flush_end(struct ftdi_link *fl, const struct pp_mpsse *m)
{
    struct host_stats *h = fl->hs;

    if (!h)
        return;
    h->flushes++;
    h->bytes_out += m->nout;
    h->bytes_in += m->nin;
    h->queued_at = 0;
    h->last_end = pp_mono_ns();
}

static void write_host_stats(const struct host_stats *h)
{
    FILE *f = fopen(h->path, "a");

    if (!f)
        return;
    fprintf(f, "host_flushes=%llu\nhost_pipelined=%llu\nhost_writes=%llu\n"
            "host_bytes_out=%llu\nhost_bytes_in=%llu\nhost_decode_ns=%llu\n"
            "host_encode_ns=%llu\nhost_write_ns=%llu\nhost_read_ns=%llu\n",
            (unsigned long long)h->flushes, (unsigned long long)h->pipelined,
            (unsigned long long)h->writes, (unsigned long long)h->bytes_out,
            (unsigned long long)h->bytes_in, (unsigned long long)h->decode_ns,
            (unsigned long long)h->encode_ns, (unsigned long long)h->write_ns,
            (unsigned long long)h->read_ns);
    fclose(f);
}

static int run_chunks(struct pp_link *l)
{
    struct ftdi_link *fl = l->priv;
    const struct pp_mpsse *m = &fl->enc;

    for (size_t c = 0; c < m->nck; c++) {
        const struct pp_mpsse_chunk *k = &m->ck[c];
        size_t nin = k->in_end - k->in_start;
        int rc = usb_write(l, m->out + k->out_start, k->out_end - k->out_start);

        if (rc == PP_OK && nin)
            rc = usb_read_exact(l, fl->in + k->in_start, nin, batch_deadline(fl));
        if (rc == PP_OK && nin)
            rc = check_surplus(l, fl->in + k->in_start, nin, m->out + k->out_start,
                               k->out_end - k->out_start);
        if (rc != PP_OK)
            return rc;
        if (nin)
            l->stats.round_trips++;
    }
    return PP_OK;
}


/* Finishes (or, when it did not complete, cancels) one async transfer;
 * returns its byte count or a negative code.  Frees tc either way. */
static int end_transfer(struct ftdi_transfer_control *tc, bool done)
{
    struct timeval tv = { 0, 100000 };

    if (!tc)
        return 0;
    if (done)
        return ftdi_transfer_data_done(tc);
    ftdi_transfer_data_cancel(tc, &tv);
    return LIBUSB_ERROR_TIMEOUT;
}

/* Room in fl->in for n reply bytes; only while no read is pending. */
static bool reserve_in(struct ftdi_link *fl, size_t n)
{
    uint8_t *p;

    if (n <= fl->incap)
        return true;
    p = realloc(fl->in, n);
    if (!p)
        return false;
    fl->in = p;
    fl->incap = n;
    return true;
}

/* Drops every transfer of the stream (after an error). */
static void stream_abort(struct ftdi_link *fl)
{
    struct stream *st = &fl->st;

    for (size_t i = 0; i < st->nw; i++) {
        end_transfer(st->w[i].tc, false);
        free(st->w[i].buf);
    }
    end_transfer(st->rtc, false);
    memset(st, 0, sizeof(*st));
    purge(fl);
}

/* The replies of the chunks sent that no read asked for yet, in one read. */
static int stream_read(struct pp_link *l)
{
    struct ftdi_link *fl = l->priv;
    struct stream *st = &fl->st;
    size_t upto = pp_mpsse_closed_in(&fl->enc);

    if (st->rtc || upto <= st->in_asked)
        return PP_OK;
    if (!reserve_in(fl, upto))
        return PP_E_NOMEM;
    st->rtc = ftdi_read_data_submit(fl->f, fl->in + st->in_asked, (int)(upto - st->in_asked));
    if (!st->rtc)
        return usb_failure(l, "read submit", LIBUSB_ERROR_OTHER);
    st->in_asked = upto;
    return PP_OK;
}

/* Ends what completed: writes (their copies freed) and the read (the next
 * one submitted). */
static int stream_reap(struct pp_link *l)
{
    struct ftdi_link *fl = l->priv;
    struct stream *st = &fl->st;
    size_t k = 0;
    int rc = PP_OK;

    for (size_t i = 0; i < st->nw; i++) {
        struct write *w = &st->w[i];

        if (!w->tc->completed) {
            st->w[k++] = *w;
            continue;
        }
        if (end_transfer(w->tc, true) != (int)w->n && rc == PP_OK)
            rc = usb_failure(l, "write", LIBUSB_ERROR_IO);
        free(w->buf);
    }
    st->nw = k;
    if (st->rtc && st->rtc->completed) {
        int got = end_transfer(st->rtc, true);
        size_t want = st->in_asked - st->in_got;

        st->rtc = NULL;
        if (got != (int)want && rc == PP_OK)
            rc = usb_failure(l, "read", got);
        st->in_got = st->in_asked;
    }
    return rc == PP_OK ? stream_read(l) : rc;
}

/* Whether a transfer of the stream is still under way. */
static bool stream_busy(const struct stream *st)
{
    for (size_t i = 0; i < st->nw; i++)
        if (!st->w[i].tc->completed)
            return true;
    return st->rtc && !st->rtc->completed;
}

/* Ends what completed; then, when something is still under way, runs
 * libusb events for at most timeout_us (0: what is due now) and ends what
 * completed in them. */
static int stream_events(struct pp_link *l, long timeout_us)
{
    struct ftdi_link *fl = l->priv;
    struct timeval tv = { 0, timeout_us };
    int rc = stream_reap(l);

    if (rc != PP_OK || !stream_busy(&fl->st))
        return rc;
    rc = libusb_handle_events_timeout_completed(fl->f->usb_ctx, &tv, NULL);
    if (rc < 0 && rc != LIBUSB_ERROR_INTERRUPTED)
        return usb_failure(l, "event handling", rc);
    return stream_reap(l);
}

/* Submits the queue's bytes from out_sent to upto. */
static int stream_send(struct pp_link *l, size_t upto)
{
    struct ftdi_link *fl = l->priv;
    struct stream *st = &fl->st;
    const struct pp_mpsse *m = &fl->enc;
    uint64_t deadline = batch_deadline(fl);
    struct write *w;
    int rc = stream_events(l, 0);

    while (rc == PP_OK && st->nw == MAX_WRITES)
        rc = pp_mono_ns() > deadline ? usb_failure(l, "write", LIBUSB_ERROR_TIMEOUT)
                                     : stream_events(l, 10000);
    if (rc != PP_OK || upto <= st->out_sent)
        return rc;
    /* One libusb transfer a write: libftdi submits a longer one's later
     * pieces from its callback, behind any write submitted meanwhile. */
    if (upto - st->out_sent > USB_CHUNK)
        upto = st->out_sent + USB_CHUNK;
    w = &st->w[st->nw];
    w->n = upto - st->out_sent;
    w->buf = malloc(w->n);
    if (!w->buf)
        return PP_E_NOMEM;
    memcpy(w->buf, m->out + st->out_sent, w->n);
    w->tc = ftdi_write_data_submit(fl->f, w->buf, (int)w->n);
    if (!w->tc) {
        free(w->buf);
        return usb_failure(l, "write submit", LIBUSB_ERROR_OTHER);
    }
    st->nw++;
    st->out_sent = upto;
    l->stats.bytes_out += w->n;
    if (fl->hs)
        fl->hs->writes++;
    return stream_read(l);
}

/* After each queued command: when a chunk closed, what is settled goes out. */
static int stream_step(struct pp_link *l, int rc)
{
    struct ftdi_link *fl = l->priv;
    size_t upto = pp_mpsse_settled(&fl->enc);

    if (rc != PP_OK || fl->sync || fl->enc.err || fl->st.err || fl->enc.nck <= fl->st.nck ||
        upto <= fl->st.out_sent)
        return rc;
    fl->st.nck = fl->enc.nck;
    while (rc == PP_OK && fl->st.out_sent < upto)
        rc = stream_send(l, upto);
    if (rc != PP_OK) {
        stream_abort(fl);
        fl->st.err = rc;          /* the flush fails too: part of the batch went */
    }
    return rc;
}

/* The flush of a batch that started streaming: the rest out, every reply in. */
static int stream_finish(struct pp_link *l)
{
    struct ftdi_link *fl = l->priv;
    struct stream *st = &fl->st;
    uint64_t deadline = batch_deadline(fl);
    int rc = PP_OK;

    while (rc == PP_OK && st->out_sent < fl->enc.nout)
        rc = stream_send(l, fl->enc.nout);
    if (rc == PP_OK)
        rc = stream_read(l);      /* the last chunk's replies */
    while (rc == PP_OK && (st->nw || st->in_got < fl->enc.nin)) {
        if (!st->nw && fl->hs && !fl->hs->writes_done) {
            note_phase(fl, &fl->hs_mark, &fl->hs->write_ns);
            fl->hs->writes_done = true;
        }
        if (pp_mono_ns() > deadline) {
            snprintf(l->errmsg, sizeof(l->errmsg), "ftdi %s: %zu of %zu reply bytes arrived "
                     "in time; the MPSSE engine stalled or the adapter is not an MPSSE "
                     "channel", fl->usb_path, st->in_got, fl->enc.nin);
            rc = PP_E_TIMEOUT;
            break;
        }
        rc = stream_events(l, 10000);
        /* What arrived is placed while the chip clocks the rest: a set
         * of many samples then leaves little to unpack after its last
         * byte, when the chip has nothing queued until the next set. */
        if (rc == PP_OK)
            pp_mpsse_unpack_upto(&fl->enc, fl->in, st->in_got);
    }
    if (rc != PP_OK) {
        stream_abort(fl);
        return rc;
    }
    memset(st, 0, sizeof(*st));
    if (fl->hs) {
        note_phase(fl, &fl->hs_mark, fl->hs->writes_done ? &fl->hs->read_ns
                                                         : &fl->hs->write_ns);
        fl->hs->writes_done = false;
        fl->hs->pipelined++;
    }
    l->stats.bytes_in += fl->enc.nin;
    if (fl->enc.nin)
        l->stats.round_trips++;
    return check_surplus(l, fl->in, fl->enc.nin, fl->enc.out, fl->enc.nout);
}

static int ftdi_flush(struct pp_link *l)
{
    struct ftdi_link *fl = l->priv;
    struct pp_mpsse *m = &fl->enc;
    int rc = pp_mpsse_finish(m);

    if (fl->st.err) {
        rc = fl->st.err;          /* the message is the failure's */
        fl->st.err = PP_OK;
        goto out;
    }
    if (rc != PP_OK) {
        snprintf(l->errmsg, sizeof(l->errmsg), "ftdi: %s while queueing", pp_strerror(rc));
        goto out;
    }
    if (!m->nout)
        goto out;
    if (fl->lost) {
        snprintf(l->errmsg, sizeof(l->errmsg), "ftdi %s: the adapter was unplugged",
                 fl->usb_path);
        rc = PP_E_LINK;
        goto out;
    }
    note_flush_start(fl);
    if (fl->st.out_sent) {
        rc = stream_finish(l);
    } else if (!reserve_in(fl, m->nin)) {
        rc = PP_E_NOMEM;
    } else {
        rc = run_chunks(l);       /* sync, or a batch of one chunk */
        if (rc == PP_OK && fl->hs) {
            note_phase(fl, &fl->hs_mark, &fl->hs->read_ns);
            fl->hs->writes += m->nck;
        }
    }
    if (rc == PP_OK) {
        note_flush_end(fl, m);
        pp_mpsse_unpack(m, fl->in);
        l->stats.tck += m->tck;
        l->stats.flushes++;
        l->tck_hz = fl->tck_hz;   /* the divisor is in effect: repeat spacing (link.h) */
    }
out:
    if (fl->st.out_sent)
        stream_abort(fl);         /* not finished: an error before it */
    pp_mpsse_clear(m);
    if (rc != PP_OK) {
        pp_mpsse_forget_pins(m);
        fl->swd_known = fl->swd_on = false;  /* a pin change queued may not have run */
    }
    return rc;
}

/* --- link ops ------------------------------------------------------------- */

static void note_queued(struct ftdi_link *fl)
{
    if (fl->hs && !fl->hs->queued_at)
        fl->hs->queued_at = pp_mono_ns();
}

static int ftdi_tms(struct pp_link *l, const uint8_t *tms, unsigned n, bool tdi)
{
    struct ftdi_link *fl = l->priv;

    note_queued(fl);
    return stream_step(l, pp_mpsse_tms(&fl->enc, tms, n, tdi));
}

static int ftdi_shift(struct pp_link *l, const uint8_t *tdi, uint8_t *tdo, unsigned n,
                      bool last_tms)
{
    struct ftdi_link *fl = l->priv;

    note_queued(fl);
    return stream_step(l, pp_mpsse_shift(&fl->enc, tdi, tdo, n, last_tms));
}

/* Queues the GPIO commands for fl->value/dir (ACBUS only where the
 * channel's MPSSE has it). */
static int queue_pins(struct ftdi_link *fl)
{
    const uint8_t low[3] = { PP_MPSSE_SET_LOW, (uint8_t)fl->value, (uint8_t)fl->dir };
    const uint8_t high[3] = { PP_MPSSE_SET_HIGH, (uint8_t)(fl->value >> 8),
                              (uint8_t)(fl->dir >> 8) };
    int rc = pp_mpsse_raw(&fl->enc, low, sizeof(low), 0);

    if (rc == PP_OK && fl->chip->high_byte)
        rc = pp_mpsse_raw(&fl->enc, high, sizeof(high), 0);
    return rc;
}

/* Only the bytes whose pins changed (0x80/0x82 cost 3 bytes each). */
static int queue_pins_changed(struct ftdi_link *fl, uint16_t was_value, uint16_t was_dir,
                              bool force)
{
    const uint8_t low[3] = { PP_MPSSE_SET_LOW, (uint8_t)fl->value, (uint8_t)fl->dir };
    const uint8_t high[3] = { PP_MPSSE_SET_HIGH, (uint8_t)(fl->value >> 8),
                              (uint8_t)(fl->dir >> 8) };
    uint16_t diff = (uint16_t)((was_value ^ fl->value) | (was_dir ^ fl->dir));
    int rc = PP_OK;

    if (force || (diff & 0x00FF))
        rc = pp_mpsse_raw(&fl->enc, low, sizeof(low), 0);
    if (rc == PP_OK && fl->chip->high_byte && (force || (diff & 0xFF00)))
        rc = pp_mpsse_raw(&fl->enc, high, sizeof(high), 0);
    return rc;
}

/* An SWD signal set to 1 or 0 (OpenOCD's meaning, spec/cmsis-dap-swd.md
 * 5.1): its data pins outputs at that level, inverted with ndata. */
static void swd_signal_set(const struct pp_ftdi_signal *s, bool one, uint16_t *value,
                           uint16_t *dir)
{
    if (!s->data)
        return;
    *dir |= s->data;
    *value = (one != s->ndata) ? (uint16_t)(*value | s->data) : (uint16_t)(*value & ~s->data);
}

int pp_link_ftdi_swdio(struct pp_link *l, bool drive)
{
    struct ftdi_link *fl;
    const struct pp_ftdi_layout *ly;
    uint16_t was_value, was_dir;
    bool force;
    int rc;

    if (!l || l->ops != &ftdi_ops)
        return PP_E_INVAL;
    fl = l->priv;
    ly = &fl->layout;
    if (ly->swdio == PP_FTDI_SWDIO_NONE)
        return PP_E_UNSUPPORTED;
    if (ly->swdio == PP_FTDI_SWDIO_RESISTOR || (fl->swd_known && fl->swd_driving == drive))
        return PP_OK;
    was_value = fl->value;
    was_dir = fl->dir;
    /* The first time, and after an error, say every pin again. */
    force = !fl->swd_known;
    if (!fl->swd_on)
        swd_signal_set(&ly->swd_en, true, &fl->value, &fl->dir);
    if (ly->swdio == PP_FTDI_SWDIO_DIR)
        fl->dir = drive ? (uint16_t)(fl->dir | 0x0002) : (uint16_t)(fl->dir & ~0x0002);
    else
        swd_signal_set(&ly->swdio_oe, drive, &fl->value, &fl->dir);
    fl->swd_on = true;
    fl->swd_known = true;
    fl->swd_driving = drive;
    rc = queue_pins_changed(fl, was_value, was_dir, force);
    /* The encoder brings TMS low before a data shift for the TAP's sake
     * (mpsse.c); in SWD no TAP listens, and a SWDIO_OE on the TMS pin
     * (olimex-arm-jtag-swd.cfg: -alias TMS) must stay where it was set. */
    fl->enc.tms_level = 0;
    return rc;
}

static int ftdi_reset(struct pp_link *l, bool trst, bool srst)
{
    struct ftdi_link *fl = l->priv;
    const struct pp_ftdi_layout *ly = &fl->layout;
    int rc = ftdi_flush(l);

    if (rc != PP_OK)
        return rc;
    if ((trst && !pp_ftdi_signal_present(&ly->ntrst)) ||
        (srst && !pp_ftdi_signal_present(&ly->nsrst))) {
        bool no_trst = trst && !pp_ftdi_signal_present(&ly->ntrst);

        snprintf(l->errmsg, sizeof(l->errmsg), "ftdi: adapter layout '%s' has no %s pin "
                 "(if the adapter wires one, describe it: --adapter custom:...,%s=SIG)",
                 ly->name, no_trst ? "nTRST" : "nSRST", no_trst ? "trst" : "srst");
        return PP_E_UNSUPPORTED;
    }
    if (pp_ftdi_signal_present(&ly->ntrst))
        pp_ftdi_signal_drive(&ly->ntrst, trst, &fl->value, &fl->dir);
    if (pp_ftdi_signal_present(&ly->nsrst))
        pp_ftdi_signal_drive(&ly->nsrst, srst, &fl->value, &fl->dir);
    rc = queue_pins(fl);
    return rc == PP_OK ? ftdi_flush(l) : rc;
}

static int queue_divisor(struct ftdi_link *fl, unsigned khz)
{
    /* Saturate: any request above 30 MHz gives divisor 0 anyway. */
    uint32_t hz = khz > UINT32_MAX / 1000u ? UINT32_MAX : khz * 1000u;
    uint16_t div = pp_mpsse_divisor(hz);
    const uint8_t cmd[3] = { PP_MPSSE_SET_DIVISOR, (uint8_t)div, (uint8_t)(div >> 8) };

    fl->tck_hz = pp_mpsse_divisor_hz(div);
    fl->asked_hz = hz;
    return pp_mpsse_raw(&fl->enc, cmd, sizeof(cmd), 0);
}

static int ftdi_set_speed(struct pp_link *l, unsigned khz, unsigned *actual_khz)
{
    struct ftdi_link *fl = l->priv;
    int rc = ftdi_flush(l);

    if (rc == PP_OK)
        rc = queue_divisor(fl, khz ? khz : DEFAULT_KHZ);
    if (rc == PP_OK)
        rc = ftdi_flush(l);
    if (actual_khz)
        *actual_khz = fl->tck_hz / 1000u;
    return rc;
}

static void ftdi_close(struct pp_link *l)
{
    struct ftdi_link *fl = l->priv;

    if (!fl)
        return;
    if (fl->f && (fl->st.nw || fl->st.rtc))
        stream_abort(fl);         /* queued, never flushed */
    if (fl->f) {
        if (!fl->lost)
            ftdi_usb_close(fl->f);
        ftdi_free(fl->f);
    }
    pp_mpsse_free(&fl->enc);
    if (fl->hs)
        write_host_stats(fl->hs);
    free(fl->hs);
    free(fl->in);
    free(fl);
    l->priv = NULL;
}

static const struct pp_link_ops ftdi_ops = {
    .name = "ftdi",
    .tms = ftdi_tms,
    .shift = ftdi_shift,
    .flush = ftdi_flush,
    .reset = ftdi_reset,
    .set_speed = ftdi_set_speed,
    .close = ftdi_close,
};

/* --- opening -------------------------------------------------------------- */

static const struct chip *chip_of(uint16_t bcd)
{
    for (size_t i = 0; i < sizeof(chips) / sizeof(chips[0]); i++)
        if (chips[i].bcd == bcd)
            return &chips[i];
    return NULL;
}

static const struct pp_ftdi_layout *default_layout(const struct chip *c)
{
    if (c->bcd == 0x0900)
        return pp_ftdi_layout_find("ft232h");
    if (c->bcd == 0x0800)
        return pp_ftdi_layout_find("ft4232h");
    return pp_ftdi_layout_find("minimodule");
}

/* One control step of the setup; libftdi's message on failure. */
static int setup_step(struct pp_link *l, int rc, const char *what)
{
    struct ftdi_link *fl = l->priv;

    if (rc >= 0)
        return PP_OK;
    if (rc == -666 || libusb_get_configuration(fl->f->usb_dev, &(int){ 0 }) ==
                          LIBUSB_ERROR_NO_DEVICE) {
        fl->lost = true;
        snprintf(l->errmsg, sizeof(l->errmsg), "ftdi %s: the adapter was unplugged during "
                 "%s", fl->usb_path, what);
        return PP_E_LINK;
    }
    snprintf(l->errmsg, sizeof(l->errmsg), "ftdi %s: %s failed: %s", fl->usb_path, what,
             ftdi_get_error_string(fl->f));
    return PP_E_LINK;
}

/* Sends cmd and expects exactly "0xFA op" back: the AN_135 sync (spec
 * 1.10).  A different opcode after 0xFA means the chip rejected one of
 * the commands before it. */
static int sync_on(struct pp_link *l, const uint8_t *cmd, size_t n, uint8_t op)
{
    struct ftdi_link *fl = l->priv;
    uint8_t reply[2];
    int rc = usb_write(l, cmd, n);

    if (rc == PP_OK)
        rc = usb_read_exact(l, reply, 2, pp_deadline_ms(REPLY_TIMEOUT_MS));
    if (rc == PP_E_TIMEOUT) {
        snprintf(l->errmsg, sizeof(l->errmsg), "ftdi %s interface %c: no answer to the MPSSE "
                 "sync (0x%02X): the channel is not in MPSSE mode", fl->usb_path, fl->iface,
                 op);
        return PP_E_PROTO;
    }
    if (rc != PP_OK)
        return rc;
    if (reply[0] == PP_MPSSE_BAD_REPLY && reply[1] != op && (reply[1] & 0x80)) {
        snprintf(l->errmsg, sizeof(l->errmsg), "ftdi %s: the adapter rejected MPSSE command "
                 "0x%02X (bad-command reply 0xFA 0x%02X): not an FT2232H/FT232H/FT4232H, or "
                 "a clone that lacks it", fl->usb_path, reply[1], reply[1]);
        purge(fl);
        return PP_E_PROTO;
    }
    if (reply[0] != PP_MPSSE_BAD_REPLY || reply[1] != op) {
        snprintf(l->errmsg, sizeof(l->errmsg), "ftdi %s: MPSSE sync answered %02X %02X, "
                 "expected FA %02X", fl->usb_path, reply[0], reply[1], op);
        purge(fl);
        return PP_E_PROTO;
    }
    return PP_OK;
}

/* Reads and drops what the chip had queued from before (spec 2.5 step 6). */
static void drain(struct ftdi_link *fl)
{
    uint8_t junk[512];

    for (int i = 0; i < 4 && ftdi_read_data(fl->f, junk, sizeof(junk)) > 0; i++)
        ;
}

static int configure(struct pp_link *l, unsigned khz)
{
    struct ftdi_link *fl = l->priv;
    static const uint8_t sync_aa[] = { 0xAA, PP_MPSSE_SEND_IMM };
    static const uint8_t clocks[] = { PP_MPSSE_LOOPBACK_OFF, PP_MPSSE_DIV5_OFF,
                                      PP_MPSSE_ADAPTIVE_OFF, PP_MPSSE_3PHASE_OFF };
    static const uint8_t sync_ab[] = { 0xAB, PP_MPSSE_SEND_IMM };
    struct ftdi_context *f = fl->f;
    int rc = setup_step(l, ftdi_set_latency_timer(f, LATENCY_MS), "setting the latency timer");

    if (rc == PP_OK)
        rc = setup_step(l, ftdi_read_data_set_chunksize(f, USB_CHUNK), "read chunk size");
    if (rc == PP_OK)
        rc = setup_step(l, ftdi_write_data_set_chunksize(f, USB_CHUNK), "write chunk size");
    if (rc == PP_OK) {
#ifdef _Ftdi_Pragma
        rc = setup_step(l, ftdi_tcioflush(f), "purging the buffers");
#else
        rc = setup_step(l, ftdi_usb_purge_buffers(f), "purging the buffers");
#endif
    }
    if (rc == PP_OK)
        rc = setup_step(l, ftdi_set_bitmode(f, 0, BITMODE_RESET), "resetting the bit mode");
    if (rc == PP_OK)
        rc = setup_step(l, ftdi_set_bitmode(f, 0x0b, BITMODE_MPSSE), "entering MPSSE mode");
    if (rc != PP_OK)
        return rc;
    drain(fl);
    rc = sync_on(l, sync_aa, sizeof(sync_aa), 0xAA);
    if (rc != PP_OK)
        return rc;
    /* Clock and pins, then a second sync that also shows whether any of
     * them came back as a bad command (0x8A on a pre-H chip, say). */
    pp_mpsse_raw(&fl->enc, clocks, sizeof(clocks), 0);
    queue_divisor(fl, khz);
    queue_pins(fl);
    rc = pp_mpsse_raw(&fl->enc, sync_ab, sizeof(sync_ab), 0);
    if (rc != PP_OK)
        return rc;
    rc = sync_on(l, fl->enc.out, fl->enc.nout, 0xAB);
    pp_mpsse_clear(&fl->enc);
    return rc;
}

/* Fills w from p and the layout. */
static void want_of(const struct pp_ftdi_params *p, const struct pp_ftdi_layout *ly,
                    struct want *w)
{
    memset(w, 0, sizeof(*w));
    w->vid = p->vid;
    w->pid = p->pid;
    if (!w->vid && !w->pid && ly) {
        w->vid = ly->vid;
        w->pid = ly->pid;
    }
    w->serial = p->serial;
    w->description = p->description;
    w->usb_path = p->usb_path;
    if (w->vid || w->pid)
        snprintf(w->name, sizeof(w->name), "%04x:%04x", w->vid, w->pid);
    else
        snprintf(w->name, sizeof(w->name), "0403:6010/6011/6014");
}

/* Opens the found device on fl->f; maps libftdi's codes to ours. */
static int open_device(struct ftdi_link *fl, const struct candidate *c, const struct want *w,
                       char *err, size_t errlen)
{
    int rc = ftdi_set_interface(fl->f, (enum ftdi_interface)(INTERFACE_A + (fl->iface - 'A')));

    if (rc < 0) {
        pp_errmsg(err, errlen, "ftdi %s: interface %c: %s", c->path, fl->iface,
                ftdi_get_error_string(fl->f));
        return PP_E_INVAL;
    }
    rc = ftdi_usb_open_dev(fl->f, c->dev);
    if (rc == 0)
        return PP_OK;
    if (rc == -8 || c->open_rc == LIBUSB_ERROR_ACCESS) {
        permission_error(err, errlen, w->name, c->path);
        return PP_E_BUSY;
    }
    if (rc == -5 || rc == -3) {
        pp_errmsg(err, errlen, "ftdi %s at %s interface %c is busy: another program (OpenOCD?) "
                "or the ftdi_sio driver has claimed it; stop it, or unbind ftdi_sio", w->name,
                c->path, fl->iface);
        return PP_E_BUSY;
    }
    pp_errmsg(err, errlen, "ftdi %s at %s: cannot open: %s", w->name, c->path,
            ftdi_get_error_string(fl->f));
    return PP_E_LINK;
}

/* Checks that the chip has an MPSSE on the interface asked for. */
static int check_chip(struct ftdi_link *fl, const struct candidate *c, char *err,
                      size_t errlen)
{
    fl->chip = chip_of(c->desc.bcdDevice);
    if (!fl->chip) {
        pp_errmsg(err, errlen, "ftdi %04x:%04x at %s: chip with bcdDevice 0x%04x has no "
                "usable MPSSE (supported: FT2232H, FT4232H, FT232H)", c->desc.idVendor,
                c->desc.idProduct, c->path, c->desc.bcdDevice);
        return PP_E_UNSUPPORTED;
    }
    if (!strchr(fl->chip->mpsse, fl->iface)) {
        pp_errmsg(err, errlen, "ftdi %s: interface %c of an %s has no MPSSE (use %s)", c->path,
                fl->iface, fl->chip->name, strlen(fl->chip->mpsse) > 1 ? "A or B" : "A");
        return PP_E_UNSUPPORTED;
    }
    return PP_OK;
}

/* PMUPROBE_FTDI_STATS (see struct host_stats); without memory, no stats. */
static void host_stats_from_env(struct ftdi_link *fl)
{
    const char *path = getenv("PMUPROBE_FTDI_STATS");

    if (!path || !*path)
        return;
    fl->hs = calloc(1, sizeof(*fl->hs));
    if (fl->hs)
        snprintf(fl->hs->path, sizeof(fl->hs->path), "%s", path);
}

static struct ftdi_link *link_new(struct pp_link **l)
{
    struct ftdi_link *fl = calloc(1, sizeof(*fl));

    *l = calloc(1, sizeof(**l));
    if (!fl || !*l) {
        free(fl);
        free(*l);
        *l = NULL;
        return NULL;
    }
    fl->f = ftdi_new();
    if (!fl->f) {
        free(fl);
        free(*l);
        *l = NULL;
        return NULL;
    }
    (*l)->ops = &ftdi_ops;
    (*l)->priv = fl;
    return fl;
}

static void copy_info(struct ftdi_link *fl, const struct candidate *c)
{
    snprintf(fl->serial, sizeof(fl->serial), "%s", c->serial);
    snprintf(fl->description, sizeof(fl->description), "%s", c->description);
    snprintf(fl->usb_path, sizeof(fl->usb_path), "%s", c->path);
}

int pp_link_ftdi_open(const struct pp_ftdi_params *p, struct pp_link **out, char *err,
                      size_t errlen)
{
    struct candidate c = { 0 };
    struct pp_link *l;
    struct ftdi_link *fl = link_new(&l);
    struct want w;
    int rc;

    *out = NULL;
    if (!fl) {
        pp_errmsg(err, errlen, "ftdi: out of memory");
        return PP_E_NOMEM;
    }
    want_of(p, p->layout, &w);
    rc = find_device(fl->f->usb_ctx, &w, &c, err, errlen);
    if (rc != PP_OK)
        goto fail;
    copy_info(fl, &c);
    fl->iface = p->interface ? p->interface : p->layout ? p->layout->interface : 'A';
    fl->sync = p->sync;
    rc = check_chip(fl, &c, err, errlen);
    if (rc == PP_OK)
        rc = open_device(fl, &c, &w, err, errlen);
    libusb_unref_device(c.dev);
    if (rc != PP_OK)
        goto fail;
    fl->layout = p->layout ? *p->layout : *default_layout(fl->chip);
    fl->value = fl->layout.value;
    fl->dir = fl->layout.dir;
    pp_mpsse_init(&fl->enc, fl->chip->fifo, 2 * USB_CHUNK);
    if (!fl->sync)
        pp_mpsse_set_first_in(&fl->enc, FIRST_CHUNK_IN);
    rc = configure(l, p->khz ? p->khz : DEFAULT_KHZ);
    if (rc != PP_OK) {
        pp_errmsg(err, errlen, "%s", l->errmsg);
        goto fail;
    }
    memset(&l->stats, 0, sizeof(l->stats));
    host_stats_from_env(fl);
    *out = l;
    return PP_OK;
fail:
    pp_link_close(l);
    return rc;
}

int pp_link_ftdi_info(const struct pp_link *l, struct pp_ftdi_info *out)
{
    const struct ftdi_link *fl;

    if (!l || l->ops != &ftdi_ops)
        return PP_E_INVAL;
    fl = l->priv;
    memset(out, 0, sizeof(*out));
    out->chip = fl->chip->name;
    out->interface = fl->iface;
    out->tck_hz = fl->tck_hz;
    out->tck_asked_hz = fl->asked_hz;
    out->fifo = fl->chip->fifo;
    snprintf(out->serial, sizeof(out->serial), "%s", fl->serial);
    snprintf(out->description, sizeof(out->description), "%s", fl->description);
    snprintf(out->usb_path, sizeof(out->usb_path), "%s", fl->usb_path);
    out->layout = fl->layout.name;
    out->swdio = fl->layout.swdio;
    return PP_OK;
}
