/* ppdir.h — preprocessor directives read from source text. */
#ifndef PURIST_PPDIR_H
#define PURIST_PPDIR_H
#include <stdbool.h>
#include <stdint.h>

/* The directive on the logical line starting at s (NUL-terminated text;
 * continuations joined, comments and runs of blanks squeezed), without the
 * '#'; NULL if the line is not a directive (caller frees). *next gets the
 * start of the following line, *lines the physical lines it spans. */
char *pp_directive(const char *s, const char **next, uint32_t *lines);
/* Is directive d (from pp_directive) the one named word ("if", "endif")? */
bool pp_is(const char *d, const char *word);

#endif
