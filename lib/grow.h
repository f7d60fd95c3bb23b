/*
 * grow.h - room in a growing array, doubled from a first size, so that
 * appending n elements one by one costs O(n) copies in all.
 */
#ifndef PP_GROW_H
#define PP_GROW_H

#include <stdlib.h>

/* buf (of *cap elements of elem bytes) with room for need elements: buf
 * itself when it has it, else reallocated to first (at least 1), or to
 * *cap doubled until need fits.  A NULL buf is always allocated (first
 * elements at least), so NULL means out of memory (or a size beyond
 * size_t) and nothing else; buf and *cap are then untouched (the caller
 * still owns buf). */
static inline void *pp_grow(void *buf, size_t *cap, size_t need, size_t elem, size_t first)
{
    size_t ncap = *cap && buf ? *cap : first ? first : 1;
    void *p;

    if (buf && need <= *cap)
        return buf;
    if (elem == 0 || need > (size_t)-1 / elem)
        return NULL;
    while (ncap < need)
        ncap = ncap > (size_t)-1 / 2 ? need : ncap * 2;
    if (ncap > (size_t)-1 / elem)
        ncap = need;              /* doubling went past what fits: just enough */
    p = realloc(buf, ncap * elem);
    if (p)
        *cap = ncap;
    return p;
}

#endif
