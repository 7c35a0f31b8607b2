/* main.c — purist's entry point: parse options, run a command. */
#include "cli/inputs.h"
#include "cli/launcher.h"
#include "cli/fix_cmd.h"
#include "cli/impact_cmd.h"
#include "cli/cache_cmd.h"
#include "cli/options.h"
#include "cli/pipeline.h"
#include "cli/project.h"
#include "checks/checks.h"
#include "link/link.h"
#include "report/diag_out.h"
#include "report/html.h"
#include "report/infer_out.h"
#include "report/reason.h"
#include "util/fileio.h"
#include "verify/verify.h"
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
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

/* Links the summaries of the files named (summary files, objects,
 * archives, executables, shared objects). *bad is set if a record or file
 * was refused (said on stderr; the rest is linked) or none held a summary. */
static link_prog *main_link_inputs(const cli_opts *o, const kb *k, int *bad)
{
  link_prog *p = link_new(k, o->strict);
  inputs_count n = {0};
  for (size_t i = 0; i < o->files.n; i++) inputs_add_file(p, o->files.v[i], o->quiet, &n);
  if (n.records == 0 && n.bad == 0) say("no summaries in the files named (build with purist cc, or use purist summarize)");
  *bad = n.bad > 0 || n.records == 0;
  return p;
}

/* Do the files named hold summaries (objects, archives, executables,
 * summary files) rather than C sources? 1 all, 0 none (or no files), -1
 * a mixture (said on stderr). */
static int main_summary_inputs(const cli_opts *o)
{
  size_t n = 0;
  for (size_t i = 0; i < o->files.n; i++) n += inputs_is_summary_file(o->files.v[i]);
  if (n && n < o->files.n) say("name either C sources or files with summaries (objects, archives, binaries), not both");
  return n == 0 ? 0 : n == o->files.n ? 1 : -1;
}

/* Summarises and links the project; NULL if its inputs could not be read.
 * *failed counts the TUs that could not be analysed. */
static link_prog *main_analyze(const cli_opts *o, const kb *k, char **root, int *failed)
{
  fe_jobs jobs = {0};
  pipeline_result res = {0};
  link_prog *p = NULL;
  int from = main_summary_inputs(o);   /* summaries built by purist cc: no parsing */
  if (from != 0) {
    *root = project_root_for_link(o);
    return from > 0 ? main_link_inputs(o, k, failed) : NULL;
  }
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

/* Appends the findings of one check to all; sorted unless ranked. */
static void main_collect(const link_prog *p, const checks_opts *co, diag_list *all,
                         void (*run)(const link_prog *, const checks_opts *, diag_list *), bool sort)
{
  diag_list l = {0};
  run(p, co, &l);
  if (sort) diag_sort(&l);
  for (size_t i = 0; i < l.n; i++) vec_push(all, l.v[i]);
  vec_free(&l);
}

/* report --html: every finding of check, suggest, explain (and of a verify
 * report) in one page. Exit status as check's. */
static int main_report_html(const cli_opts *o, const kb *k)
{
  char *root = NULL, *err = NULL;
  int failed = 0, rc = EXIT_INPUT;
  diag_list all = {0}, ver = {0};
  link_prog *p = NULL;
  if (o->verify && html_verify_load(o->verify, NULL, &ver, &err) < 0) goto done;
  if (!(p = main_analyze(o, k, &root, &failed))) goto done;
  if (o->verify) {   /* again, now that relative paths have a root */
    diag_list_free(&ver);
    if (html_verify_load(o->verify, root, &ver, &err) < 0) goto done;
  }
  link_solve(p);
  if (!o->quiet)
    for (size_t i = 0; i < p->warnings.n; i++) fprintf(stderr, "%s\n", p->warnings.v[i]);
  checks_opts co = { root, o->cheats_as_errors };
  main_collect(p, &co, &all, checks_misuse, true);
  main_collect(p, &co, &all, checks_suggest, false);
  main_collect(p, &co, &all, checks_explain, true);
  if (main_filter(o, &all) < 0) goto done;
  const char *dot = getenv("PURIST_DOT");
  html_opts ho = { root, "purist " PURIST_VERSION, &all, o->verify ? &ver : NULL, o->verify,
                   (size_t)o->max_mib << 20, dot ? dot : "dot" };
  if (o->output) rc = html_write_file(o->output, p, &ho, &err) < 0 ? EXIT_INPUT : EXIT_OK;
  else if (html_write(stdout, p, &ho) < 0) err = xasprintf("standard output: %s", strerror(errno));
  else rc = EXIT_OK;
  for (size_t i = 0; rc == EXIT_OK && i < all.n + ver.n; i++)
    if ((int)(i < all.n ? all.v[i] : ver.v[i - all.n]).severity >= o->fail_on) rc = EXIT_FINDINGS;
done:
  if (err) { say(err); free(err); }
  diag_list_free(&all);
  diag_list_free(&ver);
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

static int main_link(const cli_opts *o, const kb *k)
{
  if (!o->files.n) {
    say("link needs summary files (written by purist summarize -o FILE)");
    return EXIT_INPUT;
  }
  int bad;
  link_prog *p = main_link_inputs(o, k, &bad);
  char *root = project_root_for_link(o);
  int rc = main_report(o, p, root);
  free(root);
  link_free(p);
  return bad ? EXIT_INPUT : rc;
}

/* fix: the program from --from summaries or a fresh analysis, then the
 * edits (cli/fix_cmd.c). TUs that failed are reported and make it exit 2;
 * their functions have no body here, so nothing of theirs is edited. A
 * summary file that cannot be read whole edits nothing. */
static int main_fix(const cli_opts *o, const kb *k)
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
  } else {
    p = main_analyze(o, k, &root, &failed);
  }
  int rc = p && !(o->from && failed) ? fix_cmd_run(o, p, root) : EXIT_INPUT;
  link_free(p);
  free(root);
  return failed ? EXIT_INPUT : rc;
}

/* ---- verify and rt-flags (issue 6; the work is in src/verify) ---- */

/* Prints notes on stderr (--quiet: only those saying something failed). */
static void main_notes(const cli_opts *o, verify_lines *notes)
{
  for (size_t i = 0; i < notes->n; i++) {
    if (!o->quiet || strstr(notes->v[i], "not a report")) fprintf(stderr, "purist: note: %s\n", notes->v[i]);
    free(notes->v[i]);
  }
  vec_free(notes);
}

/* Runs the command after -- under the runtime and reports what it saw.
 * Exit status: the command's when it failed (128 + N when signal N ended
 * it), else 1 for findings as severe as --fail-on, else 0; 2 if purist
 * could not analyse the project or run the command. */
static int main_verify(const cli_opts *o, const kb *k)
{
  if (!o->flags.n) { say("verify needs a command after -- (purist verify -p build -- ctest)"); return EXIT_INPUT; }
  char *root = NULL, *err = NULL;
  int failed = 0, st = -1, rc = EXIT_INPUT;
  link_prog *p = main_analyze(o, k, &root, &failed);
  verify_watch w = {0};
  verify_session s = {0};
  VEC(char *) argv = {0};
  if (!p) goto out;
  link_solve(p);
  verify_watch_collect(p, o->suggested, &w);
  for (size_t i = 0; i < o->flags.n; i++) vec_push(&argv, o->flags.v[i]);
  vec_push(&argv, NULL);
  if (verify_session_new(&s, &err) == 0 && verify_watch_write(&w, s.watch, &err) == 0)
    st = verify_run(&s, argv.v, &err);
  if (st < 0) { say(err); goto out; }
  checks_opts co = { root, o->cheats_as_errors };
  diag_list l = {0};
  verify_lines notes = {0};
  verify_report_read(&s, p, &w, &co, &l, &notes);
  main_notes(o, &notes);
  diag_sort(&l);
  rc = main_filter(o, &l) < 0 ? EXIT_INPUT : main_print_findings(o, &l, root);
  if (rc == EXIT_OK && st != 0) rc = st;
  for (size_t i = 0; rc == EXIT_OK && i < l.n; i++)
    if ((int)l.v[i].severity >= o->fail_on) rc = EXIT_FINDINGS;
  diag_list_free(&l);
out:
  free(err);
  vec_free(&argv);
  verify_session_free(&s);
  vec_free(&w);
  link_free(p);
  free(root);
  return rc;
}

/* The wrappers for the project of -p: generated and compiled into
 * DIR/purist-verify/ (DIR: the directory of compile_commands.json). */
static char *main_wrappers(const cli_opts *o, const kb *k, verify_protos *ps)
{
  char *root = NULL, *root2 = NULL, *err = NULL, *obj = NULL;
  int failed = 0;
  struct stat st;
  link_prog *p = main_analyze(o, k, &root, &failed);
  fe_jobs jobs = {0};
  verify_watch w = {0};
  verify_lines skipped = {0};
  const char *slash = strrchr(o->db, '/');   /* -p names the directory or the file */
  char *dir = stat(o->db, &st) == 0 && S_ISDIR(st.st_mode) ? xasprintf("%s/purist-verify", o->db)
            : slash ? xasprintf("%.*s/purist-verify", (int)(slash - o->db), o->db) : xstrdup("purist-verify");
  if (p && project_jobs(o, &jobs, &root2, &err) == 0) {
    link_solve(p);
    verify_watch_collect(p, true, &w);   /* --suggested too: one build serves both */
    verify_protos_find(p, &w, &jobs, ps, &skipped);
    char *abs = mkdir(dir, 0777) == 0 || errno == EEXIST ? realpath(dir, NULL) : NULL;   /* the link runs elsewhere */
    char *src = xasprintf("%s/wrappers.c", abs ? abs : dir);
    obj = xasprintf("%s/wrappers.o", abs ? abs : dir);
    if (!abs || verify_wrap_build(ps, src, obj, &err) < 0) {
      if (!err) err = xasprintf("%s: %s", dir, strerror(errno));
      free(obj);
      obj = NULL;
    }
    free(abs);
    free(src);
  }
  if (err) say(err);
  main_notes(o, &skipped);
  free(err);
  free(dir);
  vec_free(&w);
  cdb_jobs_free(&jobs);
  link_free(p);
  free(root);
  free(root2);
  return obj;
}

/* rt-flags --cflags / --ldflags [-p DIR]: one line of flags on stdout. */
static int main_rt_flags(const cli_opts *o, const kb *k)
{
  if (!o->rt_cflags && !o->rt_ldflags) { say("rt-flags needs --cflags or --ldflags"); return EXIT_INPUT; }
  char *err = NULL, *dir = o->rt_ldflags ? verify_rt_dir(&err) : NULL;
  if (o->rt_ldflags && !dir) { say(err); free(err); return EXIT_INPUT; }
  verify_protos ps = {0};
  char *obj = o->rt_ldflags && o->db ? main_wrappers(o, k, &ps) : NULL;
  int rc = o->rt_ldflags && o->db && !obj ? EXIT_INPUT : EXIT_OK;
  if (rc == EXIT_OK) {
    char *ld = o->rt_ldflags ? verify_ldflags(dir, &ps, obj) : NULL;
    printf("%s%s%s\n", o->rt_cflags ? verify_cflags() : "", o->rt_cflags && ld ? " " : "", ld ? ld : "");
    free(ld);
  }
  verify_protos_free(&ps);
  free(obj);
  free(dir);
  return rc;
}

/* impact: analyse, then measure in a temporary copy (cli/impact_cmd.c) and
 * print. Exit 2 when a TU could not be analysed or compiled (the others are
 * still reported), or when nothing could be measured. */
static int main_impact(const cli_opts *o, const kb *k)
{
  char *root = NULL;
  int failed = 0;
  link_prog *p = main_analyze(o, k, &root, &failed);
  int rc = EXIT_INPUT;
  if (p) {
    link_solve(p);
    impact_totals t = {0};
    int mrc = impact_cmd_run(o, p, root, main_jobs_count(o), &t);
    FILE *out = mrc >= 0 ? main_open_output(o) : NULL;
    if (out) {
      impact_sort(&t);
      if (o->format == FMT_JSON) impact_print_json(out, &t);
      else impact_print_text(out, &t, 10);
      rc = main_close_output(o, out);
      if (mrc > 0) rc = EXIT_INPUT;
    }
    impact_totals_free(&t);
  }
  link_free(p);
  free(root);
  return failed ? EXIT_INPUT : rc;
}

int main(int argc, char **argv)
{
  if (argc > 1 && !strcmp(argv[1], "cc")) return launcher_main(argc - 2, argv + 2);   /* the compile's own argv */
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
    case CMD_REPORT: rc = main_report_html(&o, k); break;
    case CMD_FIX: rc = main_fix(&o, k); break;
    case CMD_VERIFY: rc = main_verify(&o, k); break;
    case CMD_RT_FLAGS: rc = main_rt_flags(&o, k); break;
    case CMD_IMPACT: rc = main_impact(&o, k); break;
    case CMD_CACHE: rc = cache_cmd_run(&o); break;
    default: break;
    }
  }
  kb_free(k);
  cli_opts_free(&o);
  return rc;
}
