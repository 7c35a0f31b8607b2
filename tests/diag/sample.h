/* sample.h — the fixed diagnostic list the diag tests print, over small
 * source files written to a scratch directory, and golden-file helpers. */
#ifndef PURIST_DIAG_SAMPLE_H
#define PURIST_DIAG_SAMPLE_H
#include <stdio.h>
#include "report/diag.h"

/* Writes api.h and util.c into dir and fills l (sorted) with findings that
 * point into them and into an unreadable absolute path: every check, a
 * refinement (misuse-void), related locations, a tab and a UTF-8 character
 * before a column. 2 errors, 5 warnings, 1 note. Returns 0 or -1. */
int sample_build(const char *dir, diag_list *l);
/* Appends to l a finding at `line` of dir/name whose column is that of the
 * first `needle` on that line (1-based, in bytes). */
diag *sample_add_at(diag_list *l, const char *dir, const char *name, unsigned line,
                    const char *needle, const char *check, diag_severity sev,
                    const char *function, const char *message);
/* Everything print(out) writes, as a string the caller frees. */
char *sample_capture(int (*print)(FILE *out, void *ctx), void *ctx);
/* Compares text with tests/diag/golden/<name>; with PURIST_UPDATE_GOLDEN=1
 * in the environment, rewrites the golden file instead. Fails the test on
 * a difference (cmocka). */
void sample_golden(const char *name, const char *text);

#endif
