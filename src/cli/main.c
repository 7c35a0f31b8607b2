/* main.c — purist's entry point: parse options, run a command. */
#include "cli/cache_cmd.h"
#include "cli/options.h"
#include "cli/pipeline.h"
#include "cli/project.h"
#include "checks/checks.h"
#include "link/link.h"
#include "report/diag_out.h"
#include "report/infer_out.h"
#include "report/reason.h"
#include "util/fileio.h"
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

enum { EXIT_OK = 0, EXIT_FINDINGS = 1, EXIT_INPUT = 2 };

static void say(const char *msg)
{
  fprintf(stderr, "purist: %s\n", msg);
}

static kb *main_load_kb(const cli_opts *o)
{
  kb *k = kb_new();
  char *err = NULL;
  int rc = kb_load_builtin(k, &err);
  for (size_t i = 0; rc == 0 && i < o->kb_files.n; i++) rc = kb_load_file(k, o->kb_files.v[i], &err);
  if (rc < 0) {
    say(err);
    free(err);
    kb_free(k);
    return NULL;
  }
  return k;
}

static int main_jobs_count(const cli_opts *o)
{
  if (o->jobs > 0) return o->jobs;
  long n = sysconf(_SC_NPROCESSORS_ONLN);
  return n > 0 ? (int)n : 1;
}

/* Summarises the project's TUs; prints their diagnostics in job order. */
static int main_summarize(const cli_opts *o, const kb *k, fe_jobs *jobs, pipeline_result *res, char **root)
{
  char *err = NULL;
  if (project_jobs(o, jobs, root, &err) < 0) {
    say(err);
    free(err);
    return -1;
  }
  /* Progress only for a person watching: a terminal, and not --quiet. */
  bool progress = !o->quiet && isatty(STDERR_FILENO);
  cache *c = cache_cmd_open(o, k);
  pipeline_summarize_cached(jobs, k, c, main_jobs_count(o), progress, res);
  for (size_t i = 0; i < jobs->n; i++)
    for (size_t m = 0; m < res->msgs[i].n; m++)
      if (!o->quiet || !strstr(res->msgs[i].v[m], ": warning: compiler flags:"))   /* --quiet: errors only */
        fprintf(stderr, "%s\n", res->msgs[i].v[m]);
  if (o->stats) cache_print_stats(c, stderr);
  cache_free(c);
  return 0;
}

static FILE *main_open_output(const cli_opts *o)
{
  if (!o->output) return stdout;
  FILE *f = fopen(o->output, "w");
  if (!f) fprintf(stderr, "purist: %s: %s\n", o->output, strerror(errno));
  return f;
}

/* Prints what infer prints for a linked program. */
/* Closes the output, reporting a write that failed (a full disk, a closed
 * pipe) instead of exiting 0 with a truncated report. */
static int main_close_output(const cli_opts *o, FILE *out)
{
  int bad = fflush(out) != 0 || ferror(out);
  if (out != stdout) bad |= fclose(out) != 0;
  if (bad) fprintf(stderr, "purist: %s: could not write the output: %s\n",
                   o->output ? o->output : "standard output", strerror(errno));
  return bad ? EXIT_INPUT : EXIT_OK;
}

/* Prints what infer prints for a linked program. */
static int main_report(const cli_opts *o, link_prog *p, const char *root)
{
  link_solve(p);
  if (!o->quiet)
    for (size_t i = 0; i < p->warnings.n; i++) fprintf(stderr, "%s\n", p->warnings.v[i]);
  long fi = -1;
  if (o->why && (fi = link_find(p, o->why)) < 0) {   /* before -o is opened (and emptied) */
    fprintf(stderr, "purist: no function named '%s' in the analysed code\n", o->why);
    return EXIT_INPUT;
  }
  FILE *out = main_open_output(o);
  if (!out) return EXIT_INPUT;
  if (o->why) {
    strbuf b = {0};
    reason_chain(&b, p, &p->funcs.v[fi], root);
    fputs(sb_str(&b), out);
    sb_free(&b);
  } else {
    infer_print(out, p, root, o->format);
  }
  return main_close_output(o, out);
}

/* Summarises and links the project; NULL if its inputs could not be read.
 * *failed counts the TUs that could not be analysed. */
static link_prog *main_analyze(const cli_opts *o, const kb *k, char **root, int *failed)
{
  fe_jobs jobs = {0};
  pipeline_result res = {0};
  link_prog *p = NULL;
  if (main_summarize(o, k, &jobs, &res, root) == 0) {
    p = link_new(k, o->strict);
    for (size_t i = 0; i < jobs.n; i++)
      if (res.sums[i]) link_add(p, res.sums[i]);
    *failed = res.failed;
    if (res.failed)
      fprintf(stderr, "purist: %d of %zu files could not be analysed; their functions count as unknown\n",
              res.failed, jobs.n);
    pipeline_result_free(&res, jobs.n);
  }
  cdb_jobs_free(&jobs);
  return p;
}

static int main_infer(const cli_opts *o, const kb *k)
{
  char *root = NULL;
  int failed = 0;
  link_prog *p = main_analyze(o, k, &root, &failed);
  int rc = p ? main_report(o, p, root) : EXIT_INPUT;
  link_free(p);
  free(root);
  return failed ? EXIT_INPUT : rc;
}

/* Hides suppressed and baselined findings; records a baseline if asked. */
static int main_filter(const cli_opts *o, diag_list *l)
{
  char *err = NULL;
  diag_filter_suppressed(l);
  if (o->baseline && diag_baseline_filter(l, o->baseline, &err) < 0) goto fail;
  if (o->write_baseline && diag_baseline_write(o->write_baseline, l, &err) < 0) goto fail;
  return 0;
fail:
  fprintf(stderr, "purist: %s\n", err);
  free(err);
  return -1;
}

static int main_print_findings(const cli_opts *o, const diag_list *l, const char *root)
{
  FILE *out = main_open_output(o);
  if (!out) return EXIT_INPUT;
  if (o->format == FMT_JSON) diag_print_json(out, l);
  else if (o->format == FMT_SARIF) diag_print_sarif(out, l, root, PURIST_VERSION);
  else diag_print_text(out, l, diag_use_color(o->color, out));
  return main_close_output(o, out);
}

/* check, suggest, explain: findings as diagnostics. Exit 1 when a finding
 * is as severe as --fail-on, 2 on input errors. */
static int main_findings(const cli_opts *o, const kb *k)
{
  char *root = NULL;
  int failed = 0;
  link_prog *p = main_analyze(o, k, &root, &failed);
  if (!p) { free(root); return EXIT_INPUT; }
  link_solve(p);
  if (!o->quiet)
    for (size_t i = 0; i < p->warnings.n; i++) fprintf(stderr, "%s\n", p->warnings.v[i]);
  checks_opts co = { root, o->cheats_as_errors };
  diag_list l = {0};
  if (o->cmd == CMD_CHECK) checks_misuse(p, &co, &l);
  else if (o->cmd == CMD_SUGGEST) checks_suggest(p, &co, &l);
  else checks_explain(p, &co, &l);
  if (o->cmd != CMD_SUGGEST) diag_sort(&l);   /* suggestions stay ranked by gain */
  int rc = main_filter(o, &l) < 0 ? EXIT_INPUT : main_print_findings(o, &l, root);
  if (rc == EXIT_OK)
    for (size_t i = 0; i < l.n; i++)
      if ((int)l.v[i].severity >= o->fail_on) rc = EXIT_FINDINGS;
  diag_list_free(&l);
  link_free(p);
  free(root);
  return failed ? EXIT_INPUT : rc;
}

/* Writes every summary to -o, through a temporary file renamed into place,
 * so a reader never sees half a file. */
static int main_write_summaries(const char *path, sum_tu **sums, size_t n)
{
  char *tmp = xasprintf("%s.tmp.%ld", path, (long)getpid());
  FILE *f = fopen(tmp, "wb");
  int ok = f != NULL;
  for (size_t i = 0; ok && i < n; i++)
    if (sums[i]) ok = summary_write(sums[i], f) == 0;
  if (f && fclose(f) != 0) ok = 0;
  if (ok && rename(tmp, path) != 0) ok = 0;
  if (!ok) {
    fprintf(stderr, "purist: %s: %s\n", path, strerror(errno));
    unlink(tmp);
  }
  free(tmp);
  return ok ? 0 : -1;
}

static int main_summarize_cmd(const cli_opts *o, const kb *k)
{
  if (!o->output) {
    say("summarize needs -o FILE");
    return EXIT_INPUT;
  }
  fe_jobs jobs = {0};
  pipeline_result res = {0};
  char *root = NULL;
  if (main_summarize(o, k, &jobs, &res, &root) < 0) {
    cdb_jobs_free(&jobs);
    free(root);
    return EXIT_INPUT;
  }
  int rc = main_write_summaries(o->output, res.sums, jobs.n) < 0 || res.failed ? EXIT_INPUT : EXIT_OK;
  pipeline_result_free(&res, jobs.n);
  cdb_jobs_free(&jobs);
  free(root);
  return rc;
}

/* Adds every summary record of one file; returns 0, or -1 after saying why. */
static int main_link_file(link_prog *p, const char *path)
{
  size_t len, pos = 0;
  unsigned char *buf = (unsigned char *)file_read_all(path, &len);
  if (!buf) {
    fprintf(stderr, "purist: %s: %s\n", path, strerror(errno));
    return -1;
  }
  int rc = 0;
  if (len == 0) {
    fprintf(stderr, "purist: %s: empty file: no summary records\n", path);
    rc = -1;
  }
  while (pos < len) {
    char *err = NULL;
    sum_tu *tu = summary_decode(buf, len, &pos, &err);
    if (!tu) {
      fprintf(stderr, "purist: %s: refused at byte %zu: %s\n", path, pos, err);
      free(err);
      rc = -1;
      break;
    }
    link_add(p, tu);
    summary_free(tu);
  }
  free(buf);
  return rc;
}

static int main_link(const cli_opts *o, const kb *k)
{
  if (!o->files.n) {
    say("link needs summary files (written by purist summarize -o FILE)");
    return EXIT_INPUT;
  }
  link_prog *p = link_new(k, o->strict);
  int bad = 0;
  for (size_t i = 0; i < o->files.n; i++) bad |= main_link_file(p, o->files.v[i]) < 0;
  char *root = project_root_for_link(o);
  int rc = main_report(o, p, root);
  free(root);
  link_free(p);
  return bad ? EXIT_INPUT : rc;
}

int main(int argc, char **argv)
{
  cli_opts o;
  int prc = cli_parse(argc, argv, &o);
  if (prc != 0) {
    cli_opts_free(&o);
    return prc > 0 ? EXIT_OK : EXIT_INPUT;
  }
  kb *k = main_load_kb(&o);
  int rc = EXIT_INPUT;
  if (k) {
    switch (o.cmd) {
    case CMD_INFER: rc = main_infer(&o, k); break;
    case CMD_SUMMARIZE: rc = main_summarize_cmd(&o, k); break;
    case CMD_LINK: rc = main_link(&o, k); break;
    case CMD_CHECK: case CMD_SUGGEST: case CMD_EXPLAIN: rc = main_findings(&o, k); break;
    case CMD_CACHE: rc = cache_cmd_run(&o); break;
    default: break;
    }
  }
  kb_free(k);
  cli_opts_free(&o);
  return rc;
}
