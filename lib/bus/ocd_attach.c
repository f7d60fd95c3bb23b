/*
 * ocd_attach.c - attaching the openocd access path to the user's own
 * OpenOCD session: which DAP and APB-AP, which mem_ap target (theirs: one
 * cannot be created after init, so without one the AP's registers are
 * used through `<dap> apreg`), and an APB-appropriate CSW that leaves
 * other users' bits alone.  Also run again after a reconnect, when
 * OpenOCD may have been restarted and lost what we set up.
 *
 * Facts: spec/openocd.md 2 (mem_ap on an APB-AP, CSW; never the top-level
 * `dap info`, which crashes 0.12.0 when the current target is a mem_ap).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "errmsg.h"
#include "bus/ocd_bus_internal.h"
#include "bus/ocd_overrun.h"

#define AP_SCAN          16u     /* APs probed when no target names one */

/* APB-AP: MEM-AP class (IDR[16:13] = 8) of type APB2/3 (2) or APB4 (6),
 * spec/arm-pmu-coresight.md 7.3. */
#define IDR_CLASS(idr)   (((idr) >> 13) & 0xFu)
#define IDR_TYPE(idr)    ((idr) & 0xFu)
#define CLASS_MEM_AP     0x8u

/* CSW bits we own on an APB-AP (spec 2.4 and arm-pmu-coresight 7.3):
 * OpenOCD's default is AHB-flavoured (0xA2000000).  DbgSwEnable[31] must
 * be set; Prot[30:24] means nothing on APB2/3, and on APB4 only
 * Privileged[28]/NonSecure[29] do, which stay as whoever set them. */
#define CSW_DBGSWEN      0x80000000u
#define CSW_MASK_APB     0xFF000000u
#define CSW_MASK_APB4    0xCF000000u
/* apreg mode drives DRW itself: Size[2:0] = 32 bits, AddrInc[5:4] =
 * single (spec/arm-pmu-coresight.md 7.3). */
#define CSW_SIZE32       0x2u
#define CSW_ADDRINC1     0x10u
#define CSW_SIZE_INC     0x37u

/* One line out of OpenOCD's multi-line log, for messages. */
void ocd_flatten(char *s)
{
    size_t n = strlen(s);

    while (n && (s[n - 1] == '\n' || s[n - 1] == ' '))
        s[--n] = '\0';
    /* One line for a message; any other control byte from the peer (an
     * escape sequence aimed at the terminal) becomes '?'. */
    for (char *p = s; *p; p++)
        if (*p == '\n' || *p == '\t')
            *p = ';';
        else if ((unsigned char)*p < 0x20 || *p == 0x7F)
            *p = '?';
}

/* Evaluates script; a TCL failure becomes PP_E_IO with its text in err. */
int ocd_eval_ok(struct ocd_bus *ob, const char *script, unsigned timeout_ms,
                   char **result, char *err, size_t errlen)
{
    struct pp_ocd_reply rep;
    int rc = pp_ocd_eval(ob->rpc, script, timeout_ms, &rep, err, errlen);

    if (rc != PP_OK)
        return rc;
    if (rep.code != 0) {
        ocd_flatten(rep.log);
        pp_errmsg(err, errlen, "OpenOCD: %s", *rep.log ? rep.log : rep.result);
        pp_ocd_reply_free(&rep);
        return PP_E_IO;
    }
    *result = rep.result;
    free(rep.log);
    return PP_OK;
}

struct ocd_target_info {
    char name[64], type[32], dap[64];
    int ap;                      /* -1 when it names none */
};

static int list_targets(struct ocd_bus *ob, struct ocd_target_info *tv, size_t max, size_t *nt,
                        char *err, size_t errlen)
{
    char *res, **rows;
    size_t nrows;
    int rc = ocd_eval_ok(ob, "set o {}; foreach t [target names] {set d {}; set a {}; "
                         "catch {set d [$t cget -dap]}; catch {set a [$t cget -ap-num]}; "
                         "lappend o [list $t [$t cget -type] $d $a]}; set o",
                     0, &res, err, errlen);

    *nt = 0;
    if (rc != PP_OK)
        return rc;
    if (pp_tcl_split(res, &rows, &nrows) != 0) {
        free(res);
        pp_errmsg(err, errlen, "OpenOCD's target list does not parse");
        return PP_E_PROTO;
    }
    for (size_t i = 0; i < nrows && *nt < max; i++) {
        char **f;
        size_t nf;
        uint32_t ap;

        if (pp_tcl_split(rows[i], &f, &nf) != 0 || nf != 4) {
            free(f);
            continue;
        }
        struct ocd_target_info *t = &tv[(*nt)++];
        snprintf(t->name, sizeof(t->name), "%s", f[0]);
        snprintf(t->type, sizeof(t->type), "%s", f[1]);
        snprintf(t->dap, sizeof(t->dap), "%s", f[2]);
        t->ap = pp_tcl_parse_u32(f[3], &ap) ? (int)ap : -1;
        free(f);
    }
    free(rows);
    free(res);
    return PP_OK;
}

/* IDRs of the APs in aps[0..n) of one DAP, in one request.  A failed read
 * gives 0 (no AP). */
static int read_idrs(struct ocd_bus *ob, const char *dap, const unsigned *aps, size_t n,
                     uint32_t *idr, char *err, size_t errlen)
{
    struct pp_tcl_buf b;
    char *res = NULL, **v;
    size_t nv;
    int rc;

    pp_tcl_init(&b);
    pp_tcl_raw(&b, "pmuprobe_rpc_apids");
    if (!pp_tcl_name(&b, dap)) {
        pp_tcl_free(&b);
        pp_errmsg(err, errlen, "DAP name '%s' is not a plain name", dap);
        return PP_E_INVAL;
    }
    pp_tcl_raw(&b, " {");
    for (size_t i = 0; i < n; i++)
        pp_tcl_uint(&b, aps[i]);
    pp_tcl_raw(&b, "}");
    rc = pp_tcl_str(&b) ? ocd_eval_ok(ob, pp_tcl_str(&b), 0, &res, err, errlen) : PP_E_NOMEM;
    pp_tcl_free(&b);
    if (rc != PP_OK)
        return rc;
    if (pp_tcl_split(res, &v, &nv) != 0 || nv != n) {
        if (nv != n)
            free(v);
        free(res);
        pp_errmsg(err, errlen, "OpenOCD's AP ID list does not parse");
        return PP_E_PROTO;
    }
    for (size_t i = 0; i < n; i++)
        if (!pp_tcl_parse_u32(v[i], &idr[i]))
            idr[i] = 0;
    free(v);
    free(res);
    return PP_OK;
}

static bool is_apb_ap(uint32_t idr)
{
    return IDR_CLASS(idr) == CLASS_MEM_AP && (IDR_TYPE(idr) == 2 || IDR_TYPE(idr) == 6);
}

/* An existing mem_ap target on an APB-AP; the one on the hinted AP wins. */
static int pick_existing(struct ocd_bus *ob, const struct ocd_target_info *tv, size_t nt,
                         char *err, size_t errlen)
{
    int best = -1;

    for (size_t i = 0; i < nt; i++) {
        uint32_t idr;
        unsigned ap;
        int rc;

        if (strcmp(tv[i].type, "mem_ap") != 0 || tv[i].ap < 0 || !pp_tcl_name_ok(tv[i].name)
            || !pp_tcl_name_ok(tv[i].dap))
            continue;
        if (ob->mem_ap[0] && strcmp(ob->mem_ap, tv[i].name) != 0)
            continue;
        ap = (unsigned)tv[i].ap;
        rc = read_idrs(ob, tv[i].dap, &ap, 1, &idr, err, errlen);
        if (rc != PP_OK)
            return rc;
        if (!is_apb_ap(idr))
            continue;
        if (best < 0 || tv[i].ap == ob->opts.ap_hint) {
            best = (int)i;
            snprintf(ob->at.target, sizeof(ob->at.target), "%s", tv[i].name);
            snprintf(ob->at.dap, sizeof(ob->at.dap), "%s", tv[i].dap);
            ob->at.ap = ap;
            ob->at.idr = idr;
        }
    }
    return best >= 0 ? PP_OK : PP_E_NOTFOUND;
}

/* Probes the hinted AP and APs 0..AP_SCAN-1 of every DAP. */
static int find_apb_ap(struct ocd_bus *ob, char *err, size_t errlen)
{
    char *res, **daps;
    size_t ndaps, skipped = 0;
    int rc = ocd_eval_ok(ob, "dap names", 0, &res, err, errlen);

    if (rc != PP_OK)
        return rc;
    if (pp_tcl_split(res, &daps, &ndaps) != 0) {
        free(res);
        pp_errmsg(err, errlen, "OpenOCD's DAP list does not parse");
        return PP_E_PROTO;
    }
    rc = PP_E_NOTFOUND;
    for (size_t d = 0; d < ndaps && rc == PP_E_NOTFOUND; d++) {
        unsigned aps[AP_SCAN + 1];
        uint32_t idr[AP_SCAN + 1];
        size_t n = 0;

        /* A name that is not plain never goes into a script, not even
         * quoted: it is skipped and counted for the message. */
        if (!pp_tcl_name_ok(daps[d])) {
            skipped++;
            continue;
        }
        if (ob->opts.ap_hint >= 0)
            aps[n++] = (unsigned)ob->opts.ap_hint;
        for (unsigned a = 0; a < AP_SCAN; a++)
            if ((int)a != ob->opts.ap_hint)
                aps[n++] = a;
        rc = read_idrs(ob, daps[d], aps, n, idr, err, errlen);
        if (rc != PP_OK)
            break;
        rc = PP_E_NOTFOUND;
        for (size_t i = 0; i < n; i++) {
            if (is_apb_ap(idr[i])) {
                snprintf(ob->at.dap, sizeof(ob->at.dap), "%s", daps[d]);
                ob->at.ap = aps[i];
                ob->at.idr = idr[i];
                rc = PP_OK;
                break;
            }
        }
    }
    if (rc == PP_E_NOTFOUND && skipped == ndaps && ndaps)
        pp_errmsg(err, errlen, "OpenOCD's DAP name%s not plain (letters, digits, '_', '.', '-'), "
                  "so pmuprobe does not use %s in TCL: rename the DAP or create a mem_ap "
                  "target with a plain name", ndaps > 1 ? "s are" : " is",
                  ndaps > 1 ? "them" : "it");
    else if (rc == PP_E_NOTFOUND)
        pp_errmsg(err, errlen, ndaps ? "no APB-AP found on OpenOCD's DAP(s) (looked at the "
                  "mem_ap targets and APs 0-%u)" : "OpenOCD has no DAP: its configuration "
                  "needs 'dap create' (and a JTAG or SWD target behind it)", AP_SCAN - 1);
    free(daps);
    free(res);
    return rc;
}

/*
 * The session has an APB-AP but no mem_ap target on it, as with OpenOCD's
 * stock target/zynq_7000.cfg and imx6.cfg.  pmuprobe cannot make one:
 * OpenOCD 0.12 refuses `target create` once init has run ("The 'target
 * create' command must be used before 'init'"), and its TCL port only
 * opens after init (spec/openocd.md 2.1).  So the AP's registers are used
 * directly (apreg mode, ocd_bus.c); only if that fails too is the user
 * told which line the config needs, with the DAP and AP just found.
 */
static int need_target(const struct ocd_bus *ob, const char *why, char *err, size_t errlen)
{
    pp_errmsg(err, errlen, "OpenOCD has an APB-AP (%s, AP %u) but no mem_ap target on it, and "
              "its registers through '%s apreg' do not work (%s); OpenOCD 0.12 refuses 'target "
              "create' after init: add this line to the OpenOCD config, before init: target "
              "create pmuprobe.apb mem_ap -dap %s -ap-num %u",
              ob->at.dap, ob->at.ap, ob->at.dap, why, ob->at.dap, ob->at.ap);
    return PP_E_NOTFOUND;
}

/* `<dap> apreg AP 0 [VALUE]` as one request; a read's value in *csw. */
static int apreg_csw(struct ocd_bus *ob, bool set, uint32_t val, uint32_t *csw, char *err,
                     size_t errlen)
{
    struct pp_tcl_buf b;
    char *res = NULL;
    int rc;

    pp_tcl_init(&b);
    if (set) {
        pp_tcl_name(&b, ob->at.dap);
        pp_tcl_raw(&b, " apreg");
        pp_tcl_uint(&b, ob->at.ap);
        pp_tcl_raw(&b, " 0");
        pp_tcl_u32(&b, val);
        pp_tcl_raw(&b, "; ");
    }
    pp_tcl_name(&b, ob->at.dap);
    pp_tcl_raw(&b, " apreg");
    pp_tcl_uint(&b, ob->at.ap);
    pp_tcl_raw(&b, " 0");
    rc = pp_tcl_str(&b) ? ocd_eval_ok(ob, pp_tcl_str(&b), 0, &res, err, errlen) : PP_E_NOMEM;
    pp_tcl_free(&b);
    if (rc != PP_OK)
        return rc;
    rc = pp_tcl_parse_u32(res, csw) ? PP_OK : PP_E_PROTO;
    if (rc != PP_OK) {
        char text[80];

        pp_escape(text, sizeof(text), res, 60);
        pp_errmsg(err, errlen, "unexpected apreg output from OpenOCD: %s", text);
    }
    free(res);
    return rc;
}

/*
 * apreg mode's CSW: Size 32 bits and AddrInc single for DRW runs, with
 * the Prot and DbgSwEnable bits as set_csw leaves them (spec 2.4,
 * arm-pmu-coresight 7.3).  Written here to see that the AP takes it
 * (AddrInc single is mandatory, Size 32 is what an APB-AP has), and again
 * by every batch, since OpenOCD's own targets on the AP rewrite it.
 */
static int apreg_setup(struct ocd_bus *ob, char *err, size_t errlen)
{
    uint32_t mask = IDR_TYPE(ob->at.idr) == 6 ? CSW_MASK_APB4 : CSW_MASK_APB, back;
    char why[256];
    int rc = apreg_csw(ob, false, 0, &ob->at.csw_before, why, sizeof(why));

    if (rc != PP_OK)
        return need_target(ob, why, err, errlen);
    ob->at.csw_after = (ob->at.csw_before & ~mask & 0xFF000000u) | CSW_DBGSWEN
                       | CSW_SIZE32 | CSW_ADDRINC1;
    rc = apreg_csw(ob, true, ob->at.csw_after, &back, why, sizeof(why));
    if (rc != PP_OK)
        return need_target(ob, why, err, errlen);
    if ((back & CSW_SIZE_INC) != (CSW_SIZE32 | CSW_ADDRINC1)) {
        snprintf(why, sizeof(why), "CSW 0x%08X written, 0x%08X read back: no 32-bit "
                 "auto-incrementing access", ob->at.csw_after, back);
        return need_target(ob, why, err, errlen);
    }
    ob->at.apreg = true;
    return PP_OK;
}

static int examine(struct ocd_bus *ob, char *err, size_t errlen)
{
    struct pp_tcl_buf b;
    char *res = NULL;
    int rc;

    pp_tcl_init(&b);
    pp_tcl_raw(&b, "if {![");
    pp_tcl_name(&b, ob->at.target);
    pp_tcl_raw(&b, " was_examined]} {");
    pp_tcl_name(&b, ob->at.target);
    pp_tcl_raw(&b, " arp_examine}; list");
    rc = pp_tcl_str(&b) ? ocd_eval_ok(ob, pp_tcl_str(&b), 0, &res, err, errlen) : PP_E_NOMEM;
    pp_tcl_free(&b);
    free(res);
    return rc;
}

/* `<dap> apcsw` acts on the DAP's selected AP (spec 2.3), which other
 * users rely on: select ours, read or change, select theirs again. */
static int csw_command(struct ocd_bus *ob, bool set, uint32_t val, uint32_t mask,
                       uint32_t *csw, char *err, size_t errlen)
{
    struct pp_tcl_buf b;
    char *res = NULL;
    const char *p;
    int rc;

    pp_tcl_init(&b);
    pp_tcl_raw(&b, "set s [string trim [");
    pp_tcl_name(&b, ob->at.dap);
    pp_tcl_raw(&b, " apsel]]; ");
    pp_tcl_name(&b, ob->at.dap);
    pp_tcl_raw(&b, " apsel");
    pp_tcl_uint(&b, ob->at.ap);
    pp_tcl_raw(&b, "; set r [catch {");
    if (set) {
        pp_tcl_name(&b, ob->at.dap);
        pp_tcl_raw(&b, " apcsw");
        pp_tcl_u32(&b, val);
        pp_tcl_u32(&b, mask);
        pp_tcl_raw(&b, "; ");
    }
    pp_tcl_name(&b, ob->at.dap);
    pp_tcl_raw(&b, " apcsw} v]; ");
    pp_tcl_name(&b, ob->at.dap);
    pp_tcl_raw(&b, " apsel $s; if {$r} {error $v}; set v");
    rc = pp_tcl_str(&b) ? ocd_eval_ok(ob, pp_tcl_str(&b), 0, &res, err, errlen) : PP_E_NOMEM;
    pp_tcl_free(&b);
    if (rc != PP_OK)
        return rc;
    /* "AP#0x1 selected, csw 0xa2000000" */
    p = strstr(res, "csw ");
    rc = p && pp_tcl_parse_u32(p + 4, csw) ? PP_OK : PP_E_PROTO;
    if (rc != PP_OK) {
        char text[80];

        pp_escape(text, sizeof(text), res, 60);
        pp_errmsg(err, errlen, "unexpected apcsw output from OpenOCD: %s", text);
    }
    free(res);
    return rc;
}

static int set_csw(struct ocd_bus *ob, char *err, size_t errlen)
{
    uint32_t mask = IDR_TYPE(ob->at.idr) == 6 ? CSW_MASK_APB4 : CSW_MASK_APB;
    int rc = csw_command(ob, false, 0, 0, &ob->at.csw_before, err, errlen);

    if (rc != PP_OK)
        return rc;
    ob->at.csw_after = ob->at.csw_before;
    if ((ob->at.csw_before & mask) == CSW_DBGSWEN)
        return PP_OK;
    return csw_command(ob, true, CSW_DBGSWEN, mask, &ob->at.csw_after, err, errlen);
}

/* BASE points discovery at the ROM table (spec/arm-pmu-coresight.md 6.1;
 * `<dap> baseaddr AP` prints it, spec/openocd.md 2.3).  A failure only
 * leaves it unknown: a target file gives the ROM table instead. */
static void read_base(struct ocd_bus *ob)
{
    struct pp_tcl_buf b;
    char *res = NULL, err[128];

    pp_tcl_init(&b);
    pp_tcl_name(&b, ob->at.dap);
    pp_tcl_raw(&b, " baseaddr");
    pp_tcl_uint(&b, ob->at.ap);
    if (pp_tcl_str(&b) && ocd_eval_ok(ob, pp_tcl_str(&b), 0, &res, err, sizeof(err)) == PP_OK)
        ob->at.base_known = pp_tcl_parse_u32(res, &ob->at.base);
    pp_tcl_free(&b);
    free(res);
}

static int check_version(struct ocd_bus *ob, char *err, size_t errlen)
{
    char *res;
    int rc = ocd_eval_ok(ob, "version", 0, &res, err, errlen);

    if (rc != PP_OK)
        return rc;
    ocd_flatten(res);
    pp_escape(ob->at.version, sizeof(ob->at.version), res, strlen(res));
    rc = strstr(res, "Open On-Chip Debugger") ? PP_OK : PP_E_PROTO;
    if (rc != PP_OK)
        pp_errmsg(err, errlen, "%s does not look like OpenOCD (version: %.60s)",
                  pp_ocd_peer(ob->rpc), ob->at.version);
    free(res);
    return rc;
}

/* --- the cost model of a read block's unrequested words ------------- */

/* Adapters whose driver clocks the JTAG pins itself, each DR scan a
 * blocking exchange (remote_bitbang: spec/openocd.md 1.2, 5.2) or a local
 * GPIO toggle: no USB round trip to save. */
static bool bitbang_adapter(const char *name)
{
    static const char *const names[] = { "remote_bitbang", "sysfsgpio", "linuxgpiod",
                                         "bcm2835gpio", "imx_gpio", "am335xgpio", "dummy" };

    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
        if (strcmp(name, names[i]) == 0)
            return true;
    return false;
}

/* The first unsigned number in text ("adapter speed: 30000 kHz",
 * "memory bus access delay set to 0 tck"); false when there is none. */
static bool first_number(const char *text, unsigned *v)
{
    unsigned long x;

    while (*text && (*text < '0' || *text > '9'))
        text++;
    if (!*text)
        return false;
    x = strtoul(text, NULL, 10);
    if (x > 0xFFFFFFFFul)
        return false;
    *v = (unsigned)x;
    return true;
}

/*
 * How many unrequested words a read block may cover to save one OpenOCD
 * command.  A command (read_memory, write_memory, dpreg) is one DAP run:
 * its queued scans, then the CTRL/STAT end check, two queue executions
 * (spec/openocd.md 5.1, 5.2); on a USB adapter each is at least one bulk
 * round trip, two 125 us microframes on a high-speed FT2232H: 500 us a
 * command.  A word more in a block costs one APACC scan, 40 TCK from Idle
 * plus the DAP's memaccess (spec 2.4, 5.2).  On remote_bitbang every DR
 * scan is a round trip and a new command costs about four scans more
 * than its words (spec 5.2: a warm one-word read_memory is 4 DR scans,
 * the next word of a block 1): three words.  In apreg mode a gap word is
 * a DRW access of its own and a new block a TAR write: one.  Unknown
 * speed: as remote_bitbang.  Capped at a 1 KB TAR window.
 */
#define CMD_US          500u
#define SCAN_TCK        40u
#define BITBANG_GAP     3u
#define WINDOW_WORDS    256u

static unsigned gap_words_max(const struct ocd_bus *ob)
{
    const struct pp_ocd_attach *at = &ob->at;
    unsigned long words;

    if (!ob->opts.cover_gap_words)
        return 0;
    if (at->apreg)
        return 1;
    if (!at->adapter_khz || bitbang_adapter(at->adapter))
        return BITBANG_GAP;
    words = (unsigned long)CMD_US * at->adapter_khz / (1000ul * (SCAN_TCK + at->memaccess));
    if (words < 1)
        return 1;
    return words > WINDOW_WORDS - 2 ? WINDOW_WORDS - 2 : (unsigned)words;
}

/* Asks OpenOCD which adapter it drives, how fast, and the DAP's memaccess
 * (spec/openocd.md 2.4).  `adapter speed` is not asked of bitbang drivers,
 * which log an error for it.  Nothing here fails the attach: what does not
 * answer leaves the model at its bitbang default. */
static void read_adapter(struct ocd_bus *ob)
{
    struct pp_tcl_buf b;
    char *res = NULL, err[128], **v = NULL;
    size_t n = 0;

    pp_tcl_init(&b);
    pp_tcl_raw(&b, "set n {}; set k {}; set m {}; catch {set n [adapter name]}; "
                   "if {[lsearch -exact {remote_bitbang sysfsgpio linuxgpiod bcm2835gpio "
                   "imx_gpio am335xgpio dummy} $n] < 0} {catch {set k [capture {adapter speed}]}}; "
                   "catch {set m [capture {");
    pp_tcl_name(&b, ob->at.dap);
    pp_tcl_raw(&b, " memaccess}]}; list $n $k $m");
    if (pp_tcl_str(&b) && ocd_eval_ok(ob, pp_tcl_str(&b), 0, &res, err, sizeof(err)) == PP_OK
        && pp_tcl_split(res, &v, &n) == 0 && n == 3) {
        if (pp_tcl_name_ok(v[0]) && strlen(v[0]) < sizeof(ob->at.adapter))
            snprintf(ob->at.adapter, sizeof(ob->at.adapter), "%s", v[0]);
        if (!first_number(v[1], &ob->at.adapter_khz))
            ob->at.adapter_khz = 0;
        if (!first_number(v[2], &ob->at.memaccess))
            ob->at.memaccess = 0;
    }
    free(v);
    free(res);
    pp_tcl_free(&b);
    ob->at.gap_words_max = gap_words_max(ob);
}

#define MAX_TARGETS 64

/* The overrun guard and the batch procs that call it, in one request. */
int ocd_define_procs(struct ocd_bus *ob, char *err, size_t errlen)
{
    struct pp_tcl_buf b;
    char *res = NULL;
    int rc;

    pp_tcl_init(&b);
    pp_tcl_raw(&b, pp_ocd_overrun_tcl);
    pp_tcl_raw(&b, ocd_procs_tcl);
    rc = pp_tcl_str(&b) ? ocd_eval_ok(ob, pp_tcl_str(&b), 0, &res, err, errlen) : PP_E_NOMEM;
    pp_tcl_free(&b);
    free(res);
    return rc;
}

/* The whole attach: also run again after a reconnect, when OpenOCD may
 * have been restarted and lost what we set up. */
int ocd_attach(struct ocd_bus *ob, char *err, size_t errlen)
{
    struct ocd_target_info *tv = calloc(MAX_TARGETS, sizeof(*tv));
    size_t nt;
    int rc;

    if (!tv)
        return PP_E_NOMEM;
    memset(&ob->at, 0, sizeof(ob->at));
    rc = check_version(ob, err, errlen);
    if (rc == PP_OK)
        rc = ocd_define_procs(ob, err, errlen);
    if (rc == PP_OK)
        rc = list_targets(ob, tv, MAX_TARGETS, &nt, err, errlen);
    if (rc == PP_OK)
        rc = pick_existing(ob, tv, nt, err, errlen);
    if (rc == PP_E_NOTFOUND && ob->mem_ap[0]) {
        pp_errmsg(err, errlen, "OpenOCD has no mem_ap target '%s' on an APB-AP", ob->mem_ap);
    } else if (rc == PP_E_NOTFOUND) {
        rc = find_apb_ap(ob, err, errlen);
        if (rc == PP_OK)
            rc = apreg_setup(ob, err, errlen);
    }
    free(tv);
    if (rc == PP_OK && !ob->at.apreg)
        rc = examine(ob, err, errlen);
    if (rc == PP_OK && !ob->at.apreg)
        rc = set_csw(ob, err, errlen);
    if (rc == PP_OK) {
        read_base(ob);
        read_adapter(ob);
    }
    return rc;
}
