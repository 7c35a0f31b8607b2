/* project.h — finding the inputs: compile database or files, and the root. */
#ifndef PURIST_PROJECT_H
#define PURIST_PROJECT_H
#include "cli/options.h"
#include "cli/skip.h"
#include "frontend/cdb.h"

/* Fills jobs from the files on the command line (no -p), or from the
 * compile database (-p, else ./ or build/), every file named being one it
 * compiles, with the flags after "--" added to every entry. *root receives the project root
 * (absolute; caller frees). Returns 0, or -1 with *err (caller frees).
 * With skipped, bad database entries are left out and listed there
 * (cdb_load_lenient); with skipped NULL, one fails the load. */
int project_jobs(const cli_opts *o, fe_jobs *jobs, char **root, char **err, char **skipped);
/* The same, listing in *left the database's entries skip.h leaves out
 * (probes, --skip; project_jobs leaves them out silently: its callers
 * have analysed the project first, which said so). If nothing is left,
 * that is the error. */
int project_jobs_skip(const cli_opts *o, fe_jobs *jobs, char **root, char **err, char **skipped, skip_list *left);
/* Files named without -p and without "--": the compile database in . or
 * build/, when there is one, becomes -p (said in one line on stderr). */
void project_resolve(cli_opts *o);
/* Where .purist is looked for first (then upward): --root, else the
 * project root of the database (its CMake or Meson source directory, or its
 * directory), else the current directory. Absolute; caller frees. */
char *project_config_start(const cli_opts *o);
/* -p DIR FILE...: the whole database is analysed, the report narrowed to
 * the files named. */
bool project_narrows(const cli_opts *o);
/* --root if given (made absolute), else the current directory. */
char *project_root_default(const cli_opts *o);
/* For link: --root, else the project of -p, else the current directory. */
char *project_root_for_link(const cli_opts *o);

/* The summary cache directory (absolute; caller frees): --cache-dir, else
 * $PURIST_CACHE_DIR, else $XDG_CACHE_HOME/purist, else ~/.cache/purist —
 * one cache for every project (its keys hold paths and contents), never
 * in a source tree unless asked; NULL without HOME or any of these. */
char *project_cache_dir(const cli_opts *o);
/* The cache purist wrote before issue 20, .purist-cache beside the
 * compile database (-p, else . or build/), if there is one; else NULL. */
char *project_old_cache_dir(const cli_opts *o);

#endif
