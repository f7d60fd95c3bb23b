/*
 * regs_fields.c - fields of the CoreSight management registers, shared by
 * the PMU and debug maps.  spec/arm-pmu-coresight.md 1.3, 3.5, 5.2, 5.3.
 */
#include "pmu/regs_fields.h"

const struct pp_field pp_f_lsr[3] = {
    { "nTT", 2, 1, "not 32-bit access required (RAZ)" },
    { "SLK", 1, 1, "software lock locked (memory-mapped view only)" },
    { "SLI", 0, 1, "software lock implemented (memory-mapped view only)" },
};

/* 0b00 not implemented, 0b10 disabled, 0b11 enabled (decoded in regs.c);
 * the PMU has no invasive debug, so its NSID/SID read 0b00. */
const struct pp_field pp_f_authstatus[4] = {
    { "SNID",  6, 2, "secure non-invasive debug" },
    { "SID",   4, 2, "secure invasive debug" },
    { "NSNID", 2, 2, "non-secure non-invasive debug" },
    { "NSID",  0, 2, "non-secure invasive debug" },
};

const struct pp_field pp_f_devtype[2] = {
    { "SUB",   4, 4, "sub-type" },
    { "MAJOR", 0, 4, "major type" },
};

const struct pp_field pp_f_devaff0[5] = {
    { "U",    30, 1, "uniprocessor" },
    { "MT",   24, 1, "multithreaded affinity" },
    { "Aff2", 16, 8, "affinity level 2" },
    { "Aff1", 8,  8, "affinity level 1" },
    { "Aff0", 0,  8, "affinity level 0" },
};
const struct pp_field pp_f_devaff1[1] = { { "Aff3", 0, 8, "affinity level 3" } };

const struct pp_field pp_f_devarch[5] = {
    { "ARCHITECT", 21, 11, "architect JEP106 code" },
    { "PRESENT",   20, 1,  "DEVARCH present" },
    { "REVISION",  16, 4,  "architecture revision" },
    { "ARCHVER",   12, 4,  "architecture version" },
    { "ARCHPART",  0,  12, "architecture part" },
};

/* PIDR/CIDR: only bits [7:0] used (spec 5.2). */
const struct pp_field pp_f_pidr0[1] = { { "PART_0", 0, 8, "part number [7:0]" } };
const struct pp_field pp_f_pidr1[2] = {
    { "DES_0",  4, 4, "JEP106 ID [3:0]" },
    { "PART_1", 0, 4, "part number [11:8]" },
};
const struct pp_field pp_f_pidr2[3] = {
    { "REVISION", 4, 4, "component revision" },
    { "JEDEC",    3, 1, "JEP106 code used" },
    { "DES_1",    0, 3, "JEP106 ID [6:4]" },
};
const struct pp_field pp_f_pidr3[2] = {
    { "REVAND", 4, 4, "metal fix level" },
    { "CMOD",   0, 4, "customer modification" },
};
const struct pp_field pp_f_pidr4[2] = {
    { "SIZE",  4, 4, "log2 of 4 KB blocks used" },
    { "DES_2", 0, 4, "JEP106 continuation code" },
};
const struct pp_field pp_f_cidr[1] = { { "PRMBL", 0, 8, "preamble byte" } };
const struct pp_field pp_f_cidr1[2] = {
    { "CLASS",   4, 4, "component class" },
    { "PRMBL_1", 0, 4, "preamble nibble" },
};
