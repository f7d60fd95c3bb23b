/*
 * find.c - pp_target_find: from a name such as "rpi3-a53" to the file
 * that describes it.  Order: an existing path as given; then NAME.target
 * and NAME in each directory of $PMUPROBE_TARGETS (colon-separated), the
 * source tree's targets/ (PP_SRCTARGETDIR, so an uninstalled build finds
 * its own files) and the installed $(pkgdatadir)/targets (PP_TARGETDIR).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "target/target.h"

static bool is_file(const char *p)
{
    struct stat sb;

    return stat(p, &sb) == 0 && S_ISREG(sb.st_mode);
}

static int take(const char *found, char *path, size_t pathlen)
{
    if (strlen(found) >= pathlen)
        return PP_E_INVAL;
    memcpy(path, found, strlen(found) + 1);
    return PP_OK;
}

/* NAME.target, then NAME, in one directory (dir is dirlen bytes long). */
static int try_dir(const char *dir, size_t dirlen, const char *name, char *path,
                   size_t pathlen)
{
    static const char *const suffixes[] = { ".target", "" };
    char cand[4096];

    if (dirlen == 0)
        return PP_E_NOTFOUND;
    for (unsigned i = 0; i < 2; i++) {
        int n = snprintf(cand, sizeof(cand), "%.*s/%s%s", (int)dirlen, dir, name,
                         suffixes[i]);
        if (n > 0 && (size_t)n < sizeof(cand) && is_file(cand))
            return take(cand, path, pathlen);
    }
    return PP_E_NOTFOUND;
}

static int try_list(const char *list, const char *name, char *path, size_t pathlen)
{
    while (list && *list) {
        size_t n = strcspn(list, ":");
        int rc = try_dir(list, n, name, path, pathlen);

        if (rc != PP_E_NOTFOUND)
            return rc;
        list += n + (list[n] == ':');
    }
    return PP_E_NOTFOUND;
}

int pp_target_find(const char *name, char *path, size_t pathlen)
{
    int rc;

    if (!name || !*name || !path || pathlen == 0)
        return PP_E_INVAL;
    if (is_file(name))
        return take(name, path, pathlen);
    rc = try_list(getenv("PMUPROBE_TARGETS"), name, path, pathlen);
#ifdef PP_SRCTARGETDIR
    if (rc == PP_E_NOTFOUND)
        rc = try_dir(PP_SRCTARGETDIR, strlen(PP_SRCTARGETDIR), name, path, pathlen);
#endif
#ifdef PP_TARGETDIR
    if (rc == PP_E_NOTFOUND)
        rc = try_dir(PP_TARGETDIR, strlen(PP_TARGETDIR), name, path, pathlen);
#endif
    return rc;
}
