/* test_diag.c — the data model (diag.c): adding copies strings, sorting is
 * total and deterministic, diag_key ignores positions, keep compacts. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>
#include "report/diag_out.h"

/* Strings are copied; NULLs read as ""; abs_file defaults to file. */
static void test_add_copies(void **state)
{
  char msg[] = "message";
  diag_list l = {0};
  diag *d = diag_add(&l, "misuse", DIAG_ERROR, "a.c", NULL, 1, 2, NULL, msg);
  diag_add_related(d, "b.c", NULL, 3, 4, "rel");
  msg[0] = 'X';
  assert_string_equal(l.v[0].message, "message");
  assert_string_equal(l.v[0].abs_file, "a.c");
  assert_string_equal(l.v[0].function, "");
  assert_string_equal(l.v[0].related.v[0].abs_file, "b.c");
  assert_int_equal(l.v[0].related.v[0].column, 4);
  diag_list_free(&l);
  assert_int_equal(l.n, 0);
}

/* file, line, column, check, message; then function and severity. */
static void test_sort(void **state)
{
  diag_list l = {0};
  diag_add(&l, "misuse", DIAG_ERROR, "b.c", NULL, 1, 1, "f", "m");
  diag_add(&l, "misuse", DIAG_ERROR, "a.c", NULL, 10, 1, "f", "m");
  diag_add(&l, "misuse", DIAG_ERROR, "a.c", NULL, 9, 7, "f", "m");
  diag_add(&l, "misuse", DIAG_ERROR, "a.c", NULL, 9, 3, "f", "z");
  diag_add(&l, "cheat", DIAG_NOTE, "a.c", NULL, 9, 3, "f", "z");
  diag_add(&l, "cheat", DIAG_NOTE, "a.c", NULL, 9, 3, "f", "a");
  diag_sort(&l);
  const char *want[][2] = {{"cheat", "a"}, {"cheat", "z"}, {"misuse", "z"},
                           {"misuse", "m"}, {"misuse", "m"}, {"misuse", "m"}};
  unsigned lines[] = {9, 9, 9, 9, 10, 1};
  for (size_t i = 0; i < 6; i++) {
    assert_string_equal(l.v[i].check, want[i][0]);
    assert_string_equal(l.v[i].message, want[i][1]);
    assert_int_equal(l.v[i].line, lines[i]);
  }
  assert_string_equal(l.v[5].file, "b.c");
  diag_list_free(&l);
}

static void test_severity_names(void **state)
{
  assert_string_equal(diag_severity_name(DIAG_ERROR), "error");
  assert_string_equal(diag_severity_name(DIAG_WARNING), "warning");
  assert_string_equal(diag_severity_name(DIAG_NOTE), "note");
}

/* Line and column numbers in a message do not change the key; other
 * numbers, the check and the function do. */
static void test_key(void **state)
{
  char *a = diag_key("misuse", "f", "reads 'g' (via h, util.c:14:12) at line 3, column 7");
  char *b = diag_key("misuse", "f", "reads 'g' (via h, util.c:20:1) at line 44, column 9");
  char *c = diag_key("misuse", "f", "reads 'g2' (via h, util.c:20:1) at line 44, column 9");
  char *d = diag_key("misuse", "f", "2 call sites");
  char *e = diag_key("misuse", "f", "3 call sites");
  char *f = diag_key("misuse", "g", "2 call sites");
  char *g = diag_key("misuse", "f", "pipeline 3");
  char *h = diag_key("misuse", "f", "pipeline 4");
  assert_string_equal(a, b);
  assert_string_not_equal(b, c);
  assert_string_not_equal(d, e);
  assert_string_not_equal(d, f);
  assert_string_not_equal(g, h);   /* "line" inside a word is no position */
  free(a); free(b); free(c); free(d); free(e); free(f); free(g); free(h);
}

/* keep compacts in order and frees what it drops (ASan checks). */
static void test_keep(void **state)
{
  diag_list l = {0};
  for (unsigned i = 0; i < 5; i++) {
    diag *d = diag_add(&l, "dead-call", DIAG_WARNING, "a.c", NULL, i + 1, 1, "f", "m");
    diag_add_related(d, "a.c", NULL, 1, 1, "r");
  }
  bool keep[5] = {false, true, false, true, true};
  diag_list_keep(&l, keep);
  assert_int_equal(l.n, 3);
  assert_int_equal(l.v[0].line, 2);
  assert_int_equal(l.v[1].line, 4);
  assert_int_equal(l.v[2].line, 5);
  diag_list_free(&l);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_add_copies),
    cmocka_unit_test(test_sort),
    cmocka_unit_test(test_severity_names),
    cmocka_unit_test(test_key),
    cmocka_unit_test(test_keep),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
