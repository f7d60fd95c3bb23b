/*
 * sample.c - libpmuprobe in thirty lines: open a target, list its cores,
 * count cycles and instructions on each, print ten samples 100 ms apart.
 *
 *   cc sample.c $(pkg-config --cflags --libs libpmuprobe) -o sample
 *   ./sample [TARGET [PROBE]]        (default: a76-cluster over "sim")
 */
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <stdio.h>
#include <time.h>

#include <pmuprobe.h>

#define MAX_CORES 64

int main(int argc, char **argv)
{
    const char *target = argc > 1 ? argv[1] : "a76-cluster";
    const char *probe = argc > 2 ? argv[2] : "sim";
    struct pp_counters *set[MAX_CORES] = { 0 };
    struct pp_core_info info[MAX_CORES];
    struct timespec pause = { 0, 100 * 1000 * 1000 };
    struct pp_session *s;
    char err[256];
    unsigned n;
    int rc = 0;

    if (pp_session_open(target, probe, NULL, &s, err, sizeof(err)) != PP_OK) {
        fprintf(stderr, "sample: %s\n", err);
        return 1;
    }
    n = pp_session_ncores(s);
    n = n < MAX_CORES ? n : MAX_CORES;
    for (unsigned i = 0; i < n; i++) {
        pp_session_core(s, i, &info[i]);
        printf("cpu%u %s midr=0x%08" PRIx32 " pmu=0x%08" PRIx32 " counters=%u\n",
               info[i].cpu, info[i].type, info[i].midr, info[i].pmu_base, info[i].counters);
        if (pp_counters_open(s, info[i].cpu, "cycles,instructions", &set[i], err,
                             sizeof(err)) != PP_OK)
            fprintf(stderr, "sample: cpu%u skipped: %s\n", info[i].cpu, err);
    }
    printf("%-6s %-5s %14s %14s\n", "sample", "cpu", "cycles", "instructions");
    for (int k = 0; k < 10 && rc == 0; k++) {
        nanosleep(&pause, NULL);
        for (unsigned i = 0; i < n; i++) {
            uint64_t v[2];

            if (!set[i])
                continue;
            if (pp_counters_read(set[i], v, 2) != PP_OK) {
                fprintf(stderr, "sample: cpu%u: read failed\n", info[i].cpu);
                rc = 1;
                break;
            }
            printf("%-6d cpu%-2u %14" PRIu64 " %14" PRIu64 "\n", k, info[i].cpu, v[0], v[1]);
        }
    }
    for (unsigned i = 0; i < n; i++)
        pp_counters_close(set[i]);
    pp_session_close(s);
    return rc;
}
