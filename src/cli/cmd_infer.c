/* cmd_infer.c — infer, summarize and link: the classes of every function,
 * from sources or from summaries. */
#include "cli/cmd.h"
#include "cli/project.h"
#include "report/infer_out.h"
#include "report/reason.h"
#include "util/fileio.h"
#include <errno.h>
#include <string.h>
#include <unistd.h>

/* Prints what infer prints for a linked program. */
static int infer_cmd_print(const cli_opts *o, link_prog *p, const char *root)
{
  cmd_solve(o, p);
  long fi = -1;
  if (o->why && (fi = link_find(p, o->why)) < 0) {   /* before -o is opened (and emptied) */
    fprintf(stderr, "purist: no function named '%s' in the analysed code\n", o->why);
    return EXIT_INPUT;
  }
  FILE *out = cmd_open_output(o);
  if (!out) return EXIT_INPUT;
  if (o->why) {
    strbuf b = {0};
    reason_chain(&b, p, &p->funcs.v[fi], root);
    fputs(sb_str(&b), out);
    sb_free(&b);
  } else {
    infer_print(out, p, root, o->format);
  }
  return cmd_close_output(o, out);
}

int cmd_infer(const cli_opts *o, const kb *k)
{
  char *root = NULL;
  int failed = 0;
  link_prog *p = cmd_analyze(o, k, &root, &failed);
  int rc = p ? infer_cmd_print(o, p, root) : EXIT_INPUT;
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
  if (cmd_parse_project(o, k, &jobs, &res, &root) < 0) {
    cdb_jobs_free(&jobs);
    free(root);
    return EXIT_INPUT;
  }
  int rc = infer_cmd_write_summaries(o->output, res.sums, jobs.n) < 0 || res.failed ? EXIT_INPUT : EXIT_OK;
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
  int rc = infer_cmd_print(o, p, root);
  free(root);
  link_free(p);
  return bad ? EXIT_INPUT : rc;
}
