/*
 * editdist.c - case-insensitive Levenshtein distance with two rows on the
 * stack: names are short, and no caller should allocate to make a hint.
 */
#include <ctype.h>
#include <string.h>

#include "editdist.h"

unsigned pp_edit_distance(const char *a, const char *b)
{
    unsigned row[2][PP_EDIT_MAX_LEN + 1];
    size_t la = strlen(a), lb = strlen(b);

    if (la > PP_EDIT_MAX_LEN || lb > PP_EDIT_MAX_LEN)
        return PP_EDIT_FAR;
    for (size_t j = 0; j <= lb; j++)
        row[0][j] = (unsigned)j;
    for (size_t i = 1; i <= la; i++) {
        const unsigned *prev = row[(i - 1) & 1];
        unsigned *cur = row[i & 1];

        cur[0] = (unsigned)i;
        for (size_t j = 1; j <= lb; j++) {
            unsigned sub = prev[j - 1] +
                (tolower((unsigned char)a[i - 1]) != tolower((unsigned char)b[j - 1]));
            unsigned del = prev[j] + 1, ins = cur[j - 1] + 1;
            unsigned best = sub < del ? sub : del;

            cur[j] = best < ins ? best : ins;
        }
    }
    return row[la & 1][lb];
}
