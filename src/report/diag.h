/* diag.h — findings of check, suggest and explain, and their output.
 *
 * A diagnostic is one finding at one place: GCC-style severity, a check
 * name (`misuse`, `cheat`, `suggest-const`, `suggest-pure`, `dead-call`,
 * `redundant-call`, `loop-invariant-call`, or a refinement such as
 * `misuse-void` whose prefix is one of those), the function it concerns, a
 * message, and related locations (the witness chain: "via helper_level",
 * "reads global 'verbosity' here"). Paths are stored as they will be
 * printed: relative to the project root when inside it, else absolute;
 * `abs_file` keeps the absolute path for reading source lines.
 *
 * The folder (docs/layout.md) owns diagnostics, the reason texts and every
 * output format (text, JSON, SARIF, HTML); it reads the solved program
 * (link/) and calls util/. */
#ifndef PURIST_DIAG_H
#define PURIST_DIAG_H
#include <stdbool.h>
#include <stdio.h>
#include "util/vec.h"

typedef enum { DIAG_NOTE = 0, DIAG_WARNING = 1, DIAG_ERROR = 2 } diag_severity;

typedef struct {
  char *file, *abs_file;
  unsigned line, column;
  char *message;
} diag_related;

typedef struct {
  char *check;          /* "misuse", "suggest-const", … */
  diag_severity severity;
  char *file, *abs_file;
  unsigned line, column;
  char *function;
  char *message;
  VEC(diag_related) related;
  char *decl_abs_file;  /* the function's declaration, for suppression there; NULL if none */
  unsigned decl_line;
  const char *c23;      /* the function's C23 class (a static string: "unsequenced", …), shown in
                           SARIF's result properties; NULL when not known (issue 15) */
  int gain;             /* suggestions: call sites in other files the attribute lets the
                           compiler delete, merge or hoist; -1 on other findings (issue 19) */
  bool public_api;      /* suggestions: external and declared in a header, so callers outside
                           the analysed code gain too */
} diag;

typedef VEC(diag) diag_list;

/* Appends a diagnostic; copies every string. Returns it for adding related
 * locations. */
diag *diag_add(diag_list *l, const char *check, diag_severity sev, const char *file,
               const char *abs_file, unsigned line, unsigned column,
               const char *function, const char *message);
void diag_add_related(diag *d, const char *file, const char *abs_file, unsigned line,
                      unsigned column, const char *message);
/* Where the function the finding concerns is declared: a suppression
 * comment there hides the finding too. */
void diag_set_decl(diag *d, const char *abs_file, unsigned line);
void diag_list_free(diag_list *l);
/* Sorts by file, line, column, check, message (output is deterministic)
 * and drops exact repeats (a file the database compiles twice). */
void diag_sort(diag_list *l);
const char *diag_severity_name(diag_severity s);

#endif
