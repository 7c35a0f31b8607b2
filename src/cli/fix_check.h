/* fix_check.h — `purist fix --check-build`: the build still compiles after
 * the edits, or every edit is undone (cli/fix_check.c). */
#ifndef PURIST_FIX_CHECK_H
#define PURIST_FIX_CHECK_H
#include "cli/options.h"
#include "fix/fix.h"
#include "frontend/cdb.h"
#include <sys/stat.h>

/* One file as it was before fix wrote it. */
typedef struct {
  char *path;
  char *text;          /* NULL: could not be read (nothing to restore) */
  size_t len;
  struct stat st;
} fix_saved;
typedef VEC(fix_saved) fix_snapshot;

/* Reads every file the plan edits (before fix_plan_apply). */
void fix_check_snapshot(const fix_plan *pl, fix_snapshot *s);
/* Writes back each file that differs from its snapshot; 0, or -1 if one
 * could not be written (said on stderr). */
int fix_check_restore(const fix_snapshot *s);
void fix_check_free(fix_snapshot *s);

/* Before the edits: loads the database's jobs into *jobs and compiles
 * each; *ok_before[i] is 0 where job i compiles (caller frees). -1 if the
 * database could not be read or no temporary directory made (said). */
int fix_check_before(const cli_opts *o, fe_jobs *jobs, int **ok_before);
/* After them: compiles the jobs again; returns how many that compiled
 * before no longer do (the first one's messages on stderr), -1 if the
 * check could not run. */
int fix_check_after(const cli_opts *o, const fe_jobs *jobs, const int *ok_before);
#endif
