/*
 * simsrv.h - pmuprobe-sim: the simulated SoC served over OpenOCD's
 * remote_bitbang protocol (spec/openocd.md 1), with a line-based control
 * channel for faults and statistics.
 *
 * One process, one poll() loop, no threads: the remote_bitbang client and
 * the control clients are served in turn, so a control command that got
 * its "ok" reply has taken effect before the next remote_bitbang byte.
 */
#ifndef PP_SIMSRV_H
#define PP_SIMSRV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/socket.h>

#include "sim/jtag.h"
#include "sim/sim.h"
#include "target/target.h"

#define SIMSRV_MAX_CTL     8        /* control connections at once */
#define SIMSRV_CTL_LINE    1024     /* longest control command line */
#define SIMSRV_IN_CHUNK    65536    /* remote_bitbang bytes read at once */
#define SIMSRV_OUT_CAP     (4 * SIMSRV_IN_CHUNK)

/* Counters the server keeps itself (the TAP keeps the JTAG ones). */
struct simsrv_counts {
    uint64_t round_trips;   /* reply batches sent after the input drained */
    uint64_t bytes_in;      /* remote_bitbang bytes received */
    uint64_t bytes_out;     /* reply bytes sent */
    uint64_t samples;       /* 'R' answered */
    uint64_t blinks;        /* 'B' received: one per OpenOCD queue */
};

/* The remote_bitbang client being served (fd < 0: none). */
struct simsrv_client {
    int fd;
    char out[SIMSRV_OUT_CAP];       /* replies not yet sent */
    size_t outlen, outoff;
    const char *closing;            /* why to close once flushed ('Q', a bad
                                     * byte, end of stream); NULL = open */
    struct simsrv_counts counts;
    struct pp_simjtag_stats base;   /* TAP stats when the client came */
};

struct simsrv_ctl {
    int fd;
    char line[SIMSRV_CTL_LINE];
    size_t len;
};

struct simsrv {
    struct pp_target *target;
    struct pp_sim *sim;
    struct pp_simjtag *jtag;
    int listen_fd, ctl_listen_fd, sig_fd;
    char unix_path[108], ctl_path[108];    /* to unlink at exit ("" = TCP) */
    bool once, quit;
    unsigned clients;                       /* remote_bitbang clients served */
    struct simsrv_client cl;
    struct simsrv_ctl ctl[SIMSRV_MAX_CTL];
    struct simsrv_counts total;
    /* The last client's figures stay readable after it left. */
    struct simsrv_counts last_counts;
    struct pp_simjtag_stats last_jtag;
    uint64_t faults_base;                   /* the SoC's fault count at the last stats reset */
    FILE *read_log;                         /* --read-log, or NULL */
};

/* --- simsrv_net.c: sockets ---------------------------------------------- */

/* "1234" (digits only) is a loopback TCP port, anything else a UNIX
 * socket path. */
bool simsrv_is_port(const char *addr);
/* Listens on 127.0.0.1:port (0 = ephemeral) and writes the bound port to
 * *bound.  Returns the fd or -1 with the reason in err. */
int simsrv_listen_tcp(unsigned port, unsigned *bound, char *err, size_t errlen);
/* Where simsrv_listen_bind listens, for the start-up message. */
struct simsrv_bound {
    unsigned port;
    bool loopback;          /* 127.0.0.0/8 or ::1: this host only */
    char shown[64];         /* "192.0.2.1:9999", "[::]:9999" */
};
/* Listens on a numeric address the user named (--bind; never a name to
 * look up) and port (0 = ephemeral).  Returns the fd or -1 with the
 * reason in err. */
int simsrv_listen_bind(const char *addr, unsigned port, struct simsrv_bound *b, char *err,
                       size_t errlen);
/* Listens on a UNIX socket; a stale socket file nobody answers on is
 * replaced, a live one is an error. */
int simsrv_listen_unix(const char *path, char *err, size_t errlen);
/* Connects to a port or UNIX path as simsrv_is_port() tells them apart. */
int simsrv_connect(const char *addr, char *err, size_t errlen);
int simsrv_set_nonblock(int fd);

/* --- simsrv_rbb.c: the remote_bitbang client ------------------------- */

/* Takes a freshly accepted connection. */
void simsrv_rbb_attach(struct simsrv *s, int fd);
/* Serves readable input (process everything, answer in one write). */
void simsrv_rbb_on_input(struct simsrv *s);
/* Sends pending replies when the socket takes them again. */
void simsrv_rbb_on_output(struct simsrv *s);
/* poll() events the client waits for now. */
short simsrv_rbb_events(const struct simsrv *s);
/* Closes the client and keeps its figures for 'stats'. */
void simsrv_rbb_detach(struct simsrv *s, const char *why);
/*
 * Runs n protocol bytes against the TAP, appending 'R' answers to the
 * client's out buffer (which must have n bytes free).  Returns the bytes
 * consumed: all of them, or up to and including a 'Q' (then *quit), or up
 * to a byte outside the protocol (then *bad is set and msg says which).
 */
size_t simsrv_rbb_feed(struct simsrv *s, const char *in, size_t n, bool *quit, bool *bad,
                       char *msg, size_t msglen);

/* --- simsrv_ctl.c: the control channel ----------------------------------- */

void simsrv_ctl_attach(struct simsrv *s, int fd);
void simsrv_ctl_on_input(struct simsrv *s, struct simsrv_ctl *c);
void simsrv_ctl_close(struct simsrv_ctl *c);
/* Executes one command line; writes one reply line (no newline). */
void simsrv_ctl_exec(struct simsrv *s, const char *line, char *reply, size_t replylen);
/* `pmuprobe-sim ctl ADDR COMMAND...`: returns the exit status. */
int simsrv_ctl_client(int argc, char **argv);

#endif
