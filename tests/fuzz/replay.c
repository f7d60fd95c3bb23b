/*
 * Replays corpus files through a fuzz target with the ordinary compiler,
 * so that `make check` runs every seed and every crash regression under
 * valgrind.  Usage: replay DIR...; every DIR must exist and hold at least
 * one file (an empty corpus would make the test pass vacuously).  A file
 * named README* describes its directory and is never an input; a
 * directory holding only a README (a regression directory with no crash
 * yet) replays nothing and passes.
 */
#include <dirent.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz.h"

static int replay_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "replay: cannot open %s\n", path);
        return -1;
    }
    size_t cap = 4096, len = 0;
    uint8_t *buf = malloc(cap);
    size_t got;
    while (buf && (got = fread(buf + len, 1, cap - len, f)) > 0) {
        len += got;
        if (len == cap) {
            uint8_t *nb = realloc(buf, cap * 2);
            if (!nb) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = nb;
            cap *= 2;
        }
    }
    fclose(f);
    if (!buf) {
        fprintf(stderr, "replay: out of memory on %s\n", path);
        return -1;
    }
    LLVMFuzzerTestOneInput(buf, len);
    free(buf);
    return 0;
}

static int replay_dir(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d) {
        fprintf(stderr, "replay: cannot open directory %s\n", dir);
        return -1;
    }
    int nfiles = 0, rc = 0;
    bool readme = false;
    struct dirent *de;
    while ((de = readdir(d)) != NULL) {
        if (de->d_name[0] == '.')
            continue;
        if (strncmp(de->d_name, "README", 6) == 0) {
            readme = true;
            continue;
        }
        size_t n = strlen(dir) + strlen(de->d_name) + 2;
        char *path = malloc(n);
        if (!path) {
            rc = -1;
            break;
        }
        snprintf(path, n, "%s/%s", dir, de->d_name);
        struct stat st;
        if (stat(path, &st) == 0 && S_ISREG(st.st_mode)) {
            if (replay_file(path) != 0)
                rc = -1;
            nfiles++;
        }
        free(path);
    }
    closedir(d);
    if (rc == 0 && nfiles == 0 && !readme) {
        fprintf(stderr, "replay: no files in %s\n", dir);
        return -1;
    }
    printf("replay: %d file(s) from %s\n", nfiles, dir);
    return rc;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s DIR...\n", argv[0]);
        return 2;
    }
    int rc = 0;
    for (int i = 1; i < argc; i++)
        if (replay_dir(argv[i]) != 0)
            rc = 1;
    return rc;
}
