/* cmd_infer.c — infer, summarize and link: the classes of every function,
 * from sources or from summaries. */
#include "cli/clobber.h"
#include "cli/cmd.h"
#include "cli/project.h"
#include "cli/scope.h"
#include "report/infer_out.h"
#include "report/reason.h"
#include "util/fileio.h"
#include <errno.h>
#include <string.h>
#include <unistd.h>

typedef VEC(long) infer_ids;

/* Does the defining file's path match FILE of --why FILE:NAME? The path
 * itself, relative to the root, or a tail of it after a '/'. */
static bool infer_why_file(const char *path, const char *file, const char *root)
{
  size_t lp = strlen(path), lf = strlen(file), lr = root ? strlen(root) : 0;
  if (!strcmp(path, file)) return true;
  if (root && lp == lr + 1 + lf && !strncmp(path, root, lr) && path[lr] == '/' && !strcmp(path + lr + 1, file))
    return true;
  return lp > lf && path[lp - lf - 1] == '/' && !strcmp(path + lp - lf, file);
}

/* The functions --why names, in link order: NAME is every function of
 * that name with a body (the external one and each file's static one),
 * FILE:NAME only those defined in FILE. */
static void infer_why_targets(const link_prog *p, const char *why, const char *root, infer_ids *out)
{
  const char *colon = strrchr(why, ':');   /* no C identifier holds a ':' */
  char *file = colon ? xstrndup(why, (size_t)(colon - why)) : NULL;
  uint32_t id = strtab_find(p->strs, colon ? colon + 1 : why);
  for (size_t i = 0; id != UINT32_MAX && i < p->funcs.n; i++) {
    const link_func *f = &p->funcs.v[i];
    if (f->name != id || !(f->flags & SFF_BODY)) continue;
    if (file && !infer_why_file(strtab_get(p->strs, f->loc.file), file, root)) continue;
    vec_push(out, (long)i);
  }
  long ext = file ? -1 : link_find(p, why);   /* a declared-only external, as before */
  if (!out->n && ext >= 0) vec_push(out, ext);
  free(file);
}

static bool infer_cmd_wants(const void *sc, const char *file)
{
  return scope_wants_file(sc, file);
}

/* Prints what infer prints for a linked program. */
static int infer_cmd_print(const cli_opts *o, link_prog *p, const char *root, const run_info *ri)
{
  cmd_solve(o, p, root);
  infer_ids why = {0};
  if (o->why) infer_why_targets(p, o->why, root, &why);
  if (o->why && !why.n) {   /* before -o is opened (and emptied) */
    fprintf(stderr, "purist: no function named '%s' in the analysed code\n", o->why);
    return EXIT_INPUT;
  }
  FILE *out = cmd_open_output(o);
  if (!out) { vec_free(&why); return EXIT_INPUT; }
  for (size_t i = 0; i < why.n; i++) {   /* two static h: both chains, a blank line between */
    strbuf b = {0};
    reason_chain(&b, p, &p->funcs.v[why.v[i]], root);
    if (i) fputc('\n', out);
    fputs(sb_str(&b), out);
    sb_free(&b);
  }
  if (!o->why) {
    scope sc;
    scope_init(&sc, o, root);
    infer_print_some(out, p, root, o->format, infer_cmd_wants, &sc, ri);
    scope_free(&sc);
  }
  vec_free(&why);
  return cmd_close_output(o, out);
}

int cmd_infer(const cli_opts *o, const kb *k)
{
  char *root = NULL;
  int failed = 0;
  run_info ri = { .command = "infer" };
  link_prog *p = cmd_analyze(o, k, &root, &failed, &ri);
  int rc = p ? infer_cmd_print(o, p, root, &ri) : EXIT_INPUT;
  run_info_free(&ri);
  link_free(p);
  free(root);
  return failed ? EXIT_INPUT : rc;
}

/* Writes every summary to -o, through a temporary file renamed into place,
 * so a reader never sees half a file. */
static int infer_cmd_write_summaries(const char *path, sum_tu **sums, size_t n)
{
  char *tmp;
  FILE *f = file_atomic_open(path, &tmp);
  int ok = f != NULL;
  for (size_t i = 0; ok && i < n; i++)
    if (sums[i]) ok = summary_write(sums[i], f) == 0;
  if (f && file_atomic_commit(f, tmp, path, ok) != 0) ok = 0;
  if (!ok) fprintf(stderr, "purist: %s: %s\n", path, strerror(errno));
  return ok ? 0 : -1;
}

int cmd_summarize(const cli_opts *o, const kb *k)
{
  if (!o->output) {
    cmd_say("summarize needs -o FILE");
    return EXIT_INPUT;
  }
  fe_jobs jobs = {0};
  pipeline_result res = {0};
  char *root = NULL;
  if (cmd_parse_project(o, k, &jobs, &res, &root, NULL) < 0) {
    cdb_jobs_free(&jobs);
    free(root);
    return EXIT_INPUT;
  }
  char *err = NULL;
  int rc = EXIT_INPUT;
  if (clobber_check_sums(o, res.sums, jobs.n, &err) < 0) {   /* -o naming an included header */
    cmd_say(err);
    free(err);
  } else {
    rc = infer_cmd_write_summaries(o->output, res.sums, jobs.n) < 0 || res.failed || res.skipped ? EXIT_INPUT : EXIT_OK;
  }
  pipeline_result_free(&res, jobs.n);
  cdb_jobs_free(&jobs);
  free(root);
  return rc;
}

int cmd_link(const cli_opts *o, const kb *k)
{
  if (!o->files.n) {
    cmd_say("link needs summary files (written by purist summarize -o FILE)");
    return EXIT_INPUT;
  }
  int bad;
  link_prog *p = cmd_link_inputs(o, k, &bad);
  char *root = project_root_for_link(o);
  int rc = infer_cmd_print(o, p, root, NULL);
  free(root);
  link_free(p);
  return bad ? EXIT_INPUT : rc;
}
