/* cmd_verify.c — verify and rt-flags: the run-time checks of issue 6 (the
 * work is in src/verify and the runtime in src/rt). */
#include "checks/checks.h"
#include "cli/cmd.h"
#include "cli/project.h"
#include "verify/verify.h"
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Prints notes on stderr (--quiet: only those saying something failed). */
static void verify_cmd_notes(const cli_opts *o, verify_lines *notes)
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
/* PURIST_SAMPLE (check one call in N) as libpurist-rt will read it: a
 * whole number from 1 to LONG_MAX. "-1" (strtoul's ULONG_MAX) or an
 * overflow would silently check almost nothing; a number past LONG_MAX
 * makes a report no JSON reader takes (every finding lost): refused
 * before the run. */
static int verify_sample_ok(void)
{
  const char *v = getenv("PURIST_SAMPLE");
  if (!v || !*v) return 1;
  char *end;
  errno = 0;
  unsigned long n = strtoul(v, &end, 10);
  if (*v >= '0' && *v <= '9' && !*end && n > 0 && n <= LONG_MAX && errno != ERANGE) return 1;
  fprintf(stderr, "purist: PURIST_SAMPLE=%s: wants a whole number from 1 to %ld (check one call in N)\n", v,
          LONG_MAX);
  return 0;
}

int cmd_verify(const cli_opts *o, const kb *k)
{
  if (!o->flags.n) { cmd_say("verify needs a command after -- (purist verify -p build -- ctest)"); return EXIT_INPUT; }
  if (!verify_sample_ok()) return EXIT_INPUT;
  char *root = NULL, *err = NULL;
  int failed = 0, st = -1, rc = EXIT_INPUT;
  run_info ri = { .command = "verify" };
  link_prog *p = cmd_analyze(o, k, &root, &failed, &ri);
  verify_watch w = {0};
  verify_session s = {0};
  VEC(char *) argv = {0};
  if (!p) goto out;
  cmd_solve(o, p, root);
  verify_watch_collect(p, o->suggested, &w);
  for (size_t i = 0; i < o->flags.n; i++) vec_push(&argv, o->flags.v[i]);
  vec_push(&argv, NULL);
  if (verify_session_new(&s, &err) == 0 && verify_watch_write(&w, s.watch, &err) == 0)
    st = verify_run(&s, argv.v, &err);
  if (st < 0) { cmd_say(err); goto out; }
  checks_opts co = { root, o->cheats_as_errors, o->whole_program, cli_std_attrs(o), o->all, o->verbose };
  diag_list l = {0};
  verify_lines notes = {0};
  int lost = 0;
  int nrep = verify_report_read(&s, p, &w, &co, &l, &notes, &lost);
  verify_cmd_notes(o, &notes);
  diag_sort(&l);
  rc = cmd_filter(o, &l, root) < 0 ? EXIT_INPUT : cmd_print_findings(o, &l, root, &ri);
  if (rc == EXIT_OK && st != 0) rc = st;
  rc = cmd_fail_on(o, &l, rc);
  /* Findings lost (a process without a report) are never a clean run. */
  if (lost && (rc == EXIT_OK || rc == EXIT_FINDINGS)) {
    fprintf(stderr, "purist: %d process%s wrote no report: what they did is not checked\n", lost,
            lost == 1 ? "" : "es");
    rc = EXIT_INPUT;
  }
  /* Nothing watched (a static binary, or one linked without --ldflags):
   * never a clean run, as a process without a report is not (issue 31
   * item 13). The note above says how to link it. */
  if (nrep == 0 && !lost && w.n && (rc == EXIT_OK || rc == EXIT_FINDINGS)) rc = EXIT_INPUT;
  diag_list_free(&l);
out:
  run_info_free(&ri);
  free(err);
  vec_free(&argv);
  verify_session_free(&s);
  vec_free(&w);
  link_free(p);
  free(root);
  return rc;
}

/* Why rt-flags --ldflags refuses a project some of whose files could not
 * be analysed: their functions would get no wrapper, and verify would
 * report nothing about them while looking complete. Most often the build's
 * generated headers (config.h) are missing: the first error says which
 * (caller frees). */
static char *verify_cmd_incomplete(const run_info *ri, int failed)
{
  const run_na *first = NULL;
  for (size_t i = 0; i < ri->not_analysed.n && !first; i++)
    if (ri->not_analysed.v[i].reason != RUN_NA_SKIPPED) first = &ri->not_analysed.v[i];
  bool header = first && strstr(first->message, "file not found");
  return xasprintf("rt-flags --ldflags: %d file%s could not be analysed, so %s functions would get no "
                   "wrapper%s%s; %s", failed, failed == 1 ? "" : "s", failed == 1 ? "its" : "their",
                   first ? "; the first error: " : "", first ? first->message : "",
                   header ? "a header the build generates is missing: build the project (or run its "
                            "configure step) first, then rt-flags"
                          : "fix what the errors above say, then rt-flags");
}

/* The wrappers for the project of -p: generated and compiled into
 * DIR/purist-verify/ (DIR: the directory of compile_commands.json). */
static char *verify_cmd_wrappers(const cli_opts *o, const kb *k, verify_protos *ps)
{
  char *root = NULL, *root2 = NULL, *err = NULL, *obj = NULL;
  int failed = 0;
  struct stat st;
  run_info ri = {0};
  link_prog *p = cmd_analyze(o, k, &root, &failed, &ri);
  if (p && failed) {   /* their functions would get no wrapper: verify would watch nothing there */
    err = verify_cmd_incomplete(&ri, failed);
    link_free(p);
    p = NULL;
  }
  run_info_free(&ri);
  fe_jobs jobs = {0};
  verify_watch w = {0};
  verify_lines skipped = {0};
  const char *slash = strrchr(o->db, '/');   /* -p names the directory or the file */
  char *dir = stat(o->db, &st) == 0 && S_ISDIR(st.st_mode) ? xasprintf("%s/purist-verify", o->db)
            : slash ? xasprintf("%.*s/purist-verify", (int)(slash - o->db), o->db) : xstrdup("purist-verify");
  char *dropped = NULL;   /* already reported by cmd_analyze */
  if (p && project_jobs(o, &jobs, &root2, &err, &dropped) == 0) {
    cmd_solve(o, p, root);
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
  if (err) cmd_say(err);
  verify_cmd_notes(o, &skipped);
  free(err);
  free(dropped);
  free(dir);
  vec_free(&w);
  cdb_jobs_free(&jobs);
  link_free(p);
  free(root);
  free(root2);
  return obj;
}

/* rt-flags --cflags / --ldflags [-p DIR]: one line of flags on stdout. */
int cmd_rt_flags(const cli_opts *o, const kb *k)
{
  if (!o->rt_cflags && !o->rt_ldflags) { cmd_say("rt-flags needs --cflags or --ldflags"); return EXIT_INPUT; }
  char *err = NULL, *dir = o->rt_ldflags ? verify_rt_dir(&err) : NULL;
  if (o->rt_ldflags && !dir) { cmd_say(err); free(err); return EXIT_INPUT; }
  verify_protos ps = {0};
  char *obj = o->rt_ldflags && o->db ? verify_cmd_wrappers(o, k, &ps) : NULL;
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
