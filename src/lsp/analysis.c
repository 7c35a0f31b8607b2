/* analysis.c — the project analysed for the editor: the pipeline of
 * `purist check` (cmd_analyze: the compile database, the summary cache,
 * the worker processes), then the findings of check, suggest and explain
 * kept until the next analysis; fix's plan is made when a code action
 * asks, for the functions it concerns only (planning every function of a
 * large project took longer than the rest of a save). The whole database
 * is analysed every time; the cache makes that cheap: only a TU whose
 * main file or headers changed is parsed again, the others' summaries are
 * read back, and linking them is the cheap step (DESIGN.md §1). */
#include "checks/checks.h"
#include "cli/cmd.h"
#include "cli/fix_cmd.h"
#include "cli/project.h"
#include "lsp/lsp_internal.h"
#include <string.h>
#include <time.h>

static double analysis_now(void)
{
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

void lsp_analysis_free(lsp_analysis *a)
{
  for (size_t i = 0; a->real && i < a->findings.n; i++) free(a->real[i]);
  free(a->real);
  diag_list_free(&a->findings);
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
  strtab *given = strtab_new();   /* realpath once per file, not once per finding */
  VEC(char *) real = {0};         /* by id in given (id 0 is given's empty string) */
  vec_push(&real, xstrdup(""));
  for (size_t i = 0; i < a->findings.n; i++) {
    const diag *d = &a->findings.v[i];
    const char *f = d->abs_file ? d->abs_file : d->file;
    uint32_t id = strtab_find(given, f);
    if (id == UINT32_MAX) {
      id = strtab_intern(given, f);
      char *r = realpath(f, NULL);
      vec_push(&real, r ? r : xstrdup(f));
    }
    a->real[i] = xstrdup(real.v[id]);
  }
  for (size_t k = 0; k < real.n; k++) free(real.v[k]);
  vec_free(&real);
  strtab_free(given);
}

/* fix_opts.want: is a function defined in file (as the link stores it)
 * one of those asked for? */
static bool analysis_wants(const void *defs, const char *file)
{
  return strtab_find(defs, file) != UINT32_MAX;
}

fix_plan *lsp_analysis_plan(const lsp_analysis *a, const cli_opts *o, const char *const *names, size_t n)
{
  if (!a->prog || !n) return NULL;
  strtab *defs = strtab_new();
  for (uint32_t fi = 0; fi < a->prog->funcs.n; fi++) {
    const link_func *f = &a->prog->funcs.v[fi];
    for (size_t k = 0; k < n; k++)
      if (!strcmp(strtab_get(a->prog->strs, f->name), names[k])) strtab_intern(defs, strtab_get(a->prog->strs, f->loc.file));
  }
  fix_opts fo = { .root = a->root, .include_mnr = true, .fix_misuse = true, .all = true,
                  .whole_program = o->whole_program, .want = analysis_wants, .want_ctx = defs };
  char *spell = NULL, *err = NULL;
  fix_plan *pl = NULL;
  if (fix_cmd_spelling(o->spelling, &fo, &spell) == 0) pl = fix_plan_new(a->prog, &fo, &err);
  if (!pl && err) fprintf(stderr, "purist: lsp: no code actions: %s\n", err);
  free(err);
  free(spell);
  strtab_free(defs);
  return pl;
}

void lsp_analysis_run(lsp_analysis *a, const cli_opts *o, const kb *k)
{
  double t0 = analysis_now();
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
  double t1 = analysis_now();
  a->seen = strtab_new();
  for (size_t i = 0; i < a->prog->files.n; i++)
    analysis_intern_real(a->seen, strtab_get(a->prog->strs, a->prog->files.v[i].file));
  analysis_findings(a, o);
  /* The log says where the time of a save goes (bench/lsp.sh). */
  fprintf(stderr, "purist: lsp: analysed %u TUs in %.2f s: parse and link %.2f s, %zu findings %.2f s\n",
          strtab_count(a->tus), analysis_now() - t0, t1 - t0, a->findings.n, analysis_now() - t1);
}
