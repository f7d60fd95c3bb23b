/*
 * rbb.h - the remote_bitbang link driver (OpenOCD 0.12.0 wire protocol,
 * spec/openocd.md 1): a client of a remote_bitbang server such as
 * pmuprobe-sim, over TCP or a UNIX socket.
 *
 * Pipelined: everything queued between two flushes goes out in one
 * write() and the 'R' answers come back in one read loop, so one flush is
 * one round trip whatever its length.  TCP_NODELAY is set.
 */
#ifndef PP_LINK_RBB_H
#define PP_LINK_RBB_H

#include <stddef.h>

#include "link/link.h"

/* Milliseconds a flush waits for the server's answers before PP_E_TIMEOUT. */
#define PP_RBB_TIMEOUT_MS 5000

/*
 * Connects to "HOST:PORT" (TCP; "[v6addr]:PORT" for IPv6 literals) or
 * "unix:PATH".  On failure returns PP_E_INVAL (malformed endpoint) or
 * PP_E_LINK (cannot connect) with a message naming the endpoint in err.
 */
int pp_link_rbb_open(const char *endpoint, struct pp_link **out, char *err, size_t errlen);

#endif
