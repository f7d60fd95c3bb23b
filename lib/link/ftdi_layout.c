/*
 * ftdi_layout.c - FTDI adapter layouts as data: which pins carry nTRST,
 * nSRST and buffer enables, how SWDIO is wired for SWD, and how the pins
 * start.  Values from
 * spec/ftdi-mpsse-jtag.md 2.7 (the OpenOCD 0.12 interface/ftdi configs and
 * urJTAG), written as {value, direction} with ADBUS in the low byte.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "errmsg.h"
#include "link/ftdi.h"
#include "pmuprobe.h"

static const struct pp_ftdi_layout layouts[] = {
    /* Only TCK/TDI/TDO/TMS; nSRST "arbitrarily" on ADBUS5 (CN2-13), open
     * drain through the direction bit. */
    { "minimodule", "FTDI FT2232H Mini-Module (channel A)", 0x0403, 0x6010,
      "FT2232H MiniModule", 'A', 0x0008, 0x000b,
      { 0, 0, false, false }, { 0x0020, 0x0020, false, false },
      .swdio = PP_FTDI_SWDIO_RESISTOR },
    /* ADBUS4 = JTAG buffer nOE (driven low = enabled); nTRST on ACBUS0;
     * nSRST through an open-collector stage enabled by ACBUS1; LED ACBUS3. */
    { "olimex-arm-usb-ocd-h", "Olimex ARM-USB-OCD-H", 0x15ba, 0x002b,
      "Olimex OpenOCD JTAG ARM-USB-OCD-H", 'A', 0x0908, 0x0b1b,
      { 0x0100, 0, false, false }, { 0, 0x0200, false, false },
      .swdio = PP_FTDI_SWDIO_NONE },
    { "olimex-arm-usb-tiny-h", "Olimex ARM-USB-TINY-H", 0x15ba, 0x002a,
      "Olimex OpenOCD JTAG ARM-USB-TINY-H", 'A', 0x0808, 0x0a1b,
      { 0x0100, 0x0100, false, false }, { 0, 0x0200, false, false },
      .swdio = PP_FTDI_SWDIO_NONE },
    /* nTRST ADBUS4; nSRST ADBUS5 with its driver enabled by ACBUS0 low. */
    { "flyswatter2", "TinCanTools Flyswatter2", 0x0403, 0x6010, "Flyswatter2", 'A',
      0x0538, 0x057b,
      { 0x0010, 0, false, false }, { 0x0020, 0x0100, false, true },
      .swdio = PP_FTDI_SWDIO_NONE },
    /* ADBUS5..7 high and ACBUS5/6 low enable the buffers; no resets. */
    { "digilent-hs2", "Digilent JTAG-HS2", 0x0403, 0x6014, "Digilent Adept USB Device", 'A',
      0x00e8, 0x60eb,
      { 0, 0, false, false }, { 0, 0, false, false },
      .swdio = PP_FTDI_SWDIO_NONE },
    { "digilent-jtag-smt2", "Digilent JTAG-SMT2 (nSRST on ACBUS5)", 0x0403, 0x6014,
      "Digilent Adept USB Device", 'A', 0x20e8, 0x3feb,
      { 0, 0, false, false }, { 0x2000, 0, false, false },
      .swdio = PP_FTDI_SWDIO_NONE },
    /* A bare FT232H board: the JTAG pins only. */
    { "ft232h", "generic FT232H module (JTAG pins only)", 0x0403, 0x6014, NULL, 'A',
      0x0008, 0x000b,
      { 0, 0, false, false }, { 0, 0, false, false },
      .swdio = PP_FTDI_SWDIO_RESISTOR },
    /* A bare FT4232H: channel A, no high byte. */
    { "ft4232h", "generic FT4232H module, channel A (JTAG pins only)", 0x0403, 0x6011,
      NULL, 'A', 0x0008, 0x000b,
      { 0, 0, false, false }, { 0, 0, false, false },
      .swdio = PP_FTDI_SWDIO_RESISTOR },
    /* The SWD layouts OpenOCD ships (spec/cmsis-dap-swd.md 5.3).
     * ft232h-module-swd.cfg: DO (ADBUS1) and DI (ADBUS2) both on SWDIO, no
     * resistor, so DO lets go through its direction bit; nSRST ADBUS4 and
     * nTRST ADBUS5, open drain. */
    { "ft232h-module-swd", "FT232H module, SWD: ADBUS1 and ADBUS2 tied to SWDIO", 0x0403,
      0x6014, NULL, 'A', 0x0030, 0x003b,
      { 0x0020, 0x0020, false, false }, { 0x0010, 0x0010, false, false },
      .swdio = PP_FTDI_SWDIO_DIR },
    /* minimodule-swd.cfg: the same on the FT2232H Mini-Module; nRESET on
     * ADBUS4, open drain. */
    { "minimodule-swd", "FTDI FT2232H Mini-Module, SWD: ADBUS1 and ADBUS2 tied to SWDIO",
      0x0403, 0x6010, "FT2232H MiniModule", 'A', 0x0000, 0x000b,
      { 0, 0, false, false }, { 0x0010, 0x0010, false, false },
      .swdio = PP_FTDI_SWDIO_DIR },
    /* olimex-arm-usb-ocd-h.cfg with olimex-arm-jtag-swd.cfg: the ARM-JTAG-SWD
     * add-on buffers SWDIO from TDI, enabled by the TMS pin (SWDIO_OE
     * -alias TMS), and passes SWD while the nTRST pin is low (SWD_EN
     * -nalias nTRST), which then resets nothing; nSRST as on the OCD-H. */
    { "olimex-arm-usb-ocd-h-swd", "Olimex ARM-USB-OCD-H with the ARM-JTAG-SWD adapter",
      0x15ba, 0x002b, "Olimex OpenOCD JTAG ARM-USB-OCD-H", 'A', 0x0908, 0x0b1b,
      { 0, 0, false, false }, { 0, 0x0200, false, false },
      .swdio = PP_FTDI_SWDIO_OE, .swd_en = { 0x0100, 0, true, false },
      .swdio_oe = { 0x0008, 0, false, false } },
};
#define NLAYOUTS (sizeof(layouts) / sizeof(layouts[0]))

const struct pp_ftdi_layout *pp_ftdi_layout_get(size_t i)
{
    return i < NLAYOUTS ? &layouts[i] : NULL;
}

const char *pp_ftdi_swdio_wiring(enum pp_ftdi_swdio w)
{
    switch (w) {
    case PP_FTDI_SWDIO_DIR:
        return "DO tied to SWDIO";
    case PP_FTDI_SWDIO_OE:
        return "SWDIO through the SWDIO_OE buffer";
    default:
        return "SWDIO on TDI/TDO";
    }
}

const struct pp_ftdi_layout *pp_ftdi_layout_find(const char *name)
{
    for (size_t i = 0; name && i < NLAYOUTS; i++)
        if (strcasecmp(layouts[i].name, name) == 0)
            return &layouts[i];
    return NULL;
}

/* The output-enable half of a signal: through the direction register when
 * it shares the data pins (open drain), else a separate enable pin. */
static void drive_oe(const struct pp_ftdi_signal *s, bool on, uint16_t *value, uint16_t *dir)
{
    if (s->oe == s->data) {
        *dir = on ? (uint16_t)(*dir | s->oe) : (uint16_t)(*dir & ~s->oe);
        return;
    }
    *dir |= s->oe;
    *value = (on != s->noe) ? (uint16_t)(*value | s->oe) : (uint16_t)(*value & ~s->oe);
}

void pp_ftdi_signal_drive(const struct pp_ftdi_signal *s, bool asserted, uint16_t *value,
                          uint16_t *dir)
{
    if (s->data) {
        /* Asserted = line low; released = high unless an enable releases it. */
        bool high = !asserted;

        *dir |= s->oe == s->data ? 0 : s->data;
        *value = (high != s->ndata) ? (uint16_t)(*value | s->data)
                                    : (uint16_t)(*value & ~s->data);
        if (s->oe == s->data && asserted)
            *value &= (uint16_t)~s->data;
    }
    if (s->oe)
        drive_oe(s, asserted, value, dir);
}

bool pp_ftdi_signal_asserted(const struct pp_ftdi_signal *s, uint16_t value, uint16_t dir)
{
    bool enabled = true, low = true;

    if (!pp_ftdi_signal_present(s))
        return false;
    if (s->oe == s->data)
        enabled = (dir & s->oe) == s->oe;
    else if (s->oe)
        enabled = (dir & s->oe) && (((value & s->oe) != 0) != s->noe);
    if (s->data)
        low = (dir & s->data) && (((value & s->data) != 0) == s->ndata);
    return enabled && low;
}

/* "0x20" or "32" (base 0), or hex digits (base 16) -> 16 bits. */
static bool parse_num(const char *s, size_t len, int base, uint16_t *out)
{
    char buf[16], *end;
    unsigned long v;

    if (len == 0 || len >= sizeof(buf))
        return false;
    memcpy(buf, s, len);
    buf[len] = '\0';
    v = strtoul(buf, &end, base);
    if (*end || v > 0xFFFF)
        return false;
    *out = (uint16_t)v;
    return true;
}

static bool parse_mask(const char *s, size_t len, uint16_t *out)
{
    return parse_num(s, len, 0, out);
}

/* "data=0x20+oe=0x20" */
static bool parse_signal(const char *s, size_t len, struct pp_ftdi_signal *sig)
{
    memset(sig, 0, sizeof(*sig));
    while (len) {
        size_t part = strcspn(s, "+");
        const char *eq = memchr(s, '=', part < len ? part : len);
        size_t klen, plen = part < len ? part : len;
        uint16_t mask;

        if (!eq)
            return false;
        klen = (size_t)(eq - s);
        if (!parse_mask(eq + 1, plen - klen - 1, &mask))
            return false;
        if (klen == 4 && strncmp(s, "data", 4) == 0)
            sig->data = mask;
        else if (klen == 5 && strncmp(s, "ndata", 5) == 0)
            sig->data = mask, sig->ndata = true;
        else if (klen == 2 && strncmp(s, "oe", 2) == 0)
            sig->oe = mask;
        else if (klen == 3 && strncmp(s, "noe", 3) == 0)
            sig->oe = mask, sig->noe = true;
        else
            return false;
        s += plen;
        len -= plen;
        if (len) {
            s++;
            len--;
        }
    }
    return true;
}

static bool parse_vidpid(const char *s, size_t len, uint16_t *vid, uint16_t *pid)
{
    const char *colon = memchr(s, ':', len);

    /* Ids are hex, as lsusb prints them. */
    return colon && parse_num(s, (size_t)(colon - s), 16, vid) &&
           parse_num(colon + 1, len - (size_t)(colon - s) - 1, 16, pid);
}

static bool parse_init(const char *s, size_t len, uint16_t *value, uint16_t *dir)
{
    const char *slash = memchr(s, '/', len);

    return slash && parse_mask(s, (size_t)(slash - s), value) &&
           parse_mask(slash + 1, len - (size_t)(slash - s) - 1, dir);
}

/* "dir": DO tied to SWDIO, let go through its direction bit; else the
 * signal that enables a SWDIO buffer (data pins only: it is set, not
 * tri-stated). */
static bool parse_swdio_oe(const char *s, size_t len, struct pp_ftdi_layout *out)
{
    if (len == 3 && strncmp(s, "dir", 3) == 0) {
        out->swdio = PP_FTDI_SWDIO_DIR;
        return true;
    }
    out->swdio = PP_FTDI_SWDIO_OE;
    return parse_signal(s, len, &out->swdio_oe) && out->swdio_oe.data && !out->swdio_oe.oe;
}

static bool parse_option(const char *s, size_t len, struct pp_ftdi_layout *out, bool *init)
{
    const char *eq = memchr(s, '=', len);
    size_t klen;

    if (!eq)
        return false;
    klen = (size_t)(eq - s);
    s += klen + 1;
    len -= klen + 1;
    if (klen == 4 && strncmp(eq - 4, "init", 4) == 0)
        return (*init = parse_init(s, len, &out->value, &out->dir));
    if (klen == 6 && strncmp(eq - 6, "vidpid", 6) == 0)
        return parse_vidpid(s, len, &out->vid, &out->pid);
    if (klen == 4 && strncmp(eq - 4, "trst", 4) == 0)
        return parse_signal(s, len, &out->ntrst);
    if (klen == 4 && strncmp(eq - 4, "srst", 4) == 0)
        return parse_signal(s, len, &out->nsrst);
    if (klen == 6 && strncmp(eq - 6, "swd_en", 6) == 0)
        return parse_signal(s, len, &out->swd_en) && out->swd_en.data && !out->swd_en.oe;
    if (klen == 8 && strncmp(eq - 8, "swdio_oe", 8) == 0)
        return parse_swdio_oe(s, len, out);
    return false;
}

int pp_ftdi_layout_parse(const char *text, struct pp_ftdi_layout *out, char *err,
                         size_t errlen)
{
    static const char usage[] = "expected custom:init=VALUE/DIR[,vidpid=VID:PID]"
                                "[,trst=SIG][,srst=SIG][,swdio_oe=SIG|dir][,swd_en=SIG] "
                                "with SIG like data=0x10+oe=0x10";
    const char *s;
    bool init = false;

    if (strncasecmp(text, "custom:", 7) != 0) {
        pp_errmsg(err, errlen, "adapter '%s': %s", text, usage);
        return PP_E_PARSE;
    }
    memset(out, 0, sizeof(*out));
    out->name = "custom";
    out->summary = "adapter described by options";
    out->interface = 'A';
    out->swdio = PP_FTDI_SWDIO_RESISTOR;    /* unless swdio_oe says otherwise */
    for (s = text + 7; *s;) {
        size_t len = strcspn(s, ",");

        if (!parse_option(s, len, out, &init)) {
            pp_errmsg(err, errlen, "adapter '%s': cannot read '%.*s': %s", text, (int)len, s,
                      usage);
            return PP_E_PARSE;
        }
        s += len;
        if (*s == ',')
            s++;
    }
    if (!init || (out->dir & 0x0b) != 0x0b || (out->value & 1)) {
        pp_errmsg(err, errlen, "adapter '%s': init must make TCK, TDI and TMS (bits 0, 1, 3) "
                  "outputs with TCK low, e.g. init=0x0008/0x000b", text);
        return PP_E_PARSE;
    }
    return PP_OK;
}
