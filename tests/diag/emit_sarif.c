/* emit_sarif.c — writes SARIF logs for the schema test: argv[1] gets the
 * sample list (every check, related locations, absolute and relative
 * paths, two files not analysed, an automationDetails id), argv[2] an
 * empty list. validate_sarif.mjs then checks both
 * against the official SARIF 2.1.0 schema. */
#include <stdio.h>
#include <stdlib.h>
#include "report/diag_out.h"
#include "sample.h"
#include "tmpdir.h"

/* Writes the log of l to path; returns 0 or -1. */
static int emit(const char *path, const diag_list *l, const char *root, const run_info *ri)
{
  FILE *f = fopen(path, "w");
  if (!f) {
    perror(path);
    return -1;
  }
  int rc = diag_print_sarif(f, l, root, "0.1.0", ri);
  if (fclose(f) != 0) rc = -1;
  return rc;
}

int main(int argc, char **argv)
{
  if (argc != 3) {
    fprintf(stderr, "usage: emit_sarif FULL.sarif EMPTY.sarif\n");
    return 2;
  }
  char *dir = tmpdir_new();
  diag_list l = {0}, empty = {0};
  int rc = dir && sample_build(dir, &l) == 0 ? 0 : -1;
  /* The full log also says that two files were not analysed (the
   * invocation's notifications, one inside the root, one outside). */
  run_info ri = { .command = "check+suggest+explain" };
  if (dir) {
    char *in = xasprintf("%s/src/bad.c", dir);
    run_info_add(&ri, in, dir, RUN_NA_TIMED_OUT, "bad.c: error: parsing took longer than 2 s");
    run_info_add(&ri, "/elsewhere/x.c", dir, RUN_NA_ERRORS, "/elsewhere/x.c:1:1: error: expected ';'");
    free(in);
  }
  if (rc == 0) rc = emit(argv[1], &l, dir, &ri);
  if (rc == 0) rc = emit(argv[2], &empty, "/", NULL);
  run_info_free(&ri);
  diag_list_free(&l);
  tmpdir_free(dir);
  return rc == 0 ? 0 : 1;
}
