/*
 * editdist.h - how far apart two names are, for "did you mean" in every
 * place that takes a name (registers, events, target-file keys).
 */
#ifndef PP_EDITDIST_H
#define PP_EDITDIST_H

#define PP_EDIT_MAX_LEN 64u          /* longer names are never close */
#define PP_EDIT_FAR     0xFFFFFFFFu  /* the distance given for them */

/* Levenshtein distance, ignoring ASCII case; PP_EDIT_FAR when either
 * string is longer than PP_EDIT_MAX_LEN. */
unsigned pp_edit_distance(const char *a, const char *b);

#endif
