/* test_cdb.c — unit tests of src/frontend/cdb.h: shell splitting, lexical
 * absolute paths, and compile databases (CMake and bear shapes) read from
 * files in a scratch directory. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "frontend/cdb.h"
#include "tmpdir.h"

/* ---- helpers ---- */

/* Splits cmd and checks the words are exactly want[0..n). */
static void assert_split(const char *cmd, const char *const *want, int n)
{
  int argc = -1;
  char **argv = cdb_split_command(cmd, &argc);
  assert_non_null(argv);
  assert_int_equal(argc, n);
  for (int i = 0; i < n; i++) assert_string_equal(argv[i], want[i]);
  assert_null(argv[n]);
  cdb_argv_free(argv, argc);
}

static void assert_abspath(const char *dir, const char *path, const char *want)
{
  char *got = cdb_abspath(dir, path);
  assert_string_equal(got, want);
  free(got);
}

/* Checks a job's cleaned flags are exactly want[0..n). */
static void assert_job_args(const fe_job *j, const char *const *want, int n)
{
  assert_int_equal(j->argc, n);
  for (int i = 0; i < n; i++) assert_string_equal(j->argv[i], want[i]);
}

/* A scratch directory holding one compile database with the given text;
 * returns the database path (caller frees). */
static char *write_db(const char *dir, const char *json)
{
  char *path = tmpdir_write(dir, "compile_commands.json", json);
  assert_non_null(path);
  return path;
}

/* Loads path and expects failure; returns the message (caller frees). */
static char *load_error(const char *path)
{
  fe_jobs jobs = {0};
  char *err = NULL, *db = NULL;
  int rc = cdb_load(path, &jobs, &db, &err);
  cdb_jobs_free(&jobs);
  free(db);
  assert_int_equal(rc, -1);
  assert_non_null(err);
  return err;
}

static void assert_contains(const char *haystack, const char *needle)
{
  if (!strstr(haystack, needle)) fail_msg("\"%s\" does not contain \"%s\"", haystack, needle);
}

/* ---- cdb_split_command ---- */

/* Words split on blanks, tabs and newlines; runs of blanks and leading or
 * trailing blanks make no empty words. */
static void test_split_plain_words(void **state)
{
  const char *w[] = { "cc", "-c", "a.c" };
  assert_split("  cc\t-c \n a.c  ", w, 3);
  assert_split("", NULL, 0);
  assert_split("   ", NULL, 0);
}

/* Single quotes keep everything literally, backslashes included; double
 * quotes keep blanks and honour \" \\ \$ but keep other backslashes. */
static void test_split_quotes(void **state)
{
  const char *w[] = { "a b", "x\\y", "say \"hi\"", "c\\d", "$HOME", "back\\" };
  assert_split("'a b' 'x\\y' \"say \\\"hi\\\"\" \"c\\d\" \"\\$HOME\" \"back\\\\\"", w, 6);
}

/* A backslash outside quotes escapes the next character (a blank too). */
static void test_split_backslash(void **state)
{
  const char *w[] = { "my file.c", "-DQ=\"x\"" };
  assert_split("my\\ file.c -DQ=\\\"x\\\"", w, 2);
}

/* Adjacent quoted and unquoted pieces form one word; '' and "" are empty
 * words, not nothing. */
static void test_split_concatenation_and_empty(void **state)
{
  const char *w[] = { "-DNAME=a b c", "", "", "x" };
  assert_split("-DNAME='a b'\" c\" '' \"\" x", w, 4);
}

/* An unterminated quote is an error (NULL), not a guess. */
static void test_split_unterminated_quote(void **state)
{
  int argc = 0;
  assert_null(cdb_split_command("cc 'a.c", &argc));
  assert_null(cdb_split_command("cc \"a.c", &argc));
  assert_null(cdb_split_command("cc \"a\\\"", &argc));
}

/* ---- cdb_abspath ---- */

/* Relative paths are joined to dir; "." and empty segments vanish. */
static void test_abspath_join_and_dot(void **state)
{
  assert_abspath("/a/b", "c.c", "/a/b/c.c");
  assert_abspath("/a/b", "./c/./d.c", "/a/b/c/d.c");
  assert_abspath("/a/b/", "c//d.c", "/a/b/c/d.c");
  assert_abspath("/a/b", "", "/a/b");
  assert_abspath("/a", "...", "/a/...");
}

/* ".." removes the previous segment, never going above the root. */
static void test_abspath_dotdot(void **state)
{
  assert_abspath("/a/b", "../c.c", "/a/c.c");
  assert_abspath("/a/b", "x/../../y", "/a/y");
  assert_abspath("/a", "../../..", "/");
  assert_abspath("/", "..", "/");
}

/* Absolute paths ignore dir; trailing slashes go; the root stays "/". */
static void test_abspath_absolute_trailing_root(void **state)
{
  assert_abspath("/ignored", "/x/y/", "/x/y");
  assert_abspath("/ignored", "/", "/");
  assert_abspath("/", ".", "/");
  assert_abspath("/", "x", "/x");
  assert_abspath("/d", "/a/./b/../c", "/a/c");
}

/* ---- cdb_load ---- */

/* A CMake-style entry ("command" string) becomes one job: absolute file and
 * dir, and flags cleaned of ccache, the compiler, -c, -o x.o, -MD -MF x.d and
 * the source file, keeping -I (both spellings), -D, -std= and the rest. */
static void test_load_cmake_command(void **state)
{
  char *dir = tmpdir_new();
  char *json = xasprintf(
      "[{\"directory\": \"%s/build\", \"file\": \"%s/src/a.c\",\n"
      "  \"command\": \"/usr/bin/ccache /usr/bin/gcc -c -o x.o -MD -MF x.d -Iinc -I inc2 "
      "'-DMSG=hi there' -std=c11 -O2 ../src/a.c\"}]\n", dir, dir);
  char *path = write_db(dir, json);
  fe_jobs jobs = {0};
  char *err = NULL, *db = NULL;
  assert_int_equal(cdb_load(path, &jobs, &db, &err), 0);
  assert_string_equal(db, path);
  assert_int_equal(jobs.n, 1);
  char *wantdir = xasprintf("%s/build", dir), *wantfile = xasprintf("%s/src/a.c", dir);
  assert_string_equal(jobs.v[0].dir, wantdir);
  assert_string_equal(jobs.v[0].file, wantfile);
  const char *want[] = { "-Iinc", "-I", "inc2", "-DMSG=hi there", "-std=c11", "-O2" };
  assert_job_args(&jobs.v[0], want, 6);
  free(wantdir); free(wantfile);
  cdb_jobs_free(&jobs);
  free(db); free(path); free(json);
  tmpdir_free(dir);
}

/* A bear-style entry ("arguments" array) is used word for word (no shell
 * splitting: a blank inside an argument stays), cleaned the same way. */
static void test_load_bear_arguments(void **state)
{
  char *dir = tmpdir_new();
  char *json = xasprintf(
      "[{\"directory\": \"%s\", \"file\": \"a.c\",\n"
      "  \"arguments\": [\"cc\", \"-c\", \"-DMSG=a b\", \"-Iinclude\", \"a.c\", \"-o\", \"a.o\"]}]",
      dir);
  char *path = write_db(dir, json);
  fe_jobs jobs = {0};
  char *err = NULL;
  assert_int_equal(cdb_load(path, &jobs, NULL, &err), 0);
  assert_int_equal(jobs.n, 1);
  const char *want[] = { "-DMSG=a b", "-Iinclude" };
  assert_job_args(&jobs.v[0], want, 2);
  cdb_jobs_free(&jobs);
  free(path); free(json);
  tmpdir_free(dir);
}

/* A relative "directory" is taken against the database's own directory,
 * and a relative "file" against "directory"; loading by directory name
 * finds DIR/compile_commands.json. */
static void test_load_relative_paths(void **state)
{
  char *dir = tmpdir_new();
  char *path = write_db(dir,
      "[{\"directory\": \"out/../build\", \"file\": \"../src/m.c\", \"command\": \"cc -c ../src/m.c\"}]");
  fe_jobs jobs = {0};
  char *err = NULL, *db = NULL;
  assert_int_equal(cdb_load(dir, &jobs, &db, &err), 0);
  assert_string_equal(db, path);
  assert_int_equal(jobs.n, 1);
  char *wantdir = xasprintf("%s/build", dir), *wantfile = xasprintf("%s/src/m.c", dir);
  assert_string_equal(jobs.v[0].dir, wantdir);
  assert_string_equal(jobs.v[0].file, wantfile);
  assert_int_equal(jobs.v[0].argc, 0);
  free(wantdir); free(wantfile);
  cdb_jobs_free(&jobs);
  free(db); free(path);
  tmpdir_free(dir);
}

/* A file compiled twice (say for a static and a shared library) gives one
 * job, the first; C++ and other non-C sources give none. */
static void test_load_dedup_and_skip_cpp(void **state)
{
  char *dir = tmpdir_new();
  char *json = xasprintf(
      "[{\"directory\": \"%s\", \"file\": \"a.c\", \"command\": \"cc -DFIRST -c a.c\"},\n"
      " {\"directory\": \"%s\", \"file\": \"b.cpp\", \"command\": \"c++ -c b.cpp\"},\n"
      " {\"directory\": \"%s/x/..\", \"file\": \"./a.c\", \"command\": \"cc -DSECOND -fPIC -c a.c\"},\n"
      " {\"directory\": \"%s\", \"file\": \"c.c\", \"command\": \"cc -c c.c\"}]", dir, dir, dir, dir);
  char *path = write_db(dir, json);
  fe_jobs jobs = {0};
  char *err = NULL;
  assert_int_equal(cdb_load(path, &jobs, NULL, &err), 0);
  assert_int_equal(jobs.n, 2);
  const char *want[] = { "-DFIRST" };
  assert_job_args(&jobs.v[0], want, 1);
  char *c = xasprintf("%s/c.c", dir);
  assert_string_equal(jobs.v[1].file, c);
  free(c);
  cdb_jobs_free(&jobs);
  free(path); free(json);
  tmpdir_free(dir);
}

/* A missing database is an error naming the path it looked for. */
static void test_load_missing_file(void **state)
{
  char *dir = tmpdir_new();
  char *err = load_error(dir);   /* an empty directory: no compile_commands.json */
  char *want = xasprintf("%s/compile_commands.json", dir);
  assert_contains(err, want);
  free(want); free(err);
  tmpdir_free(dir);
}

/* Malformed JSON is an error giving the path and the line of the fault. */
static void test_load_malformed_json(void **state)
{
  char *dir = tmpdir_new();
  char *path = write_db(dir, "[\n  {\"directory\": \"/\",\n   \"file\": }\n]\n");
  char *err = load_error(path);
  char *want = xasprintf("%s:3:", path);
  assert_contains(err, want);
  free(want); free(err); free(path);
  tmpdir_free(dir);
}

/* A JSON document that is not an array is refused with a message saying so. */
static void test_load_not_array(void **state)
{
  char *dir = tmpdir_new();
  char *path = write_db(dir, "{\"directory\": \"/\", \"file\": \"a.c\", \"command\": \"cc a.c\"}");
  char *err = load_error(path);
  assert_contains(err, path);
  assert_contains(err, "array");
  free(err); free(path);
  tmpdir_free(dir);
}

/* An entry missing "file", "directory" or both of "arguments"/"command" is an
 * error naming the entry (by index) and the keys it needs. */
static void test_load_entry_missing_keys(void **state)
{
  static const char *const bad[] = {
    "{\"directory\": \"/\", \"command\": \"cc -c a.c\"}",
    "{\"file\": \"a.c\", \"command\": \"cc -c a.c\"}",
    "{\"directory\": \"/\", \"file\": \"a.c\"}",
    "{\"directory\": \"/\", \"file\": 3, \"command\": \"cc -c a.c\"}",
  };
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    char *dir = tmpdir_new();
    char *json = xasprintf("[{\"directory\": \"/\", \"file\": \"ok.c\", \"command\": \"cc ok.c\"},\n %s]", bad[i]);
    char *path = write_db(dir, json);
    char *err = load_error(path);
    assert_contains(err, "entry 1");
    assert_contains(err, "\"file\"");
    free(err); free(path); free(json);
    tmpdir_free(dir);
  }
}

/* A "command" with an unterminated quote is an error naming the entry. */
static void test_load_unterminated_command(void **state)
{
  char *dir = tmpdir_new();
  char *path = write_db(dir, "[{\"directory\": \"/\", \"file\": \"a.c\", \"command\": \"cc '-DX a.c\"}]");
  char *err = load_error(path);
  assert_contains(err, "entry 0");
  assert_contains(err, "quote");
  free(err); free(path);
  tmpdir_free(dir);
}

/* ---- cdb_from_files ---- */

/* Files named on the command line become jobs relative to the current
 * directory, each with the given flags cleaned like a database's; a file
 * named twice gives one job and a .cpp file none. */
static void test_from_files(void **state)
{
  char *dir = tmpdir_new(), *oldcwd = getcwd(NULL, 0);
  free(tmpdir_write(dir, "a.c", "int a;\n"));
  free(tmpdir_write(dir, "b.cpp", "int b;\n"));
  assert_int_equal(chdir(dir), 0);
  char *files[] = { "a.c", "./a.c", "b.cpp" };
  char *flags[] = { "-I", "inc", "-DX=1", "-c", "-std=gnu11", "-o", "a.o" };
  fe_jobs jobs = {0};
  char *err = NULL, *skipped = NULL;
  int rc = cdb_from_files(files, 3, flags, 7, &jobs, &err, &skipped);
  assert_int_equal(chdir(oldcwd), 0);
  assert_int_equal(rc, 0);
  assert_int_equal(jobs.n, 1);
  assert_non_null(skipped);   /* issue 23 item 11: said, not dropped silently */
  assert_string_equal(skipped, "b.cpp: not a C file (.c, .i, .h): left out; add -- -x c to analyse it as C");
  free(skipped);
  char *want_file = xasprintf("%s/a.c", dir);
  assert_string_equal(jobs.v[0].file, want_file);
  assert_string_equal(jobs.v[0].dir, dir);
  const char *want[] = { "-I", "inc", "-DX=1", "-std=gnu11" };
  assert_job_args(&jobs.v[0], want, 4);
  free(want_file);
  cdb_jobs_free(&jobs);
  free(oldcwd);
  tmpdir_free(dir);
}

/* A file that cannot be read is an error naming it. */
static void test_from_files_missing(void **state)
{
  char *dir = tmpdir_new();
  char *missing = xasprintf("%s/nope.c", dir);
  char *files[] = { missing };
  fe_jobs jobs = {0};
  char *err = NULL, *skipped = NULL;
  assert_int_equal(cdb_from_files(files, 1, NULL, 0, &jobs, &err, &skipped), -1);
  assert_non_null(err);
  assert_contains(err, missing);
  free(err); free(missing);
  cdb_jobs_free(&jobs);
  tmpdir_free(dir);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_split_plain_words),
    cmocka_unit_test(test_split_quotes),
    cmocka_unit_test(test_split_backslash),
    cmocka_unit_test(test_split_concatenation_and_empty),
    cmocka_unit_test(test_split_unterminated_quote),
    cmocka_unit_test(test_abspath_join_and_dot),
    cmocka_unit_test(test_abspath_dotdot),
    cmocka_unit_test(test_abspath_absolute_trailing_root),
    cmocka_unit_test(test_load_cmake_command),
    cmocka_unit_test(test_load_bear_arguments),
    cmocka_unit_test(test_load_relative_paths),
    cmocka_unit_test(test_load_dedup_and_skip_cpp),
    cmocka_unit_test(test_load_missing_file),
    cmocka_unit_test(test_load_malformed_json),
    cmocka_unit_test(test_load_not_array),
    cmocka_unit_test(test_load_entry_missing_keys),
    cmocka_unit_test(test_load_unterminated_command),
    cmocka_unit_test(test_from_files),
    cmocka_unit_test(test_from_files_missing),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
