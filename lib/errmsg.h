/*
 * errmsg.h - filling a caller's message buffer (internal).
 *
 * Library functions report failures as a pp_err plus a message written
 * into a buffer the caller owns (design.md rule 3: no layer prints).  This
 * is the one helper that writes it, so every layer treats a NULL buffer
 * or a zero length the same way: no message, no crash.
 */
#ifndef PP_ERRMSG_H
#define PP_ERRMSG_H

#include <stddef.h>

void pp_errmsg(char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Copies up to n bytes of src (stopping at a NUL) into dst as printable
 * ASCII: control bytes, DEL, bytes >= 0x80 and backslash become \xNN or
 * \\.  For bytes that came from a peer (OpenOCD, a remote_bitbang server,
 * a file) before they go into a message.  Truncates to fit; dst is always
 * terminated. */
void pp_escape(char *dst, size_t dstlen, const char *src, size_t n);

#endif
