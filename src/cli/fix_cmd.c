/* fix_cmd.c — `purist fix`: options to fix_opts, plan, apply, report.
 *
 * Output: with --dry-run the diff alone on stdout (or -o), so it can be
 * piped to `git apply`; otherwise one line per edit on stdout. Notes (what
 * was skipped and why) and errors go to stderr; --quiet keeps the errors. */
#include "cli/cmd.h"
#include "cli/fix_cmd.h"
#include "cli/fix_check.h"
#include "cli/scope.h"
#include "cli/inputs.h"
#include "cli/project.h"
#include "fix/fix.h"
#include "util/replace.h"
#include <errno.h>
#include <string.h>

int fix_cmd_spelling(const char *s, fix_opts *fo, char **names)
{
  *names = NULL;
  if (!s) return 0;
  if (!strcmp(s, "gnu")) fo->spelling = FIX_SPELL_GNU;
  else if (!strcmp(s, "c23")) fo->spelling = FIX_SPELL_C23;
  else if (!strcmp(s, "std")) fo->spelling = FIX_SPELL_STD;   /* C23's [[unsequenced]] (issue 15) */
  else if (!strncmp(s, "macro:", 6) && s[6] && s[6] != ',') {
    fo->spelling = FIX_SPELL_MACRO;
    *names = xstrdup(s + 6);
    char *comma = strchr(*names, ',');
    if (comma) *comma = '\0';
    fo->macro_pure = *names;
    fo->macro_const = comma && comma[1] ? comma + 1 : NULL;
  } else {
    fprintf(stderr, "purist: --spelling wants gnu, c23, std or macro:NAME[,NAME], not '%s'\n", s);
    return -1;
  }
  return 0;
}

static void fix_cmd_notes(const fix_notes *n, bool quiet)
{
  for (size_t i = 0; i < n->n; i++)
    if (n->v[i].error || !quiet) fprintf(stderr, "%s\n", n->v[i].text);
}

static bool fix_cmd_has_error(const fix_notes *n)
{
  for (size_t i = 0; i < n->n; i++)
    if (n->v[i].error) return true;
  return false;
}

/* Applies the plan: the diff to the output, or the files in place. */
static int fix_cmd_apply(const cli_opts *o, const fix_plan *pl, const char *root)
{
  FILE *out = o->dry_run ? cmd_open_output(o) : stdout;   /* -o is written atomically */
  if (!out) return EXIT_INPUT;
  fix_result res;
  int rc = fix_plan_apply(pl, root, NULL, o->dry_run ? out : NULL, &res) < 0 ? EXIT_INPUT : EXIT_OK;
  if (!o->dry_run)
    for (size_t i = 0; i < res.applied.n; i++) {
      const fix_edit_info *e = fix_plan_edit(pl, res.applied.v[i]);
      const char *rel = fix_rel(e->file, root);
      printf("%s:%u:%u: '%s': %s\n", rel ? rel : e->file, e->line, e->col, e->function, e->what);
    }
  fix_cmd_notes(&res.notes, o->quiet);
  if (!o->quiet)
    fprintf(stderr, "purist: fix: %u edit%s in %u file%s%s%s\n", res.edits, res.edits == 1 ? "" : "s",
            res.files_written, res.files_written == 1 ? "" : "s", o->dry_run ? " (dry run: nothing written)" : "",
            res.files_refused ? "; some files refused, see above" : "");
  if (out != stdout && cmd_close_output(o, out) != EXIT_OK) rc = EXIT_INPUT;
  if (fflush(stdout) != 0) rc = EXIT_INPUT;
  fix_result_free(&res);
  return rc;
}

/* --check-build: the plan applied between two compiles of the database;
 * every edit undone if a TU that compiled before no longer does. */
static int fix_cmd_apply_checked(const cli_opts *o, const fix_plan *pl, const char *root)
{
  fe_jobs jobs = {0};
  int *ok_before = NULL;
  if (fix_check_before(o, &jobs, &ok_before) < 0) { cdb_jobs_free(&jobs); return EXIT_INPUT; }
  fix_snapshot snap;
  fix_check_snapshot(pl, &snap);
  int rc = fix_cmd_apply(o, pl, root);
  int broken = fix_check_after(o, &jobs, ok_before);
  if (broken != 0) {
    rc = EXIT_INPUT;
    if (fix_check_restore(&snap) == 0)
      fprintf(stderr, "purist: fix --check-build: every edit undone: the files are as they were\n");
  } else if (!o->quiet) {
    fprintf(stderr, "purist: fix --check-build: all %zu files of the compile database still compile\n", jobs.n);
  }
  fix_check_free(&snap);
  free(ok_before);
  cdb_jobs_free(&jobs);
  return rc;
}

/* What a fix killed between link and rename left (util/replace.h), in
 * each directory of the analysed files once. */
static void fix_cmd_clean(const link_prog *p)
{
  strtab *dirs = strtab_new();
  for (size_t i = 0; i < p->files.n; i++) {
    const char *f = strtab_get(p->strs, p->files.v[i].file);
    const char *slash = strrchr(f, '/');
    uint32_t n = strtab_count(dirs);
    if (slash && strtab_intern_n(dirs, f, (size_t)(slash == f ? 1 : slash - f)) == n)
      file_replace_clean_dir(strtab_get(dirs, n));
  }
  strtab_free(dirs);
}

static bool fix_cmd_wants(const void *sc, const char *file)
{
  return scope_wants_file(sc, file);
}

int fix_cmd_run(const cli_opts *o, link_prog *p, const char *root)
{
  scope sc;
  fix_opts fo = { .root = root, .include_mnr = o->include_mnr, .fix_misuse = o->fix_misuse, .all = o->all,
                  .whole_program = o->whole_program, .want = fix_cmd_wants, .want_ctx = &sc };
  char *names = NULL, *err = NULL;
  if (fix_cmd_spelling(o->spelling, &fo, &names) < 0) return EXIT_INPUT;
  scope_init(&sc, o, root);
  cmd_solve(o, p, root);
  if (!o->dry_run) fix_cmd_clean(p);
  fix_plan *pl = fix_plan_new(p, &fo, &err);
  int rc = EXIT_INPUT;
  if (!pl) {
    fprintf(stderr, "purist: %s\n", err);
    free(err);
  } else {
    fix_cmd_notes(fix_plan_notes(pl), o->quiet);
    rc = o->check_build && !o->dry_run ? fix_cmd_apply_checked(o, pl, root) : fix_cmd_apply(o, pl, root);
    if (fix_cmd_has_error(fix_plan_notes(pl))) rc = EXIT_INPUT;
    fix_plan_free(pl);
  }
  scope_free(&sc);
  free(names);
  return rc;
}

/* fix: the program from --from summaries or a fresh analysis, then the
 * edits (cli/fix_cmd.c). TUs that failed are reported and make it exit 2;
 * their functions have no body here, so nothing of theirs is edited. A
 * summary file that cannot be read whole edits nothing. */
int cmd_fix(const cli_opts *o, const kb *k)
{
  char *root = NULL;
  int failed = 0;
  link_prog *p;
  if (o->from) {
    p = link_new(k, o->strict);
    inputs_count n = {0};
    inputs_add_file(p, o->from, o->quiet, &n);
    failed = n.bad > 0 || n.records == 0;
    root = project_root_for_link(o);
    p = cmd_refuse_clobber(o, p);
  } else {
    p = cmd_analyze(o, k, &root, &failed, NULL);
  }
  int rc = p && !(o->from && failed) ? fix_cmd_run(o, p, root) : EXIT_INPUT;
  link_free(p);
  free(root);
  return failed ? EXIT_INPUT : rc;
}
