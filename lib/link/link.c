/*
 * link.c - the generic half of struct pp_link.  A driver allocates its
 * struct pp_link with calloc and frees only its priv in ops->close; the
 * struct itself goes here, so every driver is closed the same way.
 */
#include <stdlib.h>

#include "link/link.h"

void pp_link_close(struct pp_link *l)
{
    if (!l)
        return;
    if (l->ops && l->ops->close)
        l->ops->close(l);
    free(l);
}
