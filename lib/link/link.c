/*
 * link.c - the generic half of struct pp_link.  A driver allocates its
 * struct pp_link with calloc and frees only its priv in ops->close; the
 * struct itself goes here, so every driver is closed the same way.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "link/link.h"

void pp_link_close(struct pp_link *l)
{
    if (!l)
        return;
    if (l->ops && l->ops->close)
        l->ops->close(l);
    free(l);
}

static void sleep_ms(unsigned ms)
{
    struct timespec ts = { .tv_sec = ms / 1000u, .tv_nsec = (long)(ms % 1000u) * 1000000L };

    while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
        ;
}

int pp_link_reset_pulse(struct pp_link *l, bool trst, bool srst, unsigned hold_ms)
{
    int rc;

    if (!l->ops->reset) {
        snprintf(l->errmsg, sizeof(l->errmsg), "%s: the link has no reset pins",
                 l->ops->name);
        return PP_E_UNSUPPORTED;
    }
    rc = l->ops->reset(l, trst, srst);
    if (rc != PP_OK)
        return rc;
    sleep_ms(hold_ms);
    return l->ops->reset(l, false, false);
}
