/* test_diag_filter.c — suppression comments and baselines (diag_filter.c). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "report/diag_out.h"
#include "sample.h"
#include "tmpdir.h"
#include "util/fileio.h"

/* One line per case; the comment says what the finding on it expects. */
static const char suppress_c[] =
  "int a = f(); /* purist: ignore */\n"                          /* 1 all hidden */
  "int b = f(); // purist: ignore[dead-call]\n"                  /* 2 dead-call only */
  "// purist: ignore[misuse]\n"                                  /* 3 */
  "int c(void) __attribute__((const));\n"                        /* 4 misuse* hidden */
  "int d = f(); // purist: ignore[misuse]\n"                     /* 5 */
  "int e = f();\n"                                               /* 6 not hidden by 5 */
  "const char *s = \"purist: ignore\"; int g = f();\n"           /* 7 string: not hidden */
  "int h = f(); //purist:ignore [ cheat , purist-dead-call ]\n"  /* 8 cheat, dead-call */
  "/* A cached value.\n"                                         /* 9 */
  " * purist: ignore[cheat] */\n"                                /* 10 */
  "int i(void) __attribute__((pure));\n"                         /* 11 cheat hidden */
  "int j = f(); // purist: ignored\n"                            /* 12 not hidden */
  "int k = f(); // purist: ignore[mis]\n"                        /* 13 misuse not hidden */
  "int m = f(); // purist: ignore[misuse-void]\n"                /* 14 misuse not hidden */
  "int n = f(); // purist: ignore[dead-call\n"                   /* 15 unclosed: nothing */
  "/* purist: ignore */ int o = f();\n"                          /* 16 all hidden */
  "\n"                                                           /* 17 */
  "int p = f(); // purist: ignore[suggest]\n"                    /* 18 suggest-* hidden */
  "char q = '\"'; // purist: ignore\n"                           /* 19 quote in a char: hidden */
  "/* purist: ignore */\n"                                       /* 20 */
  "\n"                                                           /* 21 blank between: not hidden */
  "int r = f();\n";                                              /* 22 */

typedef struct { unsigned line; const char *check; bool hidden; } sup_case;

static const sup_case sup_cases[] = {
  {1, "misuse", true},         {1, "dead-call", true},
  {2, "dead-call", true},      {2, "misuse", false},
  {4, "misuse", true},         {4, "misuse-void", true},   {4, "cheat", false},
  {6, "dead-call", false},     {7, "dead-call", false},
  {8, "cheat", true},          {8, "dead-call", true},     {8, "misuse", false},
  {11, "cheat", true},         {11, "misuse", false},
  {12, "dead-call", false},    {13, "misuse", false},      {14, "misuse", false},
  {14, "misuse-void", true},   {15, "dead-call", false},   {16, "redundant-call", true},
  {18, "suggest-pure", true},  {18, "suggest-const", true}, {18, "misuse", false},
  {19, "dead-call", true},     {22, "dead-call", false},
};

/* Each case alone: is the finding hidden? */
static void test_suppression_forms(void **state)
{
  char *dir = tmpdir_new();
  char *p = tmpdir_write(dir, "s.c", suppress_c);
  for (size_t i = 0; i < sizeof sup_cases / sizeof *sup_cases; i++) {
    const sup_case *c = &sup_cases[i];
    diag_list l = {0};
    diag_add(&l, c->check, DIAG_WARNING, "s.c", p, c->line, 1, "f", "m");
    diag_filter_suppressed(&l);
    if ((l.n == 0) != c->hidden)
      fail_msg("line %u, check %s: expected %s", c->line, c->check, c->hidden ? "hidden" : "shown");
    diag_list_free(&l);
  }
  free(p);
  tmpdir_free(dir);
}

/* Many findings over several files, some unreadable: the survivors keep
 * their order and their related locations. */
static void test_suppression_list(void **state)
{
  char *dir = tmpdir_new();
  char *p = tmpdir_write(dir, "s.c", suppress_c);
  char *q = tmpdir_write(dir, "t.c", "x(); // purist: ignore\ny();\n");
  diag_list l = {0};
  diag_add(&l, "misuse", DIAG_ERROR, "t.c", q, 2, 1, "f", "kept 1");
  diag_add(&l, "misuse", DIAG_ERROR, "s.c", p, 1, 1, "f", "hidden");
  diag *d = diag_add(&l, "misuse", DIAG_ERROR, "gone.c", "/nonexistent/gone.c", 1, 1, "f", "kept 2");
  diag_add_related(d, "s.c", p, 1, 1, "related lines do not suppress");
  diag_add(&l, "misuse", DIAG_ERROR, "t.c", q, 1, 1, "f", "hidden");
  diag_add(&l, "misuse", DIAG_ERROR, "s.c", p, 2, 1, "f", "kept 3");
  diag_add(&l, "misuse", DIAG_ERROR, "s.c", p, 99, 1, "f", "kept 4");
  diag_filter_suppressed(&l);
  assert_int_equal(l.n, 4);
  assert_string_equal(l.v[0].message, "kept 1");
  assert_string_equal(l.v[1].message, "kept 2");
  assert_int_equal(l.v[1].related.n, 1);
  assert_string_equal(l.v[2].message, "kept 3");
  assert_string_equal(l.v[3].message, "kept 4");
  diag_list_free(&l);
  diag_filter_suppressed(&l);   /* empty list */
  free(p);
  free(q);
  tmpdir_free(dir);
}

/* Writing a baseline and filtering the same findings hides them all,
 * and leaves no temporary file behind. */
static void test_baseline_round_trip(void **state)
{
  char *dir = tmpdir_new();
  diag_list l = {0};
  assert_int_equal(sample_build(dir, &l), 0);
  char *base = xasprintf("%s/purist-baseline.json", dir);
  char *err = NULL;
  assert_int_equal(diag_baseline_write(base, &l, &err), 0);
  assert_null(err);
  size_t len;
  char *text = file_read_all(base, &len);
  assert_non_null(text);
  assert_null(strstr(text, "\"line\""));
  assert_non_null(strstr(text, "\"version\": 1"));
  free(text);
  assert_int_equal(diag_baseline_filter(&l, base, &err), 0);
  assert_int_equal(l.n, 0);
  DIR *dd = opendir(dir);
  int files = 0;
  for (struct dirent *e; (e = readdir(dd));)
    if (e->d_name[0] != '.') files++;
  closedir(dd);
  assert_int_equal(files, 3);   /* api.h, util.c, the baseline */
  diag_list_free(&l);
  free(base);
  tmpdir_free(dir);
}

/* Findings that moved (other lines, other line numbers quoted in the
 * message) stay hidden; new findings show; a finding recorded once hides
 * one occurrence, not two. */
static void test_baseline_moved_and_new(void **state)
{
  char *dir = tmpdir_new();
  char *base = xasprintf("%s/b.json", dir);
  diag_list old = {0}, now = {0};
  diag_add(&old, "redundant-call", DIAG_WARNING, "a.c", NULL, 10, 3, "f", "again at line 12 (a.c:12:5)");
  diag_add(&old, "dead-call", DIAG_WARNING, "a.c", NULL, 20, 3, "g", "discarded");
  char *err = NULL;
  assert_int_equal(diag_baseline_write(base, &old, &err), 0);
  diag_add(&now, "redundant-call", DIAG_WARNING, "a.c", NULL, 13, 3, "f", "again at line 15 (a.c:15:5)");
  diag_add(&now, "dead-call", DIAG_WARNING, "a.c", NULL, 23, 3, "g", "discarded");
  diag_add(&now, "dead-call", DIAG_WARNING, "a.c", NULL, 30, 3, "g", "discarded");
  diag_add(&now, "dead-call", DIAG_WARNING, "a.c", NULL, 40, 3, "h", "discarded");
  assert_int_equal(diag_baseline_filter(&now, base, &err), 0);
  assert_int_equal(now.n, 2);
  assert_int_equal(now.v[0].line, 30);
  assert_string_equal(now.v[1].function, "h");
  diag_list_free(&old);
  diag_list_free(&now);
  free(base);
  tmpdir_free(dir);
}

/* Rewriting keeps the file's mode; a directory that does not exist is an
 * error naming the file. */
static void test_baseline_write_errors(void **state)
{
  char *dir = tmpdir_new();
  char *base = xasprintf("%s/b.json", dir);
  diag_list l = {0};
  diag_add(&l, "misuse", DIAG_ERROR, "a.c", NULL, 1, 1, "f", "m");
  char *err = NULL;
  assert_int_equal(diag_baseline_write(base, &l, &err), 0);
  assert_int_equal(chmod(base, 0640), 0);
  assert_int_equal(diag_baseline_write(base, &l, &err), 0);
  struct stat st;
  assert_int_equal(stat(base, &st), 0);
  assert_int_equal(st.st_mode & 0777, 0640);
  char *bad = xasprintf("%s/no/such/dir/b.json", dir);
  assert_int_equal(diag_baseline_write(bad, &l, &err), -1);
  assert_non_null(err);
  assert_non_null(strstr(err, bad));
  free(err);
  free(bad);
  diag_list_free(&l);
  free(base);
  tmpdir_free(dir);
}

/* Filters with a baseline of the given text; returns the error (or NULL)
 * and checks the list was left alone on error. */
static char *filter_with(const char *dir, const char *text, char **path)
{
  *path = tmpdir_write(dir, "bad.json", text);
  diag_list l = {0};
  diag_add(&l, "misuse", DIAG_ERROR, "a.c", NULL, 1, 1, "f", "m");
  char *err = NULL;
  int rc = diag_baseline_filter(&l, *path, &err);
  assert_int_equal(rc, err ? -1 : 0);
  if (err) assert_int_equal(l.n, 1);
  diag_list_free(&l);
  return err;
}

/* A syntax error names the file and the line (path:LINE:COL); structural
 * errors and a missing file name the file. */
static void test_baseline_malformed(void **state)
{
  char *dir = tmpdir_new();
  char *path, *err, *want;
  err = filter_with(dir, "{\n  \"version\": 1,\n  \"entries\": [\n    {\"check\": \"x\",,}\n  ]\n}\n", &path);
  assert_non_null(err);
  want = xasprintf("%s:4:", path);
  if (strncmp(err, want, strlen(want)) != 0) fail_msg("error '%s' does not start with '%s'", err, want);
  free(want); free(err); free(path);
  err = filter_with(dir, "{\"version\": 1, \"entries\": {}}", &path);
  assert_non_null(err);
  assert_non_null(strstr(err, path));
  free(err); free(path);
  err = filter_with(dir, "{\"version\": 2, \"entries\": []}", &path);
  assert_non_null(strstr(err, "version 2"));
  free(err); free(path);
  err = filter_with(dir, "{\"version\": 1, \"entries\": [{\"check\": \"x\", \"function\": \"f\"}]}", &path);
  assert_non_null(strstr(err, "entry 1"));
  assert_non_null(strstr(err, "message"));
  free(err); free(path);
  err = filter_with(dir, "", &path);
  assert_non_null(err);
  assert_non_null(strstr(err, path));
  free(err); free(path);
  err = filter_with(dir, "{\"version\": 1, \"entries\": []}", &path);
  assert_null(err);
  free(path);
  diag_list l = {0};
  char *missing = xasprintf("%s/missing.json", dir);
  assert_int_equal(diag_baseline_filter(&l, missing, &err), -1);
  assert_non_null(strstr(err, missing));
  assert_non_null(strstr(err, "No such file"));
  free(err);
  free(missing);
  tmpdir_free(dir);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_suppression_forms),
    cmocka_unit_test(test_suppression_list),
    cmocka_unit_test(test_baseline_round_trip),
    cmocka_unit_test(test_baseline_moved_and_new),
    cmocka_unit_test(test_baseline_write_errors),
    cmocka_unit_test(test_baseline_malformed),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
