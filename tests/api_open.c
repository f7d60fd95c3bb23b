/*
 * api_open.c - pp_session_open on any access path, as a program linked
 * against the shared libpmuprobe sees it (tests/api.test): opens the
 * session with the options given, lists the cores, counts cycles and
 * instructions on the first core and reads them twice.
 *
 *   api_open TARGET|- PROBE [speed=KHZ] [adapter=NAME] [reset=PINS] [reconnect]
 *
 * TARGET "-" passes NULL (discovery).  Prints "open: PP_E_NAME: err" and
 * exits 1 when the session does not open, 2 when a read fails.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pmuprobe.h"

static int parse_opt(const char *arg, struct pp_open_opts *o)
{
    if (strncmp(arg, "speed=", 6) == 0)
        o->speed_khz = (unsigned)strtoul(arg + 6, NULL, 10);
    else if (strncmp(arg, "adapter=", 8) == 0)
        o->adapter = arg + 8;
    else if (strncmp(arg, "reset=", 6) == 0)
        o->reset = (unsigned)strtoul(arg + 6, NULL, 0);
    else if (strcmp(arg, "reconnect") == 0)
        o->reconnect = true;
    else
        return -1;
    return 0;
}

static int count(struct pp_session *s, unsigned cpu)
{
    struct pp_counters *c;
    uint64_t v[2];
    char err[256];
    int rc;

    rc = pp_counters_open(s, cpu, "cycles,instructions", &c, err, sizeof(err));
    if (rc != PP_OK) {
        printf("counters: %s: %s\n", pp_errname(rc), err);
        return 2;
    }
    for (int k = 0; k < 2 && rc == PP_OK; k++) {
        rc = pp_counters_read(c, v, 2);
        if (rc == PP_OK)
            printf("read%d cpu%u %" PRIu64 " %" PRIu64 "\n", k, cpu, v[0], v[1]);
    }
    if (rc != PP_OK)
        printf("read: %s\n", pp_errname(rc));
    pp_counters_close(c);
    return rc == PP_OK ? 0 : 2;
}

int main(int argc, char **argv)
{
    struct pp_open_opts o = { 0 };
    struct pp_core_info info;
    struct pp_session *s;
    unsigned first = 0;
    char err[512];
    int rc;

    if (argc < 3) {
        fprintf(stderr, "usage: api_open TARGET|- PROBE [OPTION=VALUE...]\n");
        return 64;
    }
    for (int i = 3; i < argc; i++)
        if (parse_opt(argv[i], &o) != 0) {
            fprintf(stderr, "api_open: unknown option '%s'\n", argv[i]);
            return 64;
        }
    rc = pp_session_open(strcmp(argv[1], "-") ? argv[1] : NULL, argv[2], &o, &s, err,
                         sizeof(err));
    if (rc != PP_OK) {
        printf("open: %s: %s\n", pp_errname(rc), err);
        return 1;
    }
    printf("target %s cores %u\n", pp_session_target_name(s), pp_session_ncores(s));
    for (unsigned i = 0; i < pp_session_ncores(s); i++) {
        pp_session_core(s, i, &info);
        if (i == 0)
            first = info.cpu;
        printf("cpu%u %s midr=%s0x%08" PRIx32 "\n", info.cpu, info.type,
               info.midr_valid ? "" : "?", info.midr);
    }
    rc = pp_session_ncores(s) ? count(s, first) : 2;
    pp_session_close(s);
    return rc;
}
