/*
 * debug.c - the external debug block of a simulated core: the Armv8 view
 * (spec 3) and the Armv7 view (spec 4.3).
 *
 * Access conditions follow spec 3's table (no FEAT_DoPD): EDPRSR, EDPRCR
 * and the management registers (0xF00-0xFFC) are in the debug domain and
 * answer with the core off; the rest are core-domain registers.  Reserved
 * offsets read 0 and ignore writes while the core domain is reachable and
 * answer with an error when it is not (the same policy as the PMU block).
 */
#include "pmu/regs.h"
#include "sim/sim_internal.h"

#define EDPRCR_CORENPDRQ (1u << 0)
#define EDPRCR_COREPURQ  (1u << 3)
#define OSLAR_V7_KEY     0xC5ACCE55u
#define EDDEVTYPE        0x15u
#define DBG_DBGDIDR      0x000u     /* Armv7 */
#define DBG_EDDFR        0xD28u     /* Armv8; [63:32] at 0xD2C reads 0 */

/* Writable EDSCR bits we keep: HDE[14], SC2[19], MA[20], TDA[21],
 * INTdis[23:22].  DBGDSCRext: ITRen[13], HDBGen[14], MDBGen[15]. */
#define EDSCR_RW_V8 0x00F84000u
#define DSCR_RW_V7  0x0000E000u

enum dgate { D_OFF, D_OFF_DLK, D_OFF_DLK_OSLK };

static int dgate(const struct sim_core *c, enum dgate g)
{
    if (!c->powered)
        return PP_OP_SLVERR;
    if (g >= D_OFF_DLK && sim_core_dlk(c))
        return PP_OP_SLVERR;
    if (g >= D_OFF_DLK_OSLK && c->oslock)
        return PP_OP_SLVERR;
    return PP_OP_OK;
}

static bool v8(const struct sim_core *c)
{
    return c->type->arch != PP_ARCH_V7;
}

/* EDSCR (spec 3.3): STATUS 0x13 halted (external debug request), 0x02
 * running; RW[13:10] = 0b1111 (AArch64 at all ELs); SDD[16] when Secure
 * invasive debug is disabled; NS[18] (the workload runs Non-secure). */
static uint32_t edscr(const struct sim_core *c)
{
    uint32_t v = (c->halted ? 0x13u : 0x02u) | 0xFu << 10 | 1u << 18 | c->dscr_rw;

    if (!((c->auth & PP_AUTH_DBGEN) && (c->auth & PP_AUTH_SPIDEN)))
        v |= 1u << 16;
    return v;
}

/* DBGDSCRext (spec 4.3): HALTED[0], RESTARTED[1], SPIDdis[16],
 * SPNIDdis[17], NS[18]. */
static uint32_t dbgdscr(const struct sim_core *c)
{
    uint32_t v = (c->halted ? 1u : 2u) | 1u << 18 | c->dscr_rw;

    if (!((c->auth & PP_AUTH_DBGEN) && (c->auth & PP_AUTH_SPIDEN)))
        v |= 1u << 16;
    if (!(c->auth & (PP_AUTH_SPIDEN | PP_AUTH_SPNIDEN)))
        v |= 1u << 17;
    return v;
}

/* CORENPDRQ is a core-domain bit: RAZ/WI when off, locked (spec 3.2). */
static bool core_bits_ok(const struct sim_core *c)
{
    return dgate(c, D_OFF_DLK_OSLK) == PP_OP_OK;
}

static bool has_corepurq(const struct sim_core *c)
{
    return v8(c) || c->v71;
}

static uint32_t edprcr_read(const struct sim_core *c)
{
    uint32_t v = c->edprcr & EDPRCR_COREPURQ;

    if (core_bits_ok(c))
        v |= c->edprcr & EDPRCR_CORENPDRQ;
    return v;
}

/* COREPURQ=1 on a powered-down core powers it up: a Cold reset of the
 * core domain (spec 3.2, 2.7). */
static void edprcr_write(struct pp_sim *sim, struct sim_core *c, uint32_t w)
{
    if (has_corepurq(c)) {
        if (w & EDPRCR_COREPURQ) {
            c->edprcr |= EDPRCR_COREPURQ;
            sim_core_set_power(c, true, sim_now(sim));
        } else {
            c->edprcr &= ~EDPRCR_COREPURQ;
        }
    }
    if (core_bits_ok(c))
        c->edprcr = (c->edprcr & ~EDPRCR_CORENPDRQ) | (w & EDPRCR_CORENPDRQ);
}

/*
 * EDDFR[31:0] at 0xD28 (Arm ARM H9.2.24): CTX_CMPs[31:28], WRPs[23:20],
 * BRPs[15:12], PMUVer[11:8], TraceVer[7:4], the counts minus one.  Every
 * Armv8 core type here has 6 breakpoints, 4 watchpoints and 2
 * context-aware breakpoints: ID_AA64DFR0_EL1 = 0x10305106 in the Cortex-A53
 * (DDI0500) and A72 (100095) TRMs, 0x10305408 in the A55 (100442) and A76
 * (100798) ones; the A35 TRM (100236 C6.4) gives the same counts.  PMUVer 1
 * is PMUv3, 4 PMUv3p1 (the Armv8.2 cores); TraceVer 0: their ETMs have no
 * System register interface.  EDDFR[63:32] (0xD2C) reads 0.
 */
static uint32_t eddfr(const struct sim_core *c)
{
    uint32_t pmuver = c->type->pmuv3p1 ? 4u : 1u;

    return 1u << 28 | 3u << 20 | 5u << 12 | pmuver << 8;
}

/*
 * Armv7.1 DBGDIDR at 0x000 (Cortex-A15 TRM DDI0438C Table 10.2, Cortex-A7
 * TRM DDI0464F DBGDIDR): WRPs[31:28] = 3 (4 watchpoints), BRPs[27:24] = 5
 * (6 breakpoints), CTX_CMPs[23:20] = 1 (2), Version[19:16] = 0b0101
 * (v7.1), DEVID_imp, nSUHD_imp, PCSR_imp and SE_imp set, then the MIDR's
 * variant and revision.  The Cortex-A9 (v7.0) is not modelled: reads 0.
 */
static uint32_t dbgdidr(const struct sim_core *c)
{
    if (!c->v71)
        return 0;
    return 3u << 28 | 5u << 24 | 1u << 20 | 5u << 16 | 0xFu << 12 |
           (uint32_t)c->type->variant << 4 | c->type->revision;
}

static uint32_t mgmt_read(const struct sim_core *c, uint32_t off)
{
    uint32_t v = 0;

    if (sim_id_read(c->type->debug_part, 0x9, off, &v))
        return v;
    switch (off) {
    case PP_DBG_EDDEVAFF0:      return (uint32_t)sim_core_devaff(c);
    case PP_DBG_EDDEVAFF0 + 4:  return (uint32_t)(sim_core_devaff(c) >> 32);
    case PP_DBG_AUTHSTATUS:     return sim_core_authstatus(c);
    case PP_DBG_EDDEVARCH:      return c->type->debug_devarch;  /* 0 on Armv7 */
    case 0xFCC:                 return EDDEVTYPE;   /* Armv7: UNCONFIRMED (spec 4.3) */
    default:                    return 0;           /* EDLSR 0 for DAP accesses */
    }
}

static int reserved(const struct sim_core *c)
{
    return dgate(c, D_OFF_DLK);
}

static uint32_t oslsr_v7(const struct sim_core *c)
{
    /* OSLM: 0b10 (bit 3) on v7.1, 0b01 (bit 0) on v7.0; OSLK[1]. */
    return (c->v71 ? 1u << 3 : 1u) | (c->oslock ? 1u << 1 : 0u);
}

int sim_debug_read(struct pp_sim *sim, struct sim_core *c, uint32_t off, uint32_t *val)
{
    int rc = PP_OP_OK;

    (void)sim;
    *val = 0;
    if (off >= 0xF00 && off != PP_DBG_CLAIMSET && off != PP_DBG_CLAIMCLR) {
        *val = mgmt_read(c, off);
        return PP_OP_OK;
    }
    switch (off) {
    case PP_DBG_EDSCR:
        if ((rc = dgate(c, D_OFF_DLK_OSLK)) == PP_OP_OK)
            *val = v8(c) ? edscr(c) : dbgdscr(c);
        return rc;
    case PP_DBG_OSLAR:                  /* write-only: reads 0 */
        return dgate(c, D_OFF_DLK);
    case PP_DBG_OSLSR_V7:
        if (v8(c))
            return reserved(c);
        if ((rc = dgate(c, D_OFF_DLK)) == PP_OP_OK)
            *val = oslsr_v7(c);
        return rc;
    case PP_DBG_EDPRCR:
        *val = edprcr_read(c);
        return PP_OP_OK;
    case PP_DBG_EDPRSR:
        *val = sim_core_edprsr(c);
        return PP_OP_OK;
    case PP_DBG_MIDR:
        if ((rc = dgate(c, D_OFF)) == PP_OP_OK)
            *val = c->desc->sim.midr_set ? c->desc->sim.midr : pp_core_type_midr(c->type);
        return rc;
    case PP_DBG_CLAIMSET:
        if ((rc = dgate(c, D_OFF_DLK_OSLK)) == PP_OP_OK)
            *val = 0xFFu;               /* eight claim tags implemented */
        return rc;
    case DBG_DBGDIDR:                   /* Armv7: debug domain, like DBGPRSR */
        if (v8(c))
            return reserved(c);
        *val = dbgdidr(c);
        return PP_OP_OK;
    case DBG_EDDFR:                     /* RO when powered and not double-locked */
        if ((rc = reserved(c)) == PP_OP_OK && v8(c))
            *val = eddfr(c);
        return rc;
    case PP_DBG_CLAIMCLR:
        if ((rc = dgate(c, D_OFF_DLK_OSLK)) == PP_OP_OK)
            *val = c->claim;
        return rc;
    default:
        return reserved(c);
    }
}

/*
 * OS lock from the debugger (spec 3.4, 4.3).  Armv8 OSLAR_EL1: bit 0 is
 * copied to the lock; from Armv8.2 the write errors (and sets EDPRSR.SDAD)
 * when AllowExternalDebugAccess() is FALSE, i.e. DBGEN low.  Armv7
 * DBGOSLAR: the key 0xC5ACCE55 locks, any other value unlocks.
 */
static int oslar_write(struct sim_core *c, uint32_t w)
{
    int rc = dgate(c, D_OFF_DLK);

    if (rc != PP_OP_OK)
        return rc;
    if (!v8(c)) {
        c->oslock = w == OSLAR_V7_KEY;
        return PP_OP_OK;
    }
    if (c->type->arch == PP_ARCH_V8_2 && !(c->auth & PP_AUTH_DBGEN)) {
        c->sticky |= PP_EDPRSR_SDAD;
        return PP_OP_SLVERR;
    }
    c->oslock = (w & 1u) != 0;
    return PP_OP_OK;
}

int sim_debug_write(struct pp_sim *sim, struct sim_core *c, uint32_t off, uint32_t val)
{
    int rc;

    if (off >= 0xF00 && off != PP_DBG_CLAIMSET && off != PP_DBG_CLAIMCLR)
        return PP_OP_OK;        /* EDLAR etc.: no effect for DAP accesses */
    switch (off) {
    case PP_DBG_EDSCR:
        if ((rc = dgate(c, D_OFF_DLK_OSLK)) == PP_OP_OK)
            c->dscr_rw = val & (v8(c) ? EDSCR_RW_V8 : DSCR_RW_V7);
        return rc;
    case PP_DBG_OSLAR:
        return oslar_write(c, val);
    case PP_DBG_EDPRCR:
        edprcr_write(sim, c, val);
        return PP_OP_OK;
    case PP_DBG_EDPRSR:
        return PP_OP_OK;
    case PP_DBG_MIDR:
        return dgate(c, D_OFF);
    case PP_DBG_CLAIMSET:
    case PP_DBG_CLAIMCLR:
        if ((rc = dgate(c, D_OFF_DLK_OSLK)) != PP_OP_OK)
            return rc;
        if (off == PP_DBG_CLAIMSET)
            c->claim |= val & 0xFFu;
        else
            c->claim &= ~val;
        return PP_OP_OK;
    default:
        return reserved(c);
    }
}
