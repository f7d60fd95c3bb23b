/*
 * simctl.c - pmuprobe-sim's control channel, client side (simctl.h).
 */
#include "simctl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

/* Connects and sends "cmd\n" in one piece; the socket, or -1.  MSG_NOSIGNAL:
 * a server that hung up makes this fail, not kill the measuring program. */
static int send_command(const char *sock, const char *cmd)
{
    struct sockaddr_un a = { .sun_family = AF_UNIX };
    char line[256];
    int len = snprintf(line, sizeof(line), "%s\n", cmd);
    int fd;

    if (strlen(sock) >= sizeof(a.sun_path) || len < 0 || (size_t)len >= sizeof(line))
        return -1;
    memcpy(a.sun_path, sock, strlen(sock) + 1);
    fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return -1;
    if (connect(fd, (struct sockaddr *)&a, sizeof(a)) != 0) {
        close(fd);
        return -1;
    }
    for (int off = 0; off < len;) {
        ssize_t w = send(fd, line + off, (size_t)(len - off), MSG_NOSIGNAL);

        if (w <= 0) {
            close(fd);
            return -1;
        }
        off += (int)w;
    }
    return fd;
}

int simctl_command(const char *sock, const char *cmd, char *reply, size_t n, char *err,
                   size_t errlen)
{
    size_t len = 0;
    int fd = send_command(sock, cmd);

    if (fd < 0) {
        snprintf(err, errlen, "control %s: cannot send '%s'", sock, cmd);
        return -1;
    }
    while (len + 1 < n) {
        ssize_t r = read(fd, reply + len, n - 1 - len);

        if (r <= 0)
            break;
        len += (size_t)r;
        if (memchr(reply, '\n', len))
            break;
    }
    close(fd);
    reply[len] = '\0';
    if (strncmp(reply, "ok", 2) != 0) {
        snprintf(err, errlen, "control %s: '%s' answered '%.200s'", sock, cmd, reply);
        return -1;
    }
    return 0;
}

int64_t simctl_stat(const char *reply, const char *key)
{
    size_t klen = strlen(key);

    for (const char *s = reply; (s = strstr(s, key)); s += klen) {
        if ((s == reply || s[-1] == ' ') && s[klen] == '=')
            return strtoll(s + klen + 1, NULL, 10);
    }
    return -1;
}
