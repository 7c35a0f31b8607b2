/* fix_check.c — `purist fix --check-build` (issue 29, item 6): after the
 * edits are written, every TU of the compile database is compiled again
 * with its own command (as the database has it, with -fsyntax-only in
 * place of the outputs); if one no longer compiles, every edited file gets
 * its old text back (atomically, as fix writes) and fix exits 2 with the
 * compiler's words.
 *
 * The command is the database's own (impact/compile.c: outputs dropped,
 * -Werror kept: a new warning that fails the build is a broken build).
 * Why every TU and not only those that include an edited file: the
 * analysis keeps no per-TU list of includes once it has linked, and
 * -fsyntax-only is cheap beside the analysis itself; a TU that did not
 * compile before fix (its flags are wrong here, a generated header is
 * missing) is compiled before the edits too and does not count. */
#include "cli/fix_check.h"
#include "cli/cmd.h"
#include "cli/project.h"
#include "impact/compile.h"
#include "util/fileio.h"
#include "util/replace.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void fix_check_snapshot(const fix_plan *pl, fix_snapshot *s)
{
  memset(s, 0, sizeof *s);
  for (size_t i = 0; i < fix_plan_count(pl); i++) {
    const char *file = fix_plan_edit(pl, i)->file;
    bool seen = false;
    for (size_t k = 0; k < s->n && !seen; k++) seen = !strcmp(s->v[k].path, file);
    if (seen) continue;
    fix_saved f = { xstrdup(file), NULL, 0, { 0 } };
    if (stat(file, &f.st) == 0) f.text = file_read_all(file, &f.len);
    vec_push(s, f);
  }
}

int fix_check_restore(const fix_snapshot *s)
{
  int rc = 0;
  for (size_t i = 0; i < s->n; i++) {
    const fix_saved *f = &s->v[i];
    if (!f->text) continue;
    size_t len = 0;
    char *now = file_read_all(f->path, &len);
    bool same = now && len == f->len && !memcmp(now, f->text, len);
    free(now);
    if (same) continue;
    if (file_replace(f->path, f->text, f->len, &f->st, false) != 0) {
      fprintf(stderr, "purist: fix: could not restore %s: %s\n", f->path, strerror(errno));
      rc = -1;
    }
  }
  return rc;
}

void fix_check_free(fix_snapshot *s)
{
  for (size_t i = 0; i < s->n; i++) { free(s->v[i].path); free(s->v[i].text); }
  vec_free(s);
}

typedef struct {
  const fe_jobs *jobs;
  char *dir;           /* private temporary directory for the logs */
  int *rc;             /* per job: compile_run's answer */
} check_ctx;

static char *check_log(const check_ctx *c, size_t i) { return xasprintf("%s/%zu.log", c->dir, i); }

static void check_one(void *ctx, size_t i)
{
  check_ctx *c = ctx;
  const fe_job *j = &c->jobs->v[i];
  const char *name = NULL;
  char *cc = compile_find_compiler(j, &name), *err = NULL, *log = check_log(c, i);
  if (!cc) { c->rc[i] = -1; free(log); return; }
  char **argv = compile_syntax_argv(j, cc);
  c->rc[i] = compile_run(argv, j->dir, log, &err);
  free(err);
  compile_argv_free(argv);
  free(cc);
  free(log);
}

static const char *check_label(void *ctx, size_t i) { return ((check_ctx *)ctx)->jobs->v[i].file; }

/* Compiles every job; rc[i] per job. */
static int check_run(const cli_opts *o, const fe_jobs *jobs, check_ctx *c)
{
  const char *tmp = getenv("TMPDIR");
  c->dir = xasprintf("%s/purist-check-build-XXXXXX", tmp && *tmp ? tmp : "/tmp");
  if (!mkdtemp(c->dir)) {
    fprintf(stderr, "purist: fix --check-build: %s: %s\n", c->dir, strerror(errno));
    return -1;
  }
  c->jobs = jobs;
  c->rc = xcalloc(jobs->n ? jobs->n : 1, sizeof *c->rc);
  pipeline_each(jobs->n, cmd_jobs_count(o), PIPE_PROGRESS_NONE, check_one, check_label, c);
  return 0;
}

static void check_done(check_ctx *c)
{
  for (size_t i = 0; c->jobs && i < c->jobs->n; i++) {
    char *log = check_log(c, i);
    unlink(log);
    free(log);
  }
  if (c->dir) rmdir(c->dir);
  free(c->dir);
  free(c->rc);
}

int fix_check_before(const cli_opts *o, fe_jobs *jobs, int **ok_before)
{
  char *root = NULL, *err = NULL;
  *ok_before = NULL;
  if (project_jobs(o, jobs, &root, &err, NULL) < 0) {
    fprintf(stderr, "purist: fix --check-build: %s\n", err);
    free(err);
    return -1;
  }
  free(root);
  check_ctx c = { 0 };
  if (check_run(o, jobs, &c) < 0) { check_done(&c); return -1; }
  *ok_before = c.rc;
  c.rc = NULL;
  check_done(&c);
  return 0;
}

int fix_check_after(const cli_opts *o, const fe_jobs *jobs, const int *ok_before)
{
  check_ctx c = { 0 };
  if (check_run(o, jobs, &c) < 0) { check_done(&c); return -1; }
  int broken = 0;
  for (size_t i = 0; i < jobs->n; i++) {
    if (ok_before[i] != 0 || c.rc[i] == 0) continue;
    if (!broken++) {
      char *log = check_log(&c, i);
      size_t len = 0;
      char *text = file_read_all(log, &len);
      fprintf(stderr, "purist: fix --check-build: %s no longer compiles after the edits:\n%s", jobs->v[i].file,
              text ? text : "(no message)\n");
      free(text);
      free(log);
    }
  }
  if (broken > 1) fprintf(stderr, "purist: fix --check-build: %d more files no longer compile\n", broken - 1);
  check_done(&c);
  return broken;
}
