/*
 * args.c - parsing the arguments several commands share: cpu selections,
 * durations and numbers.  Each failure prints what was given and what was
 * expected.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <stdarg.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "capture/capture.h"
#include "cli.h"
#include "timeunit.h"

bool parse_u32(const char *arg, uint32_t *v)
{
    char *end;
    unsigned long long x;

    if (!arg || !*arg || *arg == '-')
        return false;
    errno = 0;
    x = strtoull(arg, &end, 0);
    if (errno || *end || x > 0xFFFFFFFFull)
        return false;
    *v = (uint32_t)x;
    return true;
}

static bool parse_cpu_number(const char *arg, unsigned *cpu)
{
    uint32_t v;

    if (strncasecmp(arg, "cpu", 3) == 0)
        arg += 3;
    if (!parse_u32(arg, &v) || v >= PP_MAX_CORES)
        return false;
    *cpu = v;
    return true;
}

const struct pp_core_desc *parse_cpu(const struct pp_target *t, const char *arg)
{
    unsigned cpu;
    const struct pp_core_desc *c;

    if (!parse_cpu_number(arg, &cpu)) {
        cli_error("'%s' is not a cpu: expected cpuN or N (e.g. cpu0)", arg);
        return NULL;
    }
    c = pp_target_core(t, cpu);
    if (!c)
        cli_error("cpu%u: no such core in target '%s' (it has %u cores)", cpu, t->name,
                  t->ncores);
    return c;
}

/* One element of a list: "N", "cpuN" or "N-M".  *said is set when the
 * failure was already reported (a core the target lacks), so the caller
 * does not add a second, less precise message. */
static bool parse_cpu_range(const struct pp_target *t, const char *item, uint64_t *set,
                            bool *said)
{
    char buf[32];
    char *dash;
    unsigned lo, hi;

    if (strlen(item) >= sizeof(buf))
        return false;
    strcpy(buf, item);
    dash = strchr(buf, '-');
    if (dash)
        *dash = '\0';
    if (!parse_cpu_number(buf, &lo))
        return false;
    hi = lo;
    if (dash && !parse_cpu_number(dash + 1, &hi))
        return false;
    if (hi < lo)
        return false;
    for (unsigned c = lo; c <= hi; c++) {
        if (!pp_target_core(t, c)) {
            cli_error("cpu%u: no such core in target '%s' (it has %u cores)", c, t->name,
                      t->ncores);
            *said = true;
            return false;
        }
        *set |= 1ull << c;
    }
    return true;
}

bool parse_cpus(const struct pp_target *t, const char *arg, uint64_t *set)
{
    char buf[256];
    char *save = NULL;

    *set = 0;
    if (strcasecmp(arg, "all") == 0) {
        for (unsigned i = 0; i < t->ncores; i++)
            *set |= 1ull << t->cores[i].cpu;
        return true;
    }
    if (strlen(arg) >= sizeof(buf)) {
        cli_error("cpu list too long: '%.40s...'", arg);
        return false;
    }
    strcpy(buf, arg);
    for (char *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        bool said = false;

        if (!parse_cpu_range(t, tok, set, &said)) {
            if (!said)
                cli_error("'%s': expected a cpu list such as 0-3, 0,2, cpu1 or all", arg);
            return false;
        }
    }
    if (*set == 0)
        cli_error("'%s': an empty cpu list: expected cpus such as 0-3, 0,2, cpu1 or all", arg);
    return *set != 0;
}

/* ---- times and counts ------------------------------------------------------------------ */

static bool time_out_of_range(const struct cli_time *t, const char *arg)
{
    char lo[32], hi[32];

    pp_time_format(t->min_ns, lo, sizeof(lo));
    pp_time_format(t->max_ns, hi, sizeof(hi));
    cli_error("%s '%s': out of range: expected from %s to %s", t->opt, arg, lo, hi);
    return false;
}

static bool is_digit(char c)
{
    return c >= '0' && c <= '9';
}

bool cli_parse_time(const struct cli_time *t, const char *arg, uint64_t *ns)
{
    /* strtod alone would also take "inf", "nan" and hex: a time is decimal
     * digits, an optional fraction, and a unit. */
    const bool number = (is_digit(arg[0]) || (arg[0] == '.' && is_digit(arg[1]))) &&
                        strncasecmp(arg, "0x", 2) != 0;
    uint64_t mul = 0;
    char *end = NULL;
    double v = 0;

    if (arg[0] == '-' && (is_digit(arg[1]) || arg[1] == '.'))
        return time_out_of_range(t, arg);
    if (number)
        v = strtod(arg, &end);
    if (number && *end == '\0' && !t->bare_ms) {
        cli_error("%s '%s': a time needs a unit: ns, us, ms, s, m or h (e.g. %ss or %sms)",
                  t->opt, arg, arg, arg);
        return false;
    }
    if (number && *end == '\0')
        mul = 1000000;              /* as perf stat -I: a bare number is milliseconds */
    if (number && *end)
        mul = pp_time_unit_ns(end);
    if (mul == 0) {
        cli_error("%s '%s': expected a time such as 500us, 10ms, 2s, 5m or 1h%s", t->opt, arg,
                  t->bare_ms ? " (a bare number is milliseconds)" : "");
        return false;
    }
    /* Compared as a double first: the product may not fit in 64 bits. */
    if (v * (double)mul > (double)t->max_ns)
        return time_out_of_range(t, arg);
    *ns = (uint64_t)llround(v * (double)mul);
    if (*ns < t->min_ns)
        return time_out_of_range(t, arg);
    return true;
}

bool cli_parse_count(const char *opt, const char *arg, uint64_t min, uint64_t max,
                     const char *what, uint64_t *n)
{
    const bool negative = arg[0] == '-' && is_digit(arg[1]);
    unsigned long long x = 0;
    char *end = NULL;

    errno = 0;
    if (is_digit(arg[0]))
        x = strtoull(arg, &end, 10);
    if (!negative && (!end || *end)) {
        cli_error("%s '%s': expected %s from %llu to %llu", opt, arg, what,
                  (unsigned long long)min, (unsigned long long)max);
        return false;
    }
    if (negative || errno == ERANGE || x < min || x > max) {
        cli_error("%s '%s': out of range: expected %s from %llu to %llu", opt, arg, what,
                  (unsigned long long)min, (unsigned long long)max);
        return false;
    }
    *n = x;
    return true;
}

int plan_events(const struct pp_core_desc *c, const char *events, struct pp_evsel *ev,
                unsigned *n, struct pp_pmu_prog *prog)
{
    char err[1024];

    if (pp_cap_plan_events(c, events, ev, n, prog, err, sizeof(err)) != PP_OK) {
        cli_error("%s", err);
        return EXIT_USAGE;
    }
    return EXIT_OK;
}

/* ---- output files (no clobbering unless --force) ---------------------------------------- */

static bool is_stdout(const char *path)
{
    return !path || strcmp(path, "-") == 0;
}

/* Writing to a device or a pipe loses nothing that was there before. */
static bool is_stream_file(const char *path)
{
    struct stat st;

    return stat(path, &st) == 0 && (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode));
}

static void refuse_existing(const char *path)
{
    cli_error("%s exists; pass --force to overwrite", path);
}

bool cli_output_ok(const char *path, bool force)
{
    struct stat st;

    if (force || is_stdout(path) || is_stream_file(path))
        return true;
    /* lstat: a symlink is refused like the file it may point at. */
    if (lstat(path, &st) != 0)
        return true;
    if (S_ISDIR(st.st_mode))
        cli_error("cannot write '%s': it is a directory", path);
    else
        refuse_existing(path);
    return false;
}

/* Whether path's directory is under /dev or /proc, where names such as
 * /dev/stdout and /dev/fd/N are how a user names an open descriptor:
 * those links are written through, never removed. */
static bool in_system_dir(const char *path)
{
    static const char *const dirs[] = { "/dev", "/proc" };
    const char *slash = strrchr(path, '/');
    char dir[PATH_MAX], real[PATH_MAX];
    size_t n = slash ? (slash == path ? 1 : (size_t)(slash - path)) : 0;

    if (n >= sizeof(dir))
        return false;
    memcpy(dir, slash ? path : ".", slash ? n : 1);
    dir[slash ? n : 1] = '\0';
    if (!realpath(dir, real))
        return false;
    for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
        size_t len = strlen(dirs[i]);

        if (strncmp(real, dirs[i], len) == 0 && (real[len] == '/' || real[len] == '\0'))
            return true;
    }
    return false;
}

/*
 * With --force, an existing symlink, or a file with other hard links, is
 * replaced rather than written through, as cp --remove-destination does:
 * the file the link points at (perhaps not the user's, perhaps planted in
 * a shared directory) is left untouched.  false, having said why, when
 * the link cannot be removed.  *replaced tells the caller to create the
 * new file exclusively.
 */
static bool replace_link(const char *path, bool *replaced)
{
    struct stat st;

    *replaced = false;
    if (lstat(path, &st) != 0)
        return true;
    if (!S_ISLNK(st.st_mode) && !(S_ISREG(st.st_mode) && st.st_nlink > 1))
        return true;
    if (in_system_dir(path))
        return true;
    if (unlink(path) != 0) {
        cli_error("cannot replace '%s' (a %s): %s", path,
                  S_ISLNK(st.st_mode) ? "symlink" : "file with other hard links", strerror(errno));
        return false;
    }
    *replaced = true;
    return true;
}

FILE *cli_create_output(const char *path, bool force, const char *mode)
{
    int flags = O_WRONLY | O_CREAT | O_CLOEXEC;
    bool replaced = false;
    FILE *f;
    int fd;

    if (is_stdout(path))
        return stdout;
    if (!force && !cli_output_ok(path, false))
        return NULL;             /* says which: exists, or a directory */
    if (is_stream_file(path))
        flags = O_WRONLY | O_CLOEXEC;
    else if (force && !replace_link(path, &replaced))
        return NULL;
    else
        flags |= force && !replaced ? O_TRUNC : O_EXCL;
    fd = open(path, flags, 0666);
    if (fd < 0) {
        if (errno == EEXIST)
            refuse_existing(path);
        else
            cli_error("cannot write '%s': %s", path, strerror(errno));
        return NULL;
    }
    f = fdopen(fd, mode);
    if (!f) {
        cli_error("cannot write '%s': %s", path, strerror(errno));
        close(fd);
    }
    return f;
}

bool cli_close_output(FILE *f, const char *path)
{
    if (!f)
        return true;
    if (f == stdout) {
        if (fflush(f) == 0 && !ferror(f))
            return true;
        cli_error("writing to stdout: %s", strerror(errno));
        return false;
    }
    if (fclose(f) == 0)
        return true;
    cli_error("closing '%s': %s", path, strerror(errno));
    return false;
}

/* ---- options ------------------------------------------------------------------------- */

void cli_usage(const char *cmd, const char *fmt, ...)
{
    char what[1024];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(what, sizeof(what), fmt, ap);
    va_end(ap);
    cli_error("%s: %s (try 'pmuprobe help %s')", cmd, what, cmd);
}

/* Where cli_getopt reports a command's options instead of parsing them
 * (cli_describe_options); NULL the rest of the time. */
static struct cli_optspec *describing;

void cli_describe_options(struct cli_optspec *into)
{
    describing = into;
}

/* The long options whose names start with name (up to '=' in it). */
static size_t long_matches(const struct option *lo, const char *name, const struct option **hit)
{
    size_t len = strcspn(name, "="), n = 0;

    for (; lo && lo->name; lo++) {
        if (strncmp(lo->name, name, len) != 0)
            continue;
        if (strlen(lo->name) == len) {
            *hit = lo;
            return 1;              /* an exact name is never ambiguous */
        }
        if (n == 0 || (*hit)->val != lo->val)
            n++;                   /* --cpu and --cpus are one option */
        *hit = lo;
    }
    return n;
}

static void bad_long(const char *cmd, const char *elem, const struct option *longopts, int ch)
{
    const struct option *hit = NULL;
    const char *name = elem + 2;
    int len = (int)strcspn(name, "=");
    size_t n = long_matches(longopts, name, &hit);

    if (ch == ':')
        cli_usage(cmd, "option '--%.*s' needs a value", len, name);
    else if (n == 0)
        cli_usage(cmd, "unknown option '--%.*s'", len, name);
    else if (n > 1)
        cli_usage(cmd, "option '--%.*s' is ambiguous (an abbreviation of more than one)",
                  len, name);
    else
        cli_usage(cmd, "option '--%s' takes no value", hit->name);
}

static void bad_short(const char *cmd, int ch)
{
    if (ch == ':')
        cli_usage(cmd, "option '-%c' needs a value", optopt);
    else if (is_digit((char)optopt))
        cli_usage(cmd, "unknown option '-%c' (negative numbers are not accepted; an "
                  "operand that starts with '-' goes after '--')", optopt);
    else if (optopt > 0x20 && optopt < 0x7F)
        cli_usage(cmd, "unknown option '-%c'", optopt);
    else
        cli_usage(cmd, "unknown option '-\\x%02X'", (unsigned)(unsigned char)optopt);
}

int cli_getopt(int argc, char **argv, const char *shortopts, const struct option *longopts,
               const char *cmd)
{
    char spec[64];
    int before = optind > 0 ? optind : 1, ch;

    if (describing) {
        describing->shortopts = shortopts;
        describing->longopts = longopts;
        return '?';
    }
    /* ':' first: getopt prints nothing and tells a missing value (':')
     * from an unknown option ('?'), so the one line below says which.
     * No '+': options and operands mix, as GNU tools allow; "--" ends the
     * options (POSIXLY_CORRECT in the environment restores strict order). */
    if ((size_t)snprintf(spec, sizeof(spec), ":%s", shortopts) >= sizeof(spec))
        return -1;
    ch = getopt_long(argc, argv, spec, longopts, NULL);
    if (ch != '?' && ch != ':')
        return ch;
    /* A long option is a whole element, consumed by the failed call; a
     * short one may sit inside a cluster ("-jz") that was not. */
    if (optind > before && strncmp(argv[optind - 1], "--", 2) == 0)
        bad_long(cmd, argv[optind - 1], longopts, ch);
    else
        bad_short(cmd, ch);
    return '?';
}

int parse_json_only(int argc, char **argv, const char *cmd, void (*help)(FILE *out),
                    bool *json)
{
    static const struct option longopts[] = {
        { "json", no_argument, NULL, 'j' }, { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 },
    };
    int ch;

    *json = false;
    while ((ch = cli_getopt(argc, argv, "jh", longopts, cmd)) != -1) {
        if (ch == 'j') {
            *json = true;
            continue;
        }
        if (ch == 'h')
            help(stdout);
        return ch == 'h' ? EXIT_OK : EXIT_USAGE;
    }
    return -1;
}

int parse_help_only(int argc, char **argv, const char *cmd, void (*help)(FILE *out))
{
    static const struct option longopts[] = {
        { "help", no_argument, NULL, 'h' }, { NULL, 0, NULL, 0 },
    };
    int ch = cli_getopt(argc, argv, "h", longopts, cmd);

    if (ch == -1)
        return -1;
    if (ch == 'h')
        help(stdout);
    return ch == 'h' ? EXIT_OK : EXIT_USAGE;
}

void cli_vcount(FILE *f, uint64_t *bytes, const char *fmt, va_list ap)
{
    int n = vfprintf(f, fmt, ap);

    if (n > 0)
        *bytes += (uint64_t)n;
}
