/*
 * simsrv_net.c - the sockets of pmuprobe-sim: loopback TCP or UNIX, for
 * the remote_bitbang port, the control channel and the `ctl` companion;
 * any other address only when --bind names it (the server has no
 * authentication).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "simsrv.h"

bool simsrv_is_port(const char *addr)
{
    if (!*addr || strlen(addr) > 5)
        return false;
    return strspn(addr, "0123456789") == strlen(addr);
}

int simsrv_set_nonblock(int fd)
{
    int fl = fcntl(fd, F_GETFL);

    return fl < 0 ? -1 : fcntl(fd, F_SETFL, fl | O_NONBLOCK);
}

static struct sockaddr_in loopback(unsigned port)
{
    struct sockaddr_in a;

    memset(&a, 0, sizeof(a));
    a.sin_family = AF_INET;
    a.sin_port = htons((uint16_t)port);
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    return a;
}

static bool unix_addr(const char *path, struct sockaddr_un *a, char *err, size_t errlen)
{
    memset(a, 0, sizeof(*a));
    a->sun_family = AF_UNIX;
    if (strlen(path) >= sizeof(a->sun_path)) {
        snprintf(err, errlen, "UNIX socket path '%s' is too long (at most %zu bytes)",
                 path, sizeof(a->sun_path) - 1);
        return false;
    }
    strcpy(a->sun_path, path);
    return true;
}

static int fail_close(int fd, const char *what, const char *addr, char *err, size_t errlen)
{
    snprintf(err, errlen, "%s %s: %s", what, addr, strerror(errno));
    if (fd >= 0)
        close(fd);
    return -1;
}

int simsrv_listen_tcp(unsigned port, unsigned *bound, char *err, size_t errlen)
{
    struct sockaddr_in a = loopback(port);
    socklen_t len = sizeof(a);
    char addr[32];
    int one = 1;
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

    snprintf(addr, sizeof(addr), "127.0.0.1:%u", port);
    if (fd < 0)
        return fail_close(fd, "socket for", addr, err, errlen);
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
    if (bind(fd, (struct sockaddr *)&a, sizeof(a)) < 0)
        return fail_close(fd, "cannot listen on", addr, err, errlen);
    if (listen(fd, 4) < 0 || getsockname(fd, (struct sockaddr *)&a, &len) < 0)
        return fail_close(fd, "cannot listen on", addr, err, errlen);
    *bound = ntohs(a.sin_port);
    return fd;
}

/* A socket file left by a server that died is replaced; one that still
 * answers belongs to a running server and is left alone.  Only a socket:
 * connect() to a regular file also fails with ECONNREFUSED, and a typo
 * in --unix must never delete the user's file. */
static bool stale_socket(const struct sockaddr_un *a)
{
    struct stat st;
    bool stale;
    int fd;

    if (lstat(a->sun_path, &st) != 0 || !S_ISSOCK(st.st_mode))
        return false;
    fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return false;
    stale = connect(fd, (const struct sockaddr *)a, sizeof(*a)) < 0 && errno == ECONNREFUSED;
    close(fd);
    return stale;
}

/* Why bind() found path taken and it is kept, for the message. */
static int path_taken(int fd, const char *path, char *err, size_t errlen)
{
    struct stat st;

    if (lstat(path, &st) == 0 && !S_ISSOCK(st.st_mode))
        snprintf(err, errlen, "cannot listen on %s: it exists and is not a socket (%s); "
                 "only a stale socket is replaced: remove it yourself or choose another path",
                 path, S_ISLNK(st.st_mode) ? "a symlink" : S_ISDIR(st.st_mode) ? "a directory"
                 : "a file");
    else
        snprintf(err, errlen, "cannot listen on %s: Address already in use (a socket "
                 "another server answers on)", path);
    close(fd);
    return -1;
}

int simsrv_listen_unix(const char *path, char *err, size_t errlen)
{
    struct sockaddr_un a;
    int fd;

    if (!unix_addr(path, &a, err, errlen))
        return -1;
    fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return fail_close(fd, "socket for", path, err, errlen);
    if (bind(fd, (struct sockaddr *)&a, sizeof(a)) < 0) {
        int bind_errno = errno;

        if (bind_errno != EADDRINUSE) {
            errno = bind_errno;
            return fail_close(fd, "cannot listen on", path, err, errlen);
        }
        if (!stale_socket(&a))
            return path_taken(fd, path, err, errlen);
        unlink(path);
        if (bind(fd, (struct sockaddr *)&a, sizeof(a)) < 0)
            return fail_close(fd, "cannot listen on", path, err, errlen);
    }
    if (listen(fd, 4) < 0)
        return fail_close(fd, "cannot listen on", path, err, errlen);
    return fd;
}

int simsrv_connect(const char *addr, char *err, size_t errlen)
{
    int fd;

    if (simsrv_is_port(addr)) {
        unsigned port = (unsigned)strtoul(addr, NULL, 10);
        struct sockaddr_in a = loopback(port);
        char name[32];

        snprintf(name, sizeof(name), "127.0.0.1:%u", port);
        fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
        if (fd < 0 || connect(fd, (struct sockaddr *)&a, sizeof(a)) < 0)
            return fail_close(fd, "cannot connect to", name, err, errlen);
        return fd;
    }
    struct sockaddr_un u;

    if (!unix_addr(addr, &u, err, errlen))
        return -1;
    fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0 || connect(fd, (struct sockaddr *)&u, sizeof(u)) < 0)
        return fail_close(fd, "cannot connect to", addr, err, errlen);
    return fd;
}

/* 127.0.0.0/8, ::1 and ::ffff:127.x.y.z: reachable from this host only. */
static bool is_loopback(const struct sockaddr *sa)
{
    if (sa->sa_family == AF_INET) {
        const struct sockaddr_in *in = (const struct sockaddr_in *)sa;

        return (ntohl(in->sin_addr.s_addr) >> 24) == 127u;
    }
    if (sa->sa_family == AF_INET6) {
        const struct in6_addr *a = &((const struct sockaddr_in6 *)sa)->sin6_addr;

        return IN6_IS_ADDR_LOOPBACK(a) || (IN6_IS_ADDR_V4MAPPED(a) && a->s6_addr[12] == 127u);
    }
    return false;
}

static void show_addr(const struct sockaddr *sa, unsigned port, char *out, size_t outlen)
{
    char host[INET6_ADDRSTRLEN] = "?";

    if (sa->sa_family == AF_INET) {
        inet_ntop(AF_INET, &((const struct sockaddr_in *)sa)->sin_addr, host, sizeof(host));
        snprintf(out, outlen, "%s:%u", host, port);
    } else {
        inet_ntop(AF_INET6, &((const struct sockaddr_in6 *)sa)->sin6_addr, host, sizeof(host));
        snprintf(out, outlen, "[%s]:%u", host, port);
    }
}

static int listen_on(const struct addrinfo *ai, unsigned *bound, char *err, size_t errlen,
                     const char *name)
{
    struct sockaddr_storage ss;
    socklen_t len = sizeof(ss);
    int one = 1;
    int fd = socket(ai->ai_family, SOCK_STREAM | SOCK_CLOEXEC, 0);

    if (fd < 0)
        return fail_close(fd, "socket for", name, err, errlen);
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
    if (bind(fd, ai->ai_addr, ai->ai_addrlen) < 0 || listen(fd, 4) < 0 ||
        getsockname(fd, (struct sockaddr *)&ss, &len) < 0)
        return fail_close(fd, "cannot listen on", name, err, errlen);
    *bound = ntohs(ss.ss_family == AF_INET ? ((struct sockaddr_in *)&ss)->sin_port
                                           : ((struct sockaddr_in6 *)&ss)->sin6_port);
    return fd;
}

int simsrv_listen_bind(const char *addr, unsigned port, struct simsrv_bound *b, char *err,
                       size_t errlen)
{
    struct addrinfo hints, *ai = NULL;
    char service[8];
    int gai, fd;

    memset(&hints, 0, sizeof(hints));
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    /* Numeric only: the address to expose is spelled out, never looked up. */
    hints.ai_flags = AI_PASSIVE | AI_NUMERICHOST | AI_NUMERICSERV;
    snprintf(service, sizeof(service), "%u", port);
    gai = getaddrinfo(addr, service, &hints, &ai);
    if (gai != 0 || !ai) {
        snprintf(err, errlen, "--bind '%s': expected a numeric IPv4 or IPv6 address of this "
                 "host (e.g. 127.0.0.1, 0.0.0.0, ::1, ::)", addr);
        if (ai)
            freeaddrinfo(ai);
        return -1;
    }
    fd = listen_on(ai, &b->port, err, errlen, addr);
    if (fd >= 0) {
        b->loopback = is_loopback(ai->ai_addr);
        show_addr(ai->ai_addr, b->port, b->shown, sizeof(b->shown));
    }
    freeaddrinfo(ai);
    return fd;
}
