/* skip.h — compile-database entries left out of the analysis altogether
 * (never parsed): the build system's probes, which are meant not to
 * compile (autoconf's conftest.c, CMake's try_compile and compiler
 * identification sources, recorded by bear or a compile database), and
 * the files --skip GLOB (.purist `skip:`) names. A file named on the
 * command line is always analysed. Unlike --exclude, which only narrows
 * the report, a skipped file's functions are unknown to the analysis. */
#ifndef PURIST_SKIP_H
#define PURIST_SKIP_H
#include "cli/options.h"
#include "frontend/cdb.h"

typedef struct {
  char *file;        /* absolute */
  char *why;         /* "a configure probe", "a CMake probe", "--skip 'GLOB'" */
  bool probe;        /* left out by default, not by --skip */
} skip_entry;

typedef VEC(skip_entry) skip_list;

/* Why the entry for abs_file is left out ("a configure probe", …; caller
 * frees), or NULL if it is analysed. globs are --skip's, relative to root
 * (absolute, no trailing '/'). */
char *skip_why(const cli_strs *globs, const char *root, const char *abs_file);
/* Removes from jobs every entry skip_why leaves out, except files named
 * on the command line (o->files), and appends each to *left. */
void skip_jobs(const cli_opts *o, const char *root, fe_jobs *jobs, skip_list *left);
/* The one line that says what was left out and why (caller frees):
 * "3 compile-database entries left out of the analysis: 2 configure or
 * CMake probes (conftest.c, …), 1 matching --skip (src/gen.c)"; paths
 * relative to root. NULL if nothing was. */
char *skip_describe(const skip_list *left, const char *root);
void skip_list_free(skip_list *left);

#endif
