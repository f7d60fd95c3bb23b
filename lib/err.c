/*
 * err.c - names and messages of call results and per-operation statuses,
 * both generated from the lists in pmuprobe.h; and the one writer of
 * message buffers (errmsg.h).
 */
#include <stdarg.h>
#include <stdio.h>

#include "errmsg.h"
#include "pmuprobe.h"

const char *pp_strerror(int err)
{
    switch (err) {
#define PP_ERR_MSG(name, value, msg) case name: return msg;
    PP_ERRORS(PP_ERR_MSG)
#undef PP_ERR_MSG
    }
    return "unknown error";
}

const char *pp_errname(int err)
{
    switch (err) {
#define PP_ERR_NAME(name, value, msg) case name: return #name;
    PP_ERRORS(PP_ERR_NAME)
#undef PP_ERR_NAME
    }
    return "PP_E_UNKNOWN";
}

const char *pp_op_status_str(int st)
{
    switch (st) {
#define PP_OPST_MSG(name, value, shortname, msg) case name: return msg;
    PP_OP_STATUSES(PP_OPST_MSG)
#undef PP_OPST_MSG
    }
    return "unknown status";
}

const char *pp_op_status_name(int st)
{
    switch (st) {
#define PP_OPST_NAME(name, value, shortname, msg) case name: return shortname;
    PP_OP_STATUSES(PP_OPST_NAME)
#undef PP_OPST_NAME
    }
    return "unknown";
}

int pp_op_status_err(int st)
{
    switch (st) {
    case PP_OP_OK:      return PP_OK;
    case PP_OP_SKIPPED: return PP_OK;
    case PP_OP_SLVERR:  return PP_E_SLVERR;
    case PP_OP_FAULT:   return PP_E_FAULT;
    case PP_OP_WAIT:    return PP_E_WAIT;
    case PP_OP_LINK:    return PP_E_LINK;
    default:            return PP_E_IO;
    }
}

void pp_errmsg(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;

    if (!err || !errlen)
        return;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
}

/* Peer bytes in a message are escaped: a hostile OpenOCD or remote_bitbang
 * peer must not reach the user's terminal with escape sequences. */
void pp_escape(char *dst, size_t dstlen, const char *src, size_t n)
{
    size_t o = 0;

    if (!dst || !dstlen)
        return;
    for (size_t i = 0; i < n && src[i] && o + 5 < dstlen; i++) {
        unsigned char c = (unsigned char)src[i];

        if (c == '\\')
            o += (size_t)snprintf(dst + o, dstlen - o, "\\\\");
        else if (c < 0x20 || c >= 0x7F)
            o += (size_t)snprintf(dst + o, dstlen - o, "\\x%02X", c);
        else
            dst[o++] = (char)c;
    }
    dst[o] = '\0';
}
