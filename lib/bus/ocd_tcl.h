/*
 * ocd_tcl.h - building TCL scripts for OpenOCD safely, and reading its
 * TCL lists back (internal to the openocd access path).
 *
 * Only three kinds of text go into a script: constant text from our own
 * code (pp_tcl_raw), numbers (pp_tcl_u32, pp_tcl_uint) and names checked
 * against a strict alphabet (pp_tcl_name).  Anything else becomes one
 * quoted word (pp_tcl_word) in which every character that means something
 * to the TCL parser is backslash-escaped, so a user's string can never
 * start a command, a substitution or a new word.
 */
#ifndef PP_OCD_TCL_H
#define PP_OCD_TCL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A growing script.  On out-of-memory the buffer stops growing and oom is
 * set; callers check once at the end (pp_tcl_str returns NULL). */
struct pp_tcl_buf {
    char  *s;
    size_t len, cap;
    bool   oom;
};

void pp_tcl_init(struct pp_tcl_buf *b);
void pp_tcl_free(struct pp_tcl_buf *b);
/* The script so far, NUL-terminated; NULL after an allocation failure. */
const char *pp_tcl_str(const struct pp_tcl_buf *b);

/* Constant script text from our own code, appended as is.  Never pass
 * anything derived from input here. */
void pp_tcl_raw(struct pp_tcl_buf *b, const char *text);
/* The word functions put one space before the word unless the script is
 * empty or ends in white space, '[' or '{'. */
void pp_tcl_u32(struct pp_tcl_buf *b, uint32_t v);      /* 0x1f */
void pp_tcl_uint(struct pp_tcl_buf *b, uint64_t v);     /* 31 */
/* A name of an OpenOCD object (target, DAP): [A-Za-z0-9_.-]+, not starting
 * with '-' (it would read as an option), at most 63 characters.  Returns
 * false and appends nothing otherwise. */
bool pp_tcl_name_ok(const char *name);
bool pp_tcl_name(struct pp_tcl_buf *b, const char *name);
/* Any string as exactly one word whose value is that string. */
void pp_tcl_word(struct pp_tcl_buf *b, const char *s);

/*
 * Splits a TCL list (as OpenOCD returns it) into its elements: words
 * separated by white space, {braced} elements kept literally (nested
 * braces balanced), "quoted" and bare elements with backslash
 * substitution.  *elems is one allocation holding the pointers and the
 * strings: free it with free().  Returns 0, or -1 on a malformed list
 * (unbalanced braces or quotes) or out of memory.
 */
int pp_tcl_split(const char *list, char ***elems, size_t *n);

/* "0x1f", "31", with surrounding white space allowed (OpenOCD's command
 * output ends in a newline).  false unless the whole text is one number
 * that fits. */
bool pp_tcl_parse_u32(const char *s, uint32_t *v);
bool pp_tcl_parse_u64(const char *s, uint64_t *v);

#endif
