/* impact.h — what the attributes bought: call instructions and text bytes
 * of each TU before and after, per function and in total.
 *
 *   impact_tu before, after;                   // one per TU and side
 *   impact_measure(s_path, o_path, &before, &err);
 *   impact_totals t = {0};
 *   impact_compare(&t, &before, &after, "src/a.c");   // for every TU
 *   impact_sort(&t);  impact_print_text(stdout, &t, 10);
 *
 * A function is matched by (TU, C name); one that exists on one side only
 * (inlined everywhere after the change, say) counts as 0 calls and 0 bytes
 * on the other. Removed and added calls are summed per function, so an
 * inlining that adds calls in one function is not hidden by removals in
 * another.
 *
 * The folder (docs/layout.md) owns `purist impact`: the tree copy, the
 * compiles, text sizes and the assembly scan; it calls the compile
 * databases' words (frontend/cdb.h) and util/. */
#ifndef PURIST_IMPACT_H
#define PURIST_IMPACT_H
#include <stdio.h>
#include "util/vec.h"

typedef struct {
  char *name;
  unsigned calls;
  unsigned long bytes;
} impact_fn;

/* One TU compiled once. */
typedef struct {
  VEC(impact_fn) fns;
  unsigned long text;    /* bytes of executable sections in the object */
} impact_tu;

typedef struct {
  char *name;
  char *file;            /* the TU, relative to the project root */
  unsigned long calls_before, calls_after;
  unsigned long bytes_before, bytes_after;
} impact_row;

typedef struct {
  unsigned long calls_before, calls_after, calls_removed, calls_added;
  unsigned long text_before, text_after;
  size_t tus;            /* TUs compared */
  size_t unchanged;      /* TUs not compiled: they read no file the plan edits (impact/deps.h) */
  VEC(char *) compared;  /* the TUs compared, relative to the root, in database order */
  VEC(impact_row) rows;  /* functions whose calls or bytes changed */
} impact_totals;

/* Measures one compiled TU: calls from the assembly at s_path, sizes from
 * the object at o_path. Returns 0, or -1 with *err (caller frees). */
int impact_measure(const char *s_path, const char *o_path, impact_tu *tu, char **err);
void impact_tu_fini(impact_tu *tu);

/* Adds one TU's before and after to the totals. */
void impact_compare(impact_totals *t, const impact_tu *before, const impact_tu *after, const char *file);
/* Orders the rows: biggest change in calls first, then in bytes, then by
 * file and name (a stable, reproducible order). */
void impact_sort(impact_totals *t);
void impact_totals_free(impact_totals *t);

/* Text report: totals, then the `top` rows with the biggest change. */
void impact_print_text(FILE *out, const impact_totals *t, size_t top);
/* JSON report: {"version":1,"calls_before",…,"functions":[…]} (README). */
void impact_print_json(FILE *out, const impact_totals *t);

#endif
