/*
 * load.c - reads a target description file and hands its text to the
 * parser, so that messages and t->path name the file.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "errmsg.h"
#include "target/target.h"

/* A description is a few kilobytes; refuse anything absurd rather than
 * read a device or a wrong file into memory. */
#define TARGET_MAX_BYTES (1024 * 1024)

static int io_fail(char *err, size_t errlen, const char *path, const char *what, int e)
{
    if (err && errlen)
        pp_errmsg(err, errlen, "%s: %s: %s", path, what, strerror(e));
    return PP_E_IO;
}

static int read_all(FILE *f, const char *path, char **out, char *err, size_t errlen)
{
    char *buf = malloc(TARGET_MAX_BYTES + 1);
    size_t n;

    if (!buf)
        return PP_E_NOMEM;
    n = fread(buf, 1, TARGET_MAX_BYTES + 1, f);
    if (ferror(f)) {
        free(buf);
        return io_fail(err, errlen, path, "cannot read", errno ? errno : EIO);
    }
    if (n > TARGET_MAX_BYTES) {
        free(buf);
        if (err && errlen)
            pp_errmsg(err, errlen, "%s: larger than %d bytes (expected a target description)",
                      path, TARGET_MAX_BYTES);
        return PP_E_PARSE;
    }
    buf[n] = '\0';
    *out = buf;
    return PP_OK;
}

int pp_target_load(const char *path, struct pp_target **out, char *err, size_t errlen)
{
    return pp_target_load_ex(path, NULL, out, err, errlen);
}

int pp_target_load_ex(const char *path, const struct pp_core_type *const types[PP_MAX_CORES],
                      struct pp_target **out, char *err, size_t errlen)
{
    FILE *f;
    char *text = NULL;
    int rc;

    if (!path || !out)
        return PP_E_INVAL;
    *out = NULL;
    f = fopen(path, "r");
    if (!f)
        return io_fail(err, errlen, path, "cannot open", errno);
    rc = read_all(f, path, &text, err, errlen);
    fclose(f);
    if (rc != PP_OK)
        return rc;
    rc = pp_target_parse_ex(text, path, types, out, err, errlen);
    free(text);
    return rc;
}
