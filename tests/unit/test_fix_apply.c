/* test_fix_apply.c — fix_plan_apply, the part `purist impact` relies on:
 * the same edits written in place, into a copy of the tree (dst_root), or
 * as a diff; a file whose content hash differs is refused untouched; an
 * edit whose text is not where the plan says is refused, the others made.
 * Plans are built by hand (fix_internal.h) so each case is exact. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>
#include <sys/stat.h>
#include <xxhash.h>
#include "fix/fix_internal.h"
#include "util/fileio.h"
#include "tmpdir.h"

static const char header[] = "int sq(int x);\nint neg(int x) __attribute__((pure));\n";

/* A plan with two edits on dir/api.h: add const to sq, pure -> const on neg. */
static fix_plan *two_edit_plan(const char *path, const char *text)
{
  fix_plan *pl = xcalloc(1, sizeof *pl);
  fix_op add = { .kind = FOP_INSERT_END, .line = 1, .col = 14, .text = xstrdup(" __attribute__((const))"),
                 .expect = xstrdup("sq"), .hash = XXH64(text, strlen(text), 0) };
  add.info = (fix_edit_info){ FIX_ADD, xstrdup(path), 1, 5, xstrdup("sq"), xstrdup("add __attribute__((const))") };
  add.shown = xstrdup("api.h");
  fix_op rep = { .kind = FOP_REPLACE, .line = 2, .col = 31, .end_line = 2, .end_col = 35, .text = xstrdup("const"),
                 .hash = add.hash };
  rep.info = (fix_edit_info){ FIX_REPLACE, xstrdup(path), 2, 5, xstrdup("neg"), xstrdup("pure -> const") };
  rep.shown = xstrdup("api.h");
  vec_push(&pl->ops, add);
  vec_push(&pl->ops, rep);
  return pl;
}

static const char fixed[] = "int sq(int x) __attribute__((const));\nint neg(int x) __attribute__((const));\n";

static char *slurp(const char *path)
{
  size_t len;
  return file_read_all(path, &len);
}

static void test_in_place_keeps_mode(void **state)
{
  char *dir = tmpdir_new(), *path = tmpdir_write(dir, "api.h", header);
  chmod(path, 0640);
  fix_plan *pl = two_edit_plan(path, header);
  fix_result res;
  assert_int_equal(fix_plan_apply(pl, dir, NULL, NULL, &res), 0);
  assert_int_equal(res.files_written, 1);
  assert_int_equal(res.edits, 2);
  assert_int_equal(res.applied.n, 2);
  char *now = slurp(path);
  assert_string_equal(now, fixed);
  struct stat st;
  assert_int_equal(stat(path, &st), 0);
  assert_int_equal(st.st_mode & 07777, 0640);
  free(now);
  fix_result_free(&res);
  fix_plan_free(pl);
  free(path);
  tmpdir_free(dir);
}

/* Into a copy: dst_root/api.h gets the edits, the source stays as it was. */
static void test_into_copy(void **state)
{
  char *src = tmpdir_new(), *dst = tmpdir_new();
  char *path = tmpdir_write(src, "api.h", header), *copy = tmpdir_write(dst, "api.h", header);
  fix_plan *pl = two_edit_plan(path, header);
  fix_result res;
  assert_int_equal(fix_plan_apply(pl, src, dst, NULL, &res), 0);
  char *a = slurp(path), *b = slurp(copy);
  assert_string_equal(a, header);
  assert_string_equal(b, fixed);
  free(a);
  free(b);
  fix_result_free(&res);
  fix_plan_free(pl);
  free(path);
  free(copy);
  tmpdir_free(src);
  tmpdir_free(dst);
}

static void test_diff(void **state)
{
  char *dir = tmpdir_new(), *path = tmpdir_write(dir, "api.h", header);
  fix_plan *pl = two_edit_plan(path, header);
  char *out = NULL;
  size_t outlen = 0;
  FILE *f = open_memstream(&out, &outlen);
  fix_result res;
  assert_int_equal(fix_plan_apply(pl, dir, NULL, f, &res), 0);
  fclose(f);
  assert_non_null(strstr(out, "--- a/api.h\n+++ b/api.h\n"));
  assert_non_null(strstr(out, "-int sq(int x);\n-int neg(int x) __attribute__((pure));\n"
                              "+int sq(int x) __attribute__((const));\n+int neg(int x) __attribute__((const));\n"));
  char *now = slurp(path);
  assert_string_equal(now, header);   /* a diff writes nothing */
  free(now);
  free(out);
  fix_result_free(&res);
  fix_plan_free(pl);
  free(path);
  tmpdir_free(dir);
}

/* The file changed after the analysis: refused, untouched, reported. */
static void test_changed_file_refused(void **state)
{
  char *dir = tmpdir_new(), *path = tmpdir_write(dir, "api.h", header);
  fix_plan *pl = two_edit_plan(path, "int sq(int x);\n");
  fix_result res;
  assert_int_equal(fix_plan_apply(pl, dir, NULL, NULL, &res), -1);
  assert_int_equal(res.files_refused, 1);
  assert_int_equal(res.files_written, 0);
  assert_int_equal(res.notes.n, 1);
  assert_true(res.notes.v[0].error);
  assert_non_null(strstr(res.notes.v[0].text, "api.h: error: not edited: it changed since it was analysed"));
  char *now = slurp(path);
  assert_string_equal(now, header);
  free(now);
  fix_result_free(&res);
  fix_plan_free(pl);
  free(path);
  tmpdir_free(dir);
}

/* An edit whose text is not where the plan says (the name moved) is
 * refused with a message; the other edit of the file is still made. */
static void test_misplaced_edit_refused(void **state)
{
  char *dir = tmpdir_new(), *path = tmpdir_write(dir, "api.h", header);
  fix_plan *pl = two_edit_plan(path, header);
  free(pl->ops.v[0].expect);
  pl->ops.v[0].expect = xstrdup("cube");
  fix_result res;
  assert_int_equal(fix_plan_apply(pl, dir, NULL, NULL, &res), -1);
  assert_int_equal(res.edits, 1);
  assert_int_equal(res.applied.n, 1);
  assert_int_equal(res.applied.v[0], 1);
  assert_non_null(strstr(res.notes.v[0].text, "api.h:1:5: error: cannot add __attribute__((const)) on 'sq': "
                                              "the function's name is not where it was"));
  char *now = slurp(path);
  assert_string_equal(now, "int sq(int x);\nint neg(int x) __attribute__((const));\n");
  free(now);
  fix_result_free(&res);
  fix_plan_free(pl);
  free(path);
  tmpdir_free(dir);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_in_place_keeps_mode),
    cmocka_unit_test(test_into_copy),
    cmocka_unit_test(test_diff),
    cmocka_unit_test(test_changed_file_refused),
    cmocka_unit_test(test_misplaced_edit_refused),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
