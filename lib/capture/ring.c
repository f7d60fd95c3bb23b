/*
 * ring.c - the SPSC ring of ring.h.
 *
 * head counts slots published (written by the producer only), tail counts
 * slots released (written by the consumer only); both run freely as
 * 64-bit counters and are masked into the slot array, so full (head -
 * tail == capacity) and empty (head == tail) never look alike.  Each side
 * keeps a cached copy of the other side's index and re-reads the shared
 * one only when the cache says full or empty: the common case touches
 * no cache line the other thread writes.
 */
#include <stdalign.h>
#include <stdatomic.h>
#include <stdlib.h>

#include "capture/ring.h"

#define CACHE_LINE 64

struct pp_ring {
    /* producer's line */
    alignas(CACHE_LINE) _Atomic uint64_t head;
    uint64_t tail_seen;              /* producer's cache of tail */
    /* consumer's line */
    alignas(CACHE_LINE) _Atomic uint64_t tail;
    uint64_t head_seen;              /* consumer's cache of head */
    /* read-only after pp_ring_new */
    alignas(CACHE_LINE) size_t mask, slot_size;
    unsigned char *slots;
};

static size_t pow2_at_least(size_t n)
{
    size_t p = 2;

    while (p < n && p <= (SIZE_MAX >> 1))
        p <<= 1;
    return p;
}

struct pp_ring *pp_ring_new(size_t slot_size, size_t nslots)
{
    struct pp_ring *r;
    size_t n, sz;

    if (!slot_size || !nslots || slot_size > SIZE_MAX / 2)
        return NULL;
    n = pow2_at_least(nslots);
    sz = (slot_size + 7u) & ~(size_t)7u;
    if (n > SIZE_MAX / sz)
        return NULL;
    /* aligned_alloc wants a multiple of the alignment: the struct is one */
    r = aligned_alloc(CACHE_LINE, sizeof(*r));
    if (!r)
        return NULL;
    r->slots = calloc(n, sz);
    if (!r->slots) {
        free(r);
        return NULL;
    }
    atomic_init(&r->head, 0);
    atomic_init(&r->tail, 0);
    r->tail_seen = 0;
    r->head_seen = 0;
    r->mask = n - 1;
    r->slot_size = sz;
    return r;
}

void pp_ring_free(struct pp_ring *r)
{
    if (!r)
        return;
    free(r->slots);
    free(r);
}

size_t pp_ring_capacity(const struct pp_ring *r)
{
    return r->mask + 1;
}

size_t pp_ring_slot_size(const struct pp_ring *r)
{
    return r->slot_size;
}

static void *slot(const struct pp_ring *r, uint64_t i)
{
    return r->slots + (size_t)(i & r->mask) * r->slot_size;
}

void *pp_ring_claim(struct pp_ring *r)
{
    uint64_t head = atomic_load_explicit(&r->head, memory_order_relaxed);

    if (head - r->tail_seen > r->mask) {
        /* acquire: the consumer is done reading the slot before we reuse it */
        r->tail_seen = atomic_load_explicit(&r->tail, memory_order_acquire);
        if (head - r->tail_seen > r->mask)
            return NULL;
    }
    return slot(r, head);
}

void pp_ring_publish(struct pp_ring *r)
{
    uint64_t head = atomic_load_explicit(&r->head, memory_order_relaxed);

    /* release: the slot's bytes become visible before the new head */
    atomic_store_explicit(&r->head, head + 1, memory_order_release);
}

size_t pp_ring_space(const struct pp_ring *r)
{
    uint64_t head = atomic_load_explicit(&r->head, memory_order_relaxed);
    uint64_t tail = atomic_load_explicit(&r->tail, memory_order_acquire);

    return (size_t)(r->mask + 1 - (head - tail));
}

const void *pp_ring_peek(struct pp_ring *r)
{
    uint64_t tail = atomic_load_explicit(&r->tail, memory_order_relaxed);

    if (tail == r->head_seen) {
        /* acquire: pairs with the producer's release in pp_ring_publish */
        r->head_seen = atomic_load_explicit(&r->head, memory_order_acquire);
        if (tail == r->head_seen)
            return NULL;
    }
    return slot(r, tail);
}

void pp_ring_release(struct pp_ring *r)
{
    uint64_t tail = atomic_load_explicit(&r->tail, memory_order_relaxed);

    /* release: our reads of the slot finish before the producer may reuse it */
    atomic_store_explicit(&r->tail, tail + 1, memory_order_release);
}

size_t pp_ring_used(const struct pp_ring *r)
{
    uint64_t tail = atomic_load_explicit(&r->tail, memory_order_relaxed);
    uint64_t head = atomic_load_explicit(&r->head, memory_order_acquire);

    return (size_t)(head - tail);
}
