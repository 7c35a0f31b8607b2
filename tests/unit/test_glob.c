/* test_glob.c — the globs of --exclude, --include and --checks. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include "util/glob.h"

static void names(void **state)
{
  (void)state;
  assert_true(glob_match_name("*", "misuse-void"));
  assert_true(glob_match_name("cheat*", "cheat-discarded"));
  assert_true(glob_match_name("cheat*", "cheat"));
  assert_false(glob_match_name("cheat", "cheat-discarded"));
  assert_true(glob_match_name("*-call", "loop-invariant-call"));
  assert_true(glob_match_name("suggest-?ure", "suggest-pure"));
  assert_false(glob_match_name("misuse", "misuse-void"));
}

static void paths(void **state)
{
  (void)state;
  /* A directory, with or without the globs, excludes what is under it. */
  assert_true(glob_match_path("tests/**", "tests/unit/a.c"));
  assert_true(glob_match_path("tests", "tests/unit/a.c"));
  assert_true(glob_match_path("tests/", "tests/a.c"));
  assert_false(glob_match_path("tests/**", "src/tests.c"));
  assert_false(glob_match_path("tests", "src/tests.c"));
  /* No '/': any component, as .gitignore. */
  assert_true(glob_match_path("tests", "lib/tests/a.c"));
  assert_true(glob_match_path("*.gen.c", "src/deep/x.gen.c"));
  assert_false(glob_match_path("*.gen.c", "src/x.c"));
  /* With '/': from the root; '*' stays in one component, '**' spans. */
  assert_true(glob_match_path("src/*.c", "src/a.c"));
  assert_false(glob_match_path("src/*.c", "src/sub/a.c"));
  assert_false(glob_match_path("src/*.c", "lib/src/a.c"));
  assert_true(glob_match_path("src/**/*.c", "src/a.c"));
  assert_true(glob_match_path("src/**/*.c", "src/x/y/a.c"));
  assert_true(glob_match_path("**/third_party/**", "a/b/third_party/z/q.c"));
  assert_true(glob_match_path("/usr/include/**", "/usr/include/stdio.h"));
  assert_false(glob_match_path("/usr/include/**", "/usr/local/include/x.h"));
  assert_true(glob_match_path("src/a.c", "src/a.c"));
  assert_false(glob_match_path("src/a.c", "src/a.cc"));
}

int main(void)
{
  const struct CMUnitTest tests[] = { cmocka_unit_test(names), cmocka_unit_test(paths) };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
