/* test_strtab.c — unit tests of src/util/strtab.h (string interning). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>
#include "util/strtab.h"
#include "util/xalloc.h"

/* A fresh table already holds exactly one string: id 0 is "". */
static void test_new_table_has_empty_string_at_id_0(void **state)
{
  strtab *t = strtab_new();
  assert_int_equal(strtab_count(t), 1);
  assert_string_equal(strtab_get(t, 0), "");
  assert_int_equal(strtab_len(t, 0), 0);
  assert_int_equal(strtab_intern(t, ""), 0);
  assert_int_equal(strtab_find(t, ""), 0);
  assert_int_equal(strtab_count(t), 1);
  strtab_free(t);
}

/* Interning the same string twice yields the same id and stores it once;
 * new strings get consecutive ids. */
static void test_intern_is_idempotent_and_ids_consecutive(void **state)
{
  strtab *t = strtab_new();
  uint32_t a = strtab_intern(t, "alpha"), b = strtab_intern(t, "beta");
  assert_int_equal(a, 1);
  assert_int_equal(b, 2);
  assert_int_equal(strtab_intern(t, "alpha"), a);
  assert_int_equal(strtab_intern(t, "beta"), b);
  assert_int_equal(strtab_count(t), 3);
  assert_string_equal(strtab_get(t, a), "alpha");
  assert_int_equal(strtab_len(t, b), 4);
  strtab_free(t);
}

/* strtab_find reports present strings by id and absent ones as UINT32_MAX,
 * without adding anything. */
static void test_find_present_and_absent(void **state)
{
  strtab *t = strtab_new();
  uint32_t id = strtab_intern(t, "main");
  assert_int_equal(strtab_find(t, "main"), id);
  assert_int_equal(strtab_find(t, "mai"), UINT32_MAX);
  assert_int_equal(strtab_find(t, "main2"), UINT32_MAX);
  assert_int_equal(strtab_count(t), 2);
  strtab_free(t);
}

/* intern_n takes exactly len bytes: a prefix of a longer buffer is its own
 * NUL-terminated string, and bytes after an embedded NUL still count. */
static void test_intern_n_uses_exact_length(void **state)
{
  strtab *t = strtab_new();
  uint32_t hello = strtab_intern_n(t, "hello world", 5);
  assert_string_equal(strtab_get(t, hello), "hello");
  assert_int_equal(strtab_find(t, "hello"), hello);
  uint32_t a = strtab_intern(t, "a");
  uint32_t anb = strtab_intern_n(t, "a\0b", 3);
  assert_int_not_equal(a, anb);
  assert_int_equal(strtab_len(t, anb), 3);
  assert_memory_equal(strtab_get(t, anb), "a\0b", 4);
  strtab_free(t);
}

/* Many distinct strings (enough to grow the hash table many times and fill
 * several 1 MiB chunks) keep their ids, and pointers returned early stay
 * valid and unchanged. */
static void test_many_strings_ids_and_pointers_stable(void **state)
{
  enum { N = 200000 };
  strtab *t = strtab_new();
  uint32_t first = strtab_intern(t, "first-string");
  const char *first_p = strtab_get(t, first);
  char buf[64];
  for (int i = 0; i < N; i++) {
    snprintf(buf, sizeof buf, "symbol_%d_padding_padding", i);
    assert_int_equal(strtab_intern(t, buf), (uint32_t)i + 2);
  }
  assert_int_equal(strtab_count(t), N + 2);
  assert_ptr_equal(strtab_get(t, first), first_p);
  assert_string_equal(first_p, "first-string");
  for (int i = 0; i < N; i += 997) {
    snprintf(buf, sizeof buf, "symbol_%d_padding_padding", i);
    assert_int_equal(strtab_find(t, buf), (uint32_t)i + 2);
    assert_string_equal(strtab_get(t, (uint32_t)i + 2), buf);
  }
  strtab_free(t);
}

/* A string longer than one storage chunk (1 MiB) is stored whole, and
 * strings interned before and after it are unaffected. */
static void test_string_larger_than_chunk(void **state)
{
  size_t big = (3u << 20) + 17;
  char *s = xmalloc(big + 1);
  for (size_t i = 0; i < big; i++) s[i] = (char)('a' + i % 26);
  s[big] = '\0';
  strtab *t = strtab_new();
  uint32_t before = strtab_intern(t, "before");
  const char *before_p = strtab_get(t, before);
  uint32_t id = strtab_intern_n(t, s, big);
  uint32_t after = strtab_intern(t, "after");
  assert_int_equal(strtab_len(t, id), big);
  assert_memory_equal(strtab_get(t, id), s, big + 1);
  assert_int_equal(strtab_find(t, s), id);
  assert_int_equal(strtab_intern_n(t, s, big), id);
  assert_ptr_equal(strtab_get(t, before), before_p);
  assert_string_equal(strtab_get(t, after), "after");
  strtab_free(t);
  free(s);
}

/* Strings of exactly the chunk size and one byte less (which with the NUL
 * fill a chunk exactly) are stored intact next to small ones. */
static void test_strings_at_chunk_boundary(void **state)
{
  size_t sizes[] = { (1u << 20) - 1, 1u << 20, 10, (1u << 20) - 5 };
  char *s[4];
  uint32_t id[4];
  strtab *t = strtab_new();
  for (int k = 0; k < 4; k++) {
    s[k] = xmalloc(sizes[k] + 1);
    memset(s[k], 'A' + k, sizes[k]);
    s[k][sizes[k]] = '\0';
    id[k] = strtab_intern(t, s[k]);
  }
  for (int k = 0; k < 4; k++) {
    assert_int_equal(strtab_len(t, id[k]), sizes[k]);
    assert_memory_equal(strtab_get(t, id[k]), s[k], sizes[k] + 1);
    free(s[k]);
  }
  strtab_free(t);
}

/* A table sized for a few strings behaves as any table when it gets more
 * (its slots and its one chunk outgrown): ids consecutive, pointers stable,
 * every string found. */
static void test_sized_table_outgrown(void **state)
{
  (void)state;
  strtab *t = strtab_new_sized(3, 12);
  assert_int_equal(strtab_count(t), 1);
  assert_string_equal(strtab_get(t, 0), "");
  char name[32];
  const char *first = NULL;
  for (int i = 1; i <= 3000; i++) {
    snprintf(name, sizeof name, "name%d", i);
    assert_int_equal(strtab_intern(t, name), i);
    if (i == 1) first = strtab_get(t, 1);
  }
  assert_ptr_equal(strtab_get(t, 1), first);
  for (int i = 1; i <= 3000; i++) {
    snprintf(name, sizeof name, "name%d", i);
    assert_int_equal(strtab_find(t, name), i);
    assert_string_equal(strtab_get(t, i), name);
  }
  strtab_free(t);
}

/* strtab_intern_from copies a string of another table by id: the same id
 * as interning its text, the empty string for id 0 or an id out of range. */
static void test_intern_from_other_table(void **state)
{
  (void)state;
  strtab *src = strtab_new(), *dst = strtab_new();
  uint32_t a = strtab_intern(src, "alpha"), b = strtab_intern_n(src, "be\0ta", 5);
  uint32_t pre = strtab_intern(dst, "zeta");
  uint32_t da = strtab_intern_from(dst, src, a);
  assert_int_equal(da, pre + 1);
  assert_int_equal(strtab_intern_from(dst, src, a), da);
  assert_int_equal(strtab_intern(dst, "alpha"), da);
  uint32_t db = strtab_intern_from(dst, src, b);
  assert_int_equal(strtab_len(dst, db), 5);
  assert_memory_equal(strtab_get(dst, db), "be\0ta", 5);
  assert_int_equal(strtab_intern_n(dst, "be\0ta", 5), db);
  assert_int_equal(strtab_intern_from(dst, src, 0), 0);
  assert_int_equal(strtab_intern_from(dst, src, 999), 0);
  assert_int_equal(strtab_count(dst), 4);
  strtab_free(src);
  strtab_free(dst);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_new_table_has_empty_string_at_id_0),
    cmocka_unit_test(test_intern_is_idempotent_and_ids_consecutive),
    cmocka_unit_test(test_find_present_and_absent),
    cmocka_unit_test(test_intern_n_uses_exact_length),
    cmocka_unit_test(test_many_strings_ids_and_pointers_stable),
    cmocka_unit_test(test_string_larger_than_chunk),
    cmocka_unit_test(test_strings_at_chunk_boundary),
    cmocka_unit_test(test_sized_table_outgrown),
    cmocka_unit_test(test_intern_from_other_table),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
