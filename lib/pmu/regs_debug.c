/*
 * regs_debug.c - the external debug block register maps as const data.
 *
 * Armv8: spec/arm-pmu-coresight.md 3 (offsets, domains, conditions) and
 * 3.1-3.5 (fields).  Armv7: spec 4.3.  Flags follow the condition columns of
 * spec 3: Domain Core with Off -> Error gives PP_REGF_CORE, OSLK Error gives
 * PP_REGF_OSLK.  EDPRSR/EDPRCR live in both domains and stay readable with
 * the core off, so they carry no PP_REGF_CORE.
 */
#include <stddef.h>

#include "pmu/regs_fields.h"

#define DBG_GATED (PP_REGF_CORE | PP_REGF_OSLK)

#define REG(...)  REG_IN(PP_BLK_DEBUG, __VA_ARGS__)
#define REG0(...) REG0_IN(PP_BLK_DEBUG, __VA_ARGS__)

/* --- fields shared by both architectures ------------------------------- */

static const struct pp_field f_midr[] = {
    { "Implementer",  24, 8,  "implementer code" },
    { "Variant",      20, 4,  "major revision" },
    { "Architecture", 16, 4,  "architecture code" },
    { "PartNum",      4,  12, "primary part number" },
    { "Revision",     0,  4,  "minor revision" },
};

/* EDDEVARCH: the PMU's field layout, but ARCHVER here is the version of
 * the debug architecture (0b0110 v8.0 ... 0b1000 v8.2, spec 3.5). */
static const struct pp_field f_devarch[] = {
    { "ARCHITECT", 21, 11, "architect JEP106 code" },
    { "PRESENT",   20, 1,  "DEVARCH present" },
    { "REVISION",  16, 4,  "architecture revision" },
    { "ARCHVER",   12, 4,  "debug architecture version" },
    { "ARCHPART",  0,  12, "architecture part" },
};

#define DBG_ID_REGS(p) CS_ID_REGS(PP_BLK_DEBUG, p)

/* --- Armv8 ------------------------------------------------------------- */

/* EDESR/EDECR: Arm ARM H9.2 (not copied into the spec; layout UNCONFIRMED
 * there). */
static const struct pp_field f_edesr[] = {
    { "SS",   2, 1, "halting step debug event pending" },
    { "RC",   1, 1, "reset catch debug event pending" },
    { "OSUC", 0, 1, "OS unlock catch debug event pending" },
};
static const struct pp_field f_edecr[] = {
    { "SS",    2, 1, "halting step enable" },
    { "RCE",   1, 1, "reset catch enable" },
    { "OSUCE", 0, 1, "OS unlock catch enable" },
};

/* spec 3.3 EDSCR. */
static const struct pp_field f_edscr[] = {
    { "TFO",     31, 1, "trace filter override" },
    { "RXfull",  30, 1, "DTRRX full" },
    { "TXfull",  29, 1, "DTRTX full" },
    { "ITO",     28, 1, "ITR overrun" },
    { "RXO",     27, 1, "DTRRX overrun" },
    { "TXU",     26, 1, "DTRTX underrun" },
    { "PipeAdv", 25, 1, "pipeline advanced" },
    { "ITE",     24, 1, "ITR empty" },
    { "INTdis",  22, 2, "interrupt disable in Debug state" },
    { "TDA",     21, 1, "trap debug register accesses" },
    { "MA",      20, 1, "memory access mode" },
    { "SC2",     19, 1, "sample CONTEXTIDR_EL2 in EDPCSR" },
    { "NS",      18, 1, "non-secure state" },
    { "SDD",     16, 1, "secure debug disabled" },
    { "NSE",     15, 1, "security state extension (RME)" },
    { "HDE",     14, 1, "halting debug enable" },
    { "RW",      10, 4, "AArch64 (1) / AArch32 (0) per EL" },
    { "EL",      8,  2, "exception level in Debug state" },
    { "A",       7,  1, "SError pending" },
    { "ERR",     6,  1, "cumulative error flag" },
    { "STATUS",  0,  6, "debug status" },
};

static const struct pp_field f_oslar[] = {
    { "OSLK", 0, 1, "write: new OS Lock value (0 unlocks)" },
};

/* spec 3.2 EDPRCR. */
static const struct pp_field f_edprcr[] = {
    { "COREPURQ",  3, 1, "core power-up request" },
    { "CWRR",      1, 1, "write 1: warm reset request" },
    { "CORENPDRQ", 0, 1, "emulate powerdown instead of removing power" },
};

/* spec 3.1 EDPRSR: every field; the sticky ones clear on read. */
static const struct pp_field f_edprsr[] = {
    { "EPMADE", 16, 1, "PMU access disable extension (RME)" },
    { "ETADE",  15, 1, "trace access disable extension (RME)" },
    { "EDADE",  14, 1, "debug access disable extension (RME)" },
    { "STAD",   13, 1, "sticky: trace access refused" },
    { "ETAD",   12, 1, "external trace access disabled" },
    { "SDR",    11, 1, "sticky: left Debug state" },
    { "SPMAD",  10, 1, "sticky: PMU access refused (EPMAD)" },
    { "EPMAD",  9,  1, "external PMU access disabled" },
    { "SDAD",   8,  1, "sticky: debug access refused (EDAD)" },
    { "EDAD",   7,  1, "external debug access disabled" },
    { "DLK",    6,  1, "OS double lock set" },
    { "OSLK",   5,  1, "OS lock set" },
    { "HALTED", 4,  1, "core in Debug state" },
    { "SR",     3,  1, "sticky: reset since last read" },
    { "R",      2,  1, "core in reset" },
    { "SPD",    1,  1, "sticky: core powered down since last read" },
    { "PU",     0,  1, "core powered up" },
};

static const struct pp_field f_claim[] = {
    { "CLAIM", 0, 8, "claim tags" },
};

/* EDDEVID.PCSample: Arm ARM H9.2 (UNCONFIRMED in the spec). */
static const struct pp_field f_eddevid[] = {
    { "PCSample", 0, 4, "PC sample registers in the debug block" },
};

static const struct pp_reg debug_v8[] = {
    REG("EDESR",       0x020, PP_RW, PP_REGF_CORE, f_edesr, "debug event status"),
    REG("EDECR",       0x024, PP_RW, 0, f_edecr, "debug event control"),
    REG("EDSCR",       0x088, PP_RW, DBG_GATED, f_edscr, "debug status and control"),
    REG0("EDPCSR",     0x0A0, PP_RO, DBG_GATED | PP_REGF_READCLEAR,
         "sampled PC, low word (v8.0 PC sampling); a read takes a sample"),
    /* Not blocked by the OS Lock: it is how a debugger clears it (3.4). */
    REG("OSLAR",       0x300, PP_WO, PP_REGF_CORE, f_oslar,
        "OS lock access: write 0 to clear the OS Lock"),
    REG("EDPRCR",      0x310, PP_RW, 0, f_edprcr, "power and reset control"),
    REG("EDPRSR",      0x314, PP_RO, PP_REGF_READCLEAR, f_edprsr,
        "power and reset status; a read clears the sticky bits"),
    REG("MIDR",        0xD00, PP_RO, 0, f_midr, "main ID of the core"),
    REG("DBGCLAIMSET", 0xFA0, PP_RW, DBG_GATED, f_claim, "claim tags (write 1 to set)"),
    REG("DBGCLAIMCLR", 0xFA4, PP_RW, DBG_GATED, f_claim, "claim tags (write 1 to clear)"),
    REG("EDDEVAFF0",   0xFA8, PP_RO, 0, pp_f_devaff0, "MPIDR_EL1[31:0] of the core"),
    REG("EDDEVAFF1",   0xFAC, PP_RO, 0, pp_f_devaff1, "MPIDR_EL1[63:32] of the core"),
    REG0("EDLAR",      0xFB0, PP_WO, 0, "software lock: write 0xC5ACCE55 to unlock"),
    REG("EDLSR",       0xFB4, PP_RO, 0, pp_f_lsr, "software lock status"),
    REG("DBGAUTHSTATUS", 0xFB8, PP_RO, 0, pp_f_authstatus, "authentication status"),
    REG("EDDEVARCH",   0xFBC, PP_RO, 0, f_devarch, "device architecture (0x47706A15 on v8.0)"),
    REG("EDDEVID",     0xFC8, PP_RO, 0, f_eddevid, "device ID"),
    REG("EDDEVTYPE",   0xFCC, PP_RO, 0, pp_f_devtype, "device type (0x15)"),
    DBG_ID_REGS("ED"),
};

/* --- Armv7 ------------------------------------------------------------- */

/* DBGDIDR: Armv7 ARM C11.11 layout (not in the spec; UNCONFIRMED there). */
static const struct pp_field f_dbgdidr[] = {
    { "WRPs",      28, 4, "watchpoints minus one" },
    { "BRPs",      24, 4, "breakpoints minus one" },
    { "CTX_CMPs",  20, 4, "context-matching breakpoints minus one" },
    { "Version",   16, 4, "debug architecture version" },
    { "DEVID_imp", 15, 1, "DBGDEVID implemented" },
    { "nSUHD_imp", 14, 1, "secure user halting debug not implemented" },
    { "PCSR_imp",  13, 1, "DBGPCSR at 0x084 implemented" },
    { "SE_imp",    12, 1, "security extensions implemented" },
    { "Variant",   4,  4, "implementation variant" },
    { "Revision",  0,  4, "implementation revision" },
};

/* spec 4.3 DBGDSCRext. */
static const struct pp_field f_dbgdscr[] = {
    { "RXfull",    30, 1, "DBGDTRRX full" },
    { "TXfull",    29, 1, "DBGDTRTX full" },
    { "NS",        18, 1, "non-secure state" },
    { "SPNIDdis",  17, 1, "secure non-invasive debug disabled" },
    { "SPIDdis",   16, 1, "secure invasive debug disabled" },
    { "MDBGen",    15, 1, "monitor debug mode enable" },
    { "HDBGen",    14, 1, "halting debug mode enable" },
    { "ITRen",     13, 1, "instruction transfer enable" },
    { "UND_l",     8,  1, "sticky undefined instruction" },
    { "ADABORT_l", 7,  1, "sticky asynchronous abort" },
    { "SDABORT_l", 6,  1, "sticky synchronous abort" },
    { "MOE",       2,  4, "method of debug entry" },
    { "RESTARTED", 1,  1, "core restarted" },
    { "HALTED",    0,  1, "core in Debug state" },
};

static const struct pp_field f_dbgoslsr[] = {
    { "OSLM1", 3, 1, "OS lock model, high bit" },
    { "nTT",   2, 1, "not 32-bit access required (RAZ)" },
    { "OSLK",  1, 1, "OS lock set" },
    { "OSLM0", 0, 1, "OS lock model, low bit" },
};

static const struct pp_field f_dbgprcr[] = {
    { "COREPURQ",  3, 1, "core power-up request (v7.1)" },
    { "HCWR",      2, 1, "hold the core in warm reset" },
    { "CWRR",      1, 1, "write 1: warm reset request" },
    { "CORENPDRQ", 0, 1, "emulate powerdown instead of removing power" },
};

static const struct pp_field f_dbgprsr[] = {
    { "DLK",    6, 1, "OS double lock set (v7.1)" },
    { "OSLK",   5, 1, "OS lock set (v7.1)" },
    { "HALTED", 4, 1, "core in Debug state (v7.1)" },
    { "SR",     3, 1, "sticky: reset since last read" },
    { "R",      2, 1, "core in reset" },
    { "SPD",    1, 1, "sticky: core powered down since last read" },
    { "PU",     0, 1, "core powered up" },
};

static const struct pp_reg debug_v7[] = {
    REG("DBGDIDR",     0x000, PP_RO, 0, f_dbgdidr, "debug ID"),
    REG("DBGDSCRext",  0x088, PP_RW, DBG_GATED, f_dbgdscr, "debug status and control (external view)"),
    /* Key semantics differ from Armv8 OSLAR (spec 3.4 vs 4.3). */
    REG0("DBGOSLAR",   0x300, PP_WO, PP_REGF_CORE,
         "OS lock access: 0xC5ACCE55 locks, any other value unlocks"),
    REG("DBGOSLSR",    0x304, PP_RO, PP_REGF_CORE, f_dbgoslsr, "OS lock status"),
    REG("DBGPRCR",     0x310, PP_RW, 0, f_dbgprcr, "power and reset control"),
    REG("DBGPRSR",     0x314, PP_RO, PP_REGF_READCLEAR, f_dbgprsr,
        "power and reset status; a read clears the sticky bits"),
    REG("MIDR",        0xD00, PP_RO, 0, f_midr, "main ID of the core"),
    REG0("DBGLAR",     0xFB0, PP_WO, 0, "software lock: write 0xC5ACCE55 to unlock"),
    REG("DBGLSR",      0xFB4, PP_RO, 0, pp_f_lsr, "software lock status"),
    REG("DBGAUTHSTATUS", 0xFB8, PP_RO, 0, pp_f_authstatus, "authentication status"),
    /* 0x15 by analogy with EDDEVTYPE: UNCONFIRMED for v7 cores (spec 4.3). */
    REG("DBGDEVTYPE",  0xFCC, PP_RO, 0, pp_f_devtype, "device type"),
    DBG_ID_REGS("DBG"),
};

const struct pp_reg *pp_regs_debug(enum pp_arch arch, size_t *n)
{
    if (arch == PP_ARCH_V7) {
        *n = NELEM(debug_v7);
        return debug_v7;
    }
    *n = NELEM(debug_v8);
    return debug_v8;
}
