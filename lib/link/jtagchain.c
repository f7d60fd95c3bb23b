/*
 * jtagchain.c - chain descriptions (jtagchain.h): the text form, the
 * table of known IDCODEs, IR lengths from what the chain captured, and
 * the match of a found chain against a description.
 *
 * Why a table: the IR capture pattern only pins bits [1:0] to 01 (IEEE
 * 1149.1); Xilinx TAPs put status bits above them (a Zynq-7000 PL
 * captures 0x11 unconfigured, 0x35 configured) and the i.MX6 SDMA TAP
 * captures 0000, so splitting the IR chain at every 1 gets such chains
 * wrong (spec/jtag-chains.md 2.5).  The IDCODE scan is unambiguous;
 * known IDCODEs then give the IR lengths, and at most one TAP without a
 * known length takes what is left.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "errmsg.h"
#include "link/jtagchain.h"

/* ---- known IDCODEs -------------------------------------------------------- */

struct known_tap {
    uint32_t value, mask;         /* (idcode & mask) == value */
    unsigned irlen;
    const char *name;
};

/* spec/jtag-chains.md 1.1, 1.2, 1.5, 3, 4.1 (OpenOCD 0.12 stock configs). */
static const struct known_tap known[] = {
    /* designer 0x23B (Arm), part 0xBA0x, any version: known[0] is the DP
     * (pp_jtag_is_arm_dp) */
    { 0x0BA00477u, 0x0FF00FFFu, 4, "Arm JTAG-DP" },
    /* Xilinx (0x049) XC7Z0xx PL, parts 0x3720-0x373F (7Z010 0x3722,
     * 7Z020 0x3727, 7Z030 0x372C, 7Z100 0x3736) */
    { 0x03720093u, 0x0FFE0FFFu, 6, "Xilinx Zynq-7000 PL TAP" },
    /* Xilinx ZynqMP PS TAP and PL TAP, one 12-bit IR (0x047xx093) */
    { 0x04700093u, 0x0FF00FFFu, 12, "Xilinx Zynq UltraScale+ PS/PL TAP" },
    /* Freescale (0x00E) i.MX6 System JTAG Controller: 6Q/6D/6QP/6DP parts
     * 0x191x, 6DL/6S/6SL/6UL/6SX parts 0x891x, 6SLL 0x88C2 */
    { 0x0191001Du, 0x0FFF0FFFu, 5, "NXP i.MX6 SJC" },
    { 0x0891001Du, 0x0FFF0FFFu, 5, "NXP i.MX6 SJC" },
    { 0x088C201Du, 0x0FFFFFFFu, 5, "NXP i.MX6 SJC" },
};

unsigned pp_jtag_known_irlen(uint32_t idcode, const char **name)
{
    for (size_t i = 0; idcode && i < sizeof(known) / sizeof(known[0]); i++)
        if ((idcode & known[i].mask) == known[i].value) {
            if (name)
                *name = known[i].name;
            return known[i].irlen;
        }
    if (name)
        *name = NULL;
    return 0;
}

bool pp_jtag_is_arm_dp(uint32_t idcode)
{
    return (idcode & known[0].mask) == known[0].value;
}

/* ---- the text form -------------------------------------------------------- */

static bool parse_u32(const char *s, uint32_t *out)
{
    char *end;
    unsigned long long v;

    if (!*s || *s == '-' || *s == '+')
        return false;
    v = strtoull(s, &end, 0);
    if (*end || v > 0xFFFFFFFFull)
        return false;
    *out = (uint32_t)v;
    return true;
}

static int fail(char *err, size_t errlen, const char *fmt, const char *a, const char *b)
{
    if (err && errlen)
        pp_errmsg(err, errlen, fmt, a, b);
    return PP_E_PARSE;
}

static int parse_ids(char *v, struct pp_jtag_chain_tap *t, char *err, size_t errlen)
{
    if (strcmp(v, "none") == 0) {
        t->no_idcode = true;
        return PP_OK;
    }
    for (char *id = v, *next; id; id = next) {
        next = strchr(id, '|');
        if (next)
            *next++ = '\0';
        if (t->nids == PP_JTAG_CHAIN_IDS)
            return fail(err, errlen, "TAP '%s': more than 8 IDCODEs%s", t->name, "");
        if (!parse_u32(id, &t->ids[t->nids]) || !(t->ids[t->nids] & 1u))
            return fail(err, errlen, "TAP '%s': idcode '%s' is not a JTAG IDCODE (expected "
                        "32 bits with bit 0 set, e.g. 0x4BA00477, or none)", t->name, id);
        t->nids++;
    }
    return PP_OK;
}

/* One "key=value" of a TAP. */
static int parse_opt(char *opt, struct pp_jtag_chain_tap *t, char *err, size_t errlen)
{
    char *v = strchr(opt, '=');
    uint32_t n;

    if (!v)
        return fail(err, errlen, "TAP '%s': '%s' is not KEY=VALUE (expected irlen=N, "
                    "idcode=ID[|ID...], idcode=none or ircapture=N)", t->name, opt);
    *v++ = '\0';
    if (strcmp(opt, "idcode") == 0)
        return parse_ids(v, t, err, errlen);
    if (strcmp(opt, "irlen") == 0) {
        if (!parse_u32(v, &n) || n < 1 || n > PP_JTAG_MAX_IRLEN)
            return fail(err, errlen, "TAP '%s': irlen '%s' is not an IR length (expected "
                        "1..32)", t->name, v);
        t->irlen = n;
        return PP_OK;
    }
    if (strcmp(opt, "ircapture") == 0) {
        if (!parse_u32(v, &t->ircapture))
            return fail(err, errlen, "TAP '%s': ircapture '%s' is not a number", t->name, v);
        t->ircapture_set = true;
        return PP_OK;
    }
    return fail(err, errlen, "TAP '%s': unknown '%s' (expected irlen, idcode or ircapture)",
                t->name, opt);
}

static bool good_name(const char *s)
{
    if (!*s)
        return false;
    for (; *s; s++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') ||
              *s == '_' || *s == '.' || *s == '-'))
            return false;
    return true;
}

static int parse_tap(char *word, struct pp_jtag_chain_tap *t, char *err, size_t errlen)
{
    char *opt = strchr(word, ':'), *next;
    int rc;

    if (opt)
        *opt++ = '\0';
    if (!good_name(word) || strlen(word) >= sizeof(t->name))
        return fail(err, errlen, "'%s' is not a TAP name (expected up to 23 letters, digits, "
                    "'_', '.' or '-')%s", word, "");
    memset(t, 0, sizeof(*t));
    strcpy(t->name, word);
    t->dap = strcmp(word, "dap") == 0;
    for (; opt; opt = next) {
        next = strchr(opt, ':');
        if (next)
            *next++ = '\0';
        if ((rc = parse_opt(opt, t, err, errlen)) != PP_OK)
            return rc;
    }
    if (t->irlen && t->ircapture_set && t->irlen < 32 && (t->ircapture >> t->irlen))
        return fail(err, errlen, "TAP '%s': ircapture is wider than irlen%s", t->name, "");
    return PP_OK;
}

/* Splits text into words at blanks and commas; NULL-terminated. */
static unsigned split_words(char *buf, char **w, unsigned max)
{
    unsigned n = 0;

    for (char *p = strtok(buf, " \t,"); p; p = strtok(NULL, " \t,"))
        if (n < max)
            w[n++] = p;
        else
            return max + 1;
    return n;
}

static int check_daps(const struct pp_jtag_chain *c, char *err, size_t errlen)
{
    unsigned daps = 0;

    for (unsigned i = 0; i < c->n; i++)
        daps += c->tap[i].dap;
    if (daps == 1)
        return PP_OK;
    return fail(err, errlen, "%s 'dap' in the chain (expected exactly one: the TAP of the "
                "Arm DAP pmuprobe talks to)%s", daps ? "more than one" : "no", "");
}

int pp_jtag_chain_parse(const char *text, struct pp_jtag_chain *out, char *err, size_t errlen)
{
    char buf[1024], *w[PP_JTAG_MAX_TAPS + 2];
    unsigned n;
    bool tdo_first;
    int rc;

    memset(out, 0, sizeof(*out));
    if (strlen(text) >= sizeof(buf))
        return fail(err, errlen, "the chain is longer than 1023 characters%s%s", "", "");
    strcpy(buf, text);
    n = split_words(buf, w, PP_JTAG_MAX_TAPS + 2);
    if (n > PP_JTAG_MAX_TAPS + 2)
        return fail(err, errlen, "more than 16 TAPs in the chain%s%s", "", "");
    if (n < 3 || !((strcmp(w[0], "tdi") == 0 && strcmp(w[n - 1], "tdo") == 0) ||
                   (strcmp(w[0], "tdo") == 0 && strcmp(w[n - 1], "tdi") == 0)))
        return fail(err, errlen, "'%s' does not run from one end to the other (expected "
                    "'tdo TAP... tdi' or 'tdi TAP... tdo', e.g. 'tdo pl:irlen=6 dap tdi')%s",
                    text, "");
    tdo_first = strcmp(w[0], "tdo") == 0;
    out->n = n - 2;
    for (unsigned i = 0; i < out->n; i++) {
        char *word = w[tdo_first ? 1 + i : n - 2 - i];   /* tap[0] nearest TDO */

        if ((rc = parse_tap(word, &out->tap[i], err, errlen)) != PP_OK)
            return rc;
    }
    return check_daps(out, err, errlen);
}

unsigned pp_jtag_chain_dap(const struct pp_jtag_chain *c)
{
    for (unsigned i = 0; i < c->n; i++)
        if (c->tap[i].dap)
            return i;
    return c->n;
}

/* ---- IR lengths ----------------------------------------------------------- */

static uint32_t cap_bits(const struct pp_jtag_scan *s, unsigned at, unsigned n)
{
    uint32_t v = 0;

    for (unsigned i = 0; i < n && at + i < s->irtotal; i++)
        v |= (uint32_t)pp_bit_get(s->ircap, at + i) << i;
    return v;
}

/* Where TAP i's capture pattern would end if it starts at pos: at the
 * next 1 (the next pattern's bit 0), but leaving room for the TAPs after
 * it whose lengths are known. */
static unsigned guess_len(const struct pp_jtag_scan *s, unsigned pos, unsigned room)
{
    unsigned end = pos + 1;

    while (end < pos + room && !pp_bit_get(s->ircap, end))
        end++;
    return end - pos;
}

/*
 * IR lengths: len[i] from the description (want may be NULL), else the
 * table, else 0.  A single unknown takes the rest of irtotal; several are
 * split at each 1 of the captured bits.  Every TAP whose length came from
 * the description or the table must then capture its ...01 (or the
 * ircapture described): the check that the lengths line up.  PP_E_PARSE
 * with the reason in err.
 */
static int split_irlens(const struct pp_jtag_scan *s, const struct pp_jtag_chain *want,
                        unsigned *len, char *err, size_t errlen)
{
    unsigned known_sum = 0, unknown = 0, pos = 0;
    bool checked[PP_JTAG_MAX_TAPS];
    char msg[160];

    for (unsigned i = 0; i < s->n; i++) {
        len[i] = want && want->tap[i].irlen ? want->tap[i].irlen
                                            : pp_jtag_known_irlen(s->idcode[i], NULL);
        checked[i] = len[i] != 0;
        known_sum += len[i];
        unknown += len[i] == 0;
    }
    for (unsigned i = 0; i < s->n; i++) {
        unsigned rest = 0;

        for (unsigned k = i + 1; k < s->n; k++)
            rest += len[k];
        if (!len[i] && unknown == 1 && s->irtotal > known_sum)
            len[i] = s->irtotal - known_sum;
        else if (!len[i] && s->irtotal > pos + rest)
            len[i] = guess_len(s, pos, s->irtotal - pos - rest);
        if (!len[i] || len[i] > PP_JTAG_MAX_IRLEN)
            break;
        pos += len[i];
    }
    if (pos != s->irtotal) {
        snprintf(msg, sizeof(msg), "the IR lengths cannot be told: the IRs add up to %u bits",
                 s->irtotal);
        return fail(err, errlen, "%s%s; give each TAP's irlen in --jtag-chain", msg, "");
    }
    pos = 0;
    for (unsigned i = 0; i < s->n; pos += len[i], i++) {
        bool desc = want && want->tap[i].ircapture_set;
        uint32_t mask = len[i] < 2 ? 1u : 3u;
        uint32_t expect = (desc ? want->tap[i].ircapture : 1u) & mask;
        uint32_t got = cap_bits(s, pos, len[i]);

        if (!checked[i] && !desc)
            continue;
        if ((got & mask) == expect)
            continue;
        snprintf(msg, sizeof(msg), "TAP %u (IDCODE 0x%08X, IR length %u) captured IR 0x%X, "
                 "not ...%s", i, s->idcode[i], len[i], got, expect == 1 ? "01" : "00");
        return fail(err, errlen, "%s: the IR lengths do not add up%s", msg,
                    want && want->n ? "" : " (describe the chain with --jtag-chain)");
    }
    return PP_OK;
}

int pp_jtag_detect(struct pp_jtag *j, struct pp_jtag_tap *taps, unsigned max, unsigned *ntaps)
{
    struct pp_jtag_scan s;
    unsigned len[PP_JTAG_MAX_TAPS];
    int rc = pp_jtag_scan(j, &s);

    if (rc != PP_OK)
        return rc;
    if (s.n > max)
        return PP_E_NOTFOUND;
    if ((rc = split_irlens(&s, NULL, len, NULL, 0)) != PP_OK)
        return rc;
    for (unsigned i = 0; i < s.n; i++) {
        taps[i].idcode = s.idcode[i];
        taps[i].irlen = len[i];
    }
    *ntaps = s.n;
    return PP_OK;
}

/* ---- matching ------------------------------------------------------------- */

/* " 0x23727093 (Xilinx Zynq-7000 PL TAP), 0x4BA00477 (Arm JTAG-DP)" */
static void list_found(const struct pp_jtag_scan *s, char *buf, size_t len)
{
    size_t used = 0;

    buf[0] = '\0';
    for (unsigned i = 0; i < s->n && used < len; i++) {
        const char *name;

        pp_jtag_known_irlen(s->idcode[i], &name);
        if (s->idcode[i])
            used += (size_t)snprintf(buf + used, len - used, "%s0x%08X%s%s%s", i ? ", " : "",
                                     s->idcode[i], name ? " (" : "", name ? name : "",
                                     name ? ")" : "");
        else
            used += (size_t)snprintf(buf + used, len - used, "%sno IDCODE (BYPASS)",
                                     i ? ", " : "");
    }
}

/* "pl 0x23727093|0x13722093, dap" */
static void list_wanted(const struct pp_jtag_chain *c, char *buf, size_t len)
{
    size_t used = 0;

    buf[0] = '\0';
    for (unsigned i = 0; i < c->n && used < len; i++) {
        const struct pp_jtag_chain_tap *t = &c->tap[i];

        used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? ", " : "", t->name);
        if (t->no_idcode && used < len)
            used += (size_t)snprintf(buf + used, len - used, " (no IDCODE)");
        for (unsigned k = 0; k < t->nids && used < len; k++)
            used += (size_t)snprintf(buf + used, len - used, "%s0x%08X", k ? "|" : " ",
                                     t->ids[k]);
    }
}

/* A "dap" without idcode= must still look like one: an Arm JTAG-DP, or
 * the target's DP IDCODE (a vendor-wrapped DAP; spec/jtag-chains.md 4.1). */
static bool tap_matches(const struct pp_jtag_chain_tap *t, uint32_t id, uint32_t dap_idcode)
{
    if (t->no_idcode)
        return id == 0;
    if (!t->nids && t->dap)
        return id && (pp_jtag_is_arm_dp(id) || id == dap_idcode);
    if (!t->nids)
        return true;
    for (unsigned k = 0; k < t->nids; k++)
        if (t->ids[k] == id)
            return true;
    return false;
}

static int mismatch(const struct pp_jtag_scan *s, const struct pp_jtag_chain *want,
                    char *err, size_t errlen)
{
    char found[PP_JTAG_MAX_TAPS * 48], wanted[PP_JTAG_MAX_TAPS * 100];

    list_found(s, found, sizeof(found));
    list_wanted(want, wanted, sizeof(wanted));
    pp_errmsg(err, errlen, "JTAG chain mismatch: expected %u TAP%s (nearest TDO first: %s), "
              "found %u: %s", want->n, want->n == 1 ? "" : "s", wanted, s->n, found);
    return PP_E_PARSE;
}

/* Without a description: the one Arm JTAG-DP (or the TAP answering the
 * target's DP IDCODE) with a 4-bit IR. */
static int find_dap(const struct pp_jtag_scan *s, const unsigned *len, uint32_t dap_idcode,
                    unsigned *dap, char *err, size_t errlen)
{
    char found[PP_JTAG_MAX_TAPS * 48];
    unsigned n = 0;

    for (unsigned i = 0; i < s->n; i++)
        if (len[i] == 4 && s->idcode[i] &&
            (pp_jtag_is_arm_dp(s->idcode[i]) || s->idcode[i] == dap_idcode)) {
            if (!n++)
                *dap = i;
        }
    if (n == 1)
        return PP_OK;
    list_found(s, found, sizeof(found));
    if (!n)
        pp_errmsg(err, errlen, "no Arm JTAG-DP (IDCODE 0x?BA0?477, IR length 4) on the JTAG "
                  "chain; TAPs found (nearest TDO first): %s; if one of them is the DAP, say "
                  "which with --jtag-chain (e.g. 'tdo dap tdi'), or give its IDCODE as dp.idcode "
                  "in a --target file; if the DAP is off the chain, power the SoC's debug domain "
                  "(some SoCs add it to the chain only on request, spec/jtag-chains.md)", found);
    else
        pp_errmsg(err, errlen, "%u Arm JTAG-DPs on the JTAG chain (%s): say which one with "
                  "--jtag-chain, e.g. 'tdo dap other:irlen=4 tdi'", n, found);
    return n ? PP_E_PARSE : PP_E_NOTFOUND;
}

int pp_jtag_chain_apply(struct pp_jtag *j, const struct pp_jtag_chain *want, uint32_t dap_idcode,
                        char *err, size_t errlen)
{
    struct pp_jtag_scan s;
    struct pp_jtag_tap taps[PP_JTAG_MAX_TAPS];
    unsigned len[PP_JTAG_MAX_TAPS], dap = 0;
    char why[256], found[PP_JTAG_MAX_TAPS * 48];
    int rc = pp_jtag_scan(j, &s);

    if (rc == PP_E_NOTFOUND)
        pp_errmsg(err, errlen, "no TAP answered on the JTAG chain (TDO stuck?): check the "
                  "cable and the target's power");
    else if (rc != PP_OK)
        pp_errmsg(err, errlen, "%s", pp_jtag_link(j)->errmsg);
    if (rc != PP_OK)
        return rc;
    if (want && !want->n)
        want = NULL;
    if (want && want->n != s.n)
        return mismatch(&s, want, err, errlen);
    for (unsigned i = 0; want && i < s.n; i++)
        if (!tap_matches(&want->tap[i], s.idcode[i], dap_idcode))
            return mismatch(&s, want, err, errlen);
    if ((rc = split_irlens(&s, want, len, why, sizeof(why))) != PP_OK) {
        list_found(&s, found, sizeof(found));
        pp_errmsg(err, errlen, "%s; TAPs found (nearest TDO first): %s", why, found);
        return rc;
    }
    if (want)
        dap = pp_jtag_chain_dap(want);
    else if ((rc = find_dap(&s, len, dap_idcode, &dap, err, errlen)) != PP_OK)
        return rc;
    for (unsigned i = 0; i < s.n; i++) {
        taps[i].idcode = s.idcode[i];
        taps[i].irlen = len[i];
    }
    return pp_jtag_set_chain(j, taps, s.n, dap);
}
