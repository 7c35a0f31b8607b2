/* test_strbuf.c — unit tests of src/util/strbuf.h (growable string). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>
#include "util/strbuf.h"

/* A zero-initialised buffer reads as "" before anything is added. */
static void test_empty_reads_as_empty_string(void **state)
{
  strbuf b = {0};
  assert_string_equal(sb_str(&b), "");
  sb_printf(&b, "%s", "");
  assert_string_equal(sb_str(&b), "");
  sb_free(&b);
}

/* puts and printf append in order and keep the string NUL-terminated. */
static void test_puts_and_printf_append(void **state)
{
  strbuf b = {0};
  sb_puts(&b, "f");
  sb_printf(&b, "(%d, %s)", 42, "x");
  sb_puts(&b, ";");
  assert_string_equal(sb_str(&b), "f(42, x);");
  assert_int_equal(b.n, strlen("f(42, x);"));
  sb_free(&b);
}

/* Growth well past the initial capacity keeps every byte. */
static void test_growth_keeps_content(void **state)
{
  strbuf b = {0};
  for (int i = 0; i < 10000; i++) sb_printf(&b, "%04d", i);
  assert_int_equal(b.n, 40000);
  assert_int_equal(strlen(sb_str(&b)), 40000);
  assert_memory_equal(sb_str(&b), "000000010002", 12);
  assert_memory_equal(sb_str(&b) + 39996, "9999", 5);
  sb_free(&b);
}

/* clear empties the string but keeps the storage for reuse. */
static void test_clear_keeps_storage(void **state)
{
  strbuf b = {0};
  sb_puts(&b, "some text that is long enough");
  size_t cap = b.cap;
  sb_clear(&b);
  assert_string_equal(sb_str(&b), "");
  assert_int_equal(b.cap, cap);
  sb_puts(&b, "new");
  assert_string_equal(sb_str(&b), "new");
  sb_free(&b);
}

/* free releases the storage and leaves an empty, reusable buffer. */
static void test_free_resets(void **state)
{
  strbuf b = {0};
  sb_puts(&b, "x");
  sb_free(&b);
  assert_null(b.s);
  assert_string_equal(sb_str(&b), "");
  sb_puts(&b, "y");
  assert_string_equal(sb_str(&b), "y");
  sb_free(&b);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_empty_reads_as_empty_string),
    cmocka_unit_test(test_puts_and_printf_append),
    cmocka_unit_test(test_growth_keeps_content),
    cmocka_unit_test(test_clear_keeps_storage),
    cmocka_unit_test(test_free_resets),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
