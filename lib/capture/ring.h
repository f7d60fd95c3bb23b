/*
 * ring.h - a lock-free single-producer/single-consumer ring of fixed-size
 * slots (internal), between the capture's sampler thread and its writer
 * thread.
 *
 * One thread claims and publishes slots, one other thread peeks and
 * releases them; no locks, no system calls: the two indices are C11
 * atomics, each written by one side only, published with release and
 * read with acquire so a slot's bytes are visible before its index is.
 * Waiting (ring full, ring empty) is the caller's business: the capture
 * engine sleeps briefly and retries, and records the time it waited.
 */
#ifndef PP_CAP_RING_H
#define PP_CAP_RING_H

#include <stddef.h>
#include <stdint.h>

struct pp_ring;

/*
 * A ring of at least nslots slots of slot_size bytes (rounded up to 8;
 * nslots rounded up to a power of two, at least 2).  NULL when nslots or
 * slot_size is 0, or out of memory.  Slots are 8-byte aligned.
 */
struct pp_ring *pp_ring_new(size_t slot_size, size_t nslots);
void pp_ring_free(struct pp_ring *r);

size_t pp_ring_capacity(const struct pp_ring *r);   /* slots */
size_t pp_ring_slot_size(const struct pp_ring *r);  /* bytes, as rounded */

/* Producer side.  The next free slot, or NULL when the ring is full; the
 * same slot until published. */
void *pp_ring_claim(struct pp_ring *r);
/* Hands the claimed slot to the consumer. */
void pp_ring_publish(struct pp_ring *r);
/* Free slots as the producer sees them (may grow meanwhile, never shrink). */
size_t pp_ring_space(const struct pp_ring *r);

/* Consumer side.  The oldest published slot, or NULL when empty. */
const void *pp_ring_peek(struct pp_ring *r);
/* Gives the peeked slot back to the producer. */
void pp_ring_release(struct pp_ring *r);
/* Published, unreleased slots as the consumer sees them. */
size_t pp_ring_used(const struct pp_ring *r);

#endif
