/* analysis.c — the project analysed for the editor: the pipeline of
 * `purist check` (cmd_analyze: the compile database, the summary cache,
 * the worker processes), then the findings of check, suggest and explain
 * and the plan of fix, kept until the next analysis. The whole database
 * is analysed every time; the cache makes that cheap: only a TU whose
 * main file or headers changed is parsed again, the others' summaries are
 * read back, and linking them is the cheap step (DESIGN.md §1). */
#include "checks/checks.h"
#include "cli/cmd.h"
#include "cli/fix_cmd.h"
#include "cli/project.h"
#include "lsp/lsp_internal.h"
#include <string.h>

void lsp_analysis_free(lsp_analysis *a)
{
  for (size_t i = 0; a->real && i < a->findings.n; i++) free(a->real[i]);
  free(a->real);
  diag_list_free(&a->findings);
  fix_plan_free(a->plan);
  free(a->gains);
  link_free(a->prog);
  run_info_free(&a->ri);
  if (a->tus) strtab_free(a->tus);
  if (a->seen) strtab_free(a->seen);
  free(a->error);
  free(a->root);
  free(a->db);
  memset(a, 0, sizeof *a);
}

/* Interns path into t with its symbolic links resolved (as given if it
 * does not exist). */
static void analysis_intern_real(strtab *t, const char *path)
{
  char *real = realpath(path, NULL);
  strtab_intern(t, real ? real : path);
  free(real);
}

/* The database's source files into a->tus; -1 with a->error if the
 * database cannot be read. */
static int analysis_list_tus(lsp_analysis *a, const cli_opts *o)
{
  fe_jobs jobs = {0};
  char *root = NULL, *err = NULL, *skipped = NULL;
  if (project_jobs(o, &jobs, &root, &err, &skipped) < 0) {
    a->error = err;
    cdb_jobs_free(&jobs);
    free(root);
    return -1;
  }
  a->tus = strtab_new();
  for (size_t i = 0; i < jobs.n; i++) analysis_intern_real(a->tus, jobs.v[i].file);
  cdb_jobs_free(&jobs);
  free(root);
  free(skipped);
  return 0;
}

/* check's, suggest's (its default set: those that gain) and explain's
 * findings, in the order each command prints them. */
static void analysis_findings(lsp_analysis *a, const cli_opts *o)
{
  checks_opts co = { a->root, o->cheats_as_errors, o->whole_program, cli_std_attrs(o), false, o->verbose };
  diag_list part = {0};
  checks_misuse(a->prog, &co, &a->findings);
  diag_sort(&a->findings);
  checks_suggest(a->prog, &co, &part);
  checks_explain(a->prog, &co, &part);
  for (size_t i = 0; i < part.n; i++) vec_push(&a->findings, part.v[i]);
  vec_free(&part);
  if (cmd_filter(o, &a->findings, a->root) < 0) diag_list_free(&a->findings);   /* said on stderr */
  a->real = xcalloc(a->findings.n ? a->findings.n : 1, sizeof *a->real);
  for (size_t i = 0; i < a->findings.n; i++) {
    const diag *d = &a->findings.v[i];
    char *real = d->abs_file ? realpath(d->abs_file, NULL) : NULL;
    a->real[i] = real ? real : xstrdup(d->abs_file ? d->abs_file : d->file);
  }
}

/* The edits fix would make, misuse included, and for every suggestion
 * (--all: public API that gains nothing in the analysed code is shown,
 * so it gets its fix too): a code action offers them one function at a
 * time, for a finding the user is looking at, and the user picks. */
static void analysis_plan(lsp_analysis *a, const cli_opts *o)
{
  fix_opts fo = { .root = a->root, .include_mnr = true, .fix_misuse = true, .all = true,
                  .whole_program = o->whole_program };
  char *names = NULL, *err = NULL;
  if (fix_cmd_spelling(o->spelling, &fo, &names) == 0) a->plan = fix_plan_new(a->prog, &fo, &err);
  if (!a->plan && err) fprintf(stderr, "purist: lsp: no code actions: %s\n", err);
  free(err);
  free(names);
}

void lsp_analysis_run(lsp_analysis *a, const cli_opts *o, const kb *k)
{
  lsp_analysis_free(a);
  a->done = true;
  a->db = o->db ? xstrdup(o->db) : NULL;
  if (analysis_list_tus(a, o) < 0) return;
  int failed = 0;
  a->ri.command = "lsp";
  a->prog = cmd_analyze(o, k, &a->root, &failed, &a->ri);
  if (!a->prog) {
    a->error = xstrdup("the project could not be analysed (the server's log says why)");
    return;
  }
  cmd_solve(o, a->prog, a->root);
  a->seen = strtab_new();
  for (size_t i = 0; i < a->prog->files.n; i++)
    analysis_intern_real(a->seen, strtab_get(a->prog->strs, a->prog->files.v[i].file));
  analysis_findings(a, o);
  analysis_plan(a, o);
  a->gains = checks_gains_new(a->prog, checks_whole_program(a->prog, o->whole_program));
}
