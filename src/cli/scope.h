/* scope.h — what the report covers: the files named with -p DIR FILE...,
 * --include / --exclude globs and --checks (or their .purist keys). The
 * analysis always sees the whole program; only the report is narrowed,
 * so a function's class never depends on what is shown. */
#ifndef PURIST_SCOPE_H
#define PURIST_SCOPE_H
#include <stdbool.h>
#include "cli/options.h"
#include "report/diag.h"

typedef struct {
  char *root;              /* the project root, absolute, no trailing '/' */
  const cli_strs *includes, *excludes, *checks;
  VEC(char *) only;        /* -p DIR FILE...: their real paths; empty: every file */
} scope;

/* The scope of o's report, for a project rooted at root. */
void scope_init(scope *s, const cli_opts *o, const char *root);
void scope_free(scope *s);
/* Is a function or finding in this file (absolute) reported? */
bool scope_wants_file(const scope *s, const char *abs_path);
/* Is a finding reported at its place (or, with files named, for the
 * function it concerns, defined in one of them)? */
bool scope_wants_diag_file(const scope *s, const diag *d);
/* Is a finding of this check reported (--checks, clang-tidy's rules)? */
bool scope_wants_check(const scope *s, const char *check);
/* Drops the findings out of scope. */
void scope_filter_diags(const scope *s, diag_list *l);

#endif
