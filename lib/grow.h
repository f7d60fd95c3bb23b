/*
 * grow.h - room in a growing array, doubled from a first size, so that
 * appending n elements one by one costs O(n) copies in all.
 */
#ifndef PP_GROW_H
#define PP_GROW_H

#include <stdlib.h>

/* buf (of *cap elements of elem bytes) with room for need elements: buf
 * itself when it has it, else reallocated to first, or to *cap doubled
 * until need fits.  A NULL buf is always allocated (first elements at
 * least), so NULL means OOM and nothing else; buf and *cap are then
 * untouched (the caller still owns buf). */
static inline void *pp_grow(void *buf, size_t *cap, size_t need, size_t elem, size_t first)
{
    size_t ncap = *cap && buf ? *cap : first;
    void *p;

    if (buf && need <= *cap)
        return buf;
    while (ncap < need)
        ncap *= 2;
    p = realloc(buf, ncap * elem);
    if (p)
        *cap = ncap;
    return p;
}

#endif
