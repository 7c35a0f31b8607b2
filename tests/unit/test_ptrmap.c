/* test_ptrmap.c — unit tests of src/util/ptrmap.h (64-bit key → uint32 map). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include "util/ptrmap.h"

/* A zero-initialised map is empty and usable: lookups find nothing. */
static void test_zero_map_is_empty(void **state)
{
  ptrmap m = {0};
  assert_null(ptrmap_get(&m, 1));
  assert_null(ptrmap_get(&m, UINT64_MAX));
  ptrmap_free(&m);
}

/* put then get returns the value; a second put of the same key overwrites
 * it without adding an entry. */
static void test_put_get_overwrite(void **state)
{
  ptrmap m = {0};
  ptrmap_put(&m, 42, 7);
  ptrmap_put(&m, UINT64_MAX, 9);
  assert_non_null(ptrmap_get(&m, 42));
  assert_int_equal(*ptrmap_get(&m, 42), 7);
  assert_int_equal(*ptrmap_get(&m, UINT64_MAX), 9);
  ptrmap_put(&m, 42, 8);
  assert_int_equal(*ptrmap_get(&m, 42), 8);
  assert_int_equal(m.n, 2);
  assert_null(ptrmap_get(&m, 43));
  ptrmap_free(&m);
}

/* The slot pointer from get lets a caller update the value in place. */
static void test_get_slot_is_writable(void **state)
{
  ptrmap m = {0};
  ptrmap_put(&m, 0x1000, 1);
  (*ptrmap_get(&m, 0x1000))++;
  assert_int_equal(*ptrmap_get(&m, 0x1000), 2);
  ptrmap_free(&m);
}

/* Pointer-like keys (aligned, sharing their high bits) do not collide into
 * losses: 100000 of them are all found after many growths, keys that were
 * never put are absent, and the load factor stays at most 1/2. */
static void test_many_pointer_keys(void **state)
{
  enum { N = 100000 };
  ptrmap m = {0};
  const uint64_t base = 0x7f0000000000ULL;
  for (uint32_t i = 0; i < N; i++) ptrmap_put(&m, base + (uint64_t)i * 64, i);
  assert_int_equal(m.n, N);
  assert_true(m.n * 2 <= m.cap);
  assert_int_equal(m.cap & (m.cap - 1), 0);
  for (uint32_t i = 0; i < N; i++) {
    uint32_t *v = ptrmap_get(&m, base + (uint64_t)i * 64);
    assert_non_null(v);
    assert_int_equal(*v, i);
    assert_null(ptrmap_get(&m, base + (uint64_t)i * 64 + 8));
  }
  ptrmap_free(&m);
}

/* clear forgets every key but keeps the storage, and the map is reusable. */
static void test_clear_keeps_storage(void **state)
{
  ptrmap m = {0};
  for (uint64_t k = 1; k <= 100; k++) ptrmap_put(&m, k, (uint32_t)k);
  size_t cap = m.cap;
  ptrmap_clear(&m);
  assert_int_equal(m.n, 0);
  assert_int_equal(m.cap, cap);
  for (uint64_t k = 1; k <= 100; k++) assert_null(ptrmap_get(&m, k));
  ptrmap_put(&m, 5, 55);
  assert_int_equal(*ptrmap_get(&m, 5), 55);
  assert_int_equal(m.n, 1);
  ptrmap_free(&m);
}

/* free releases the storage and leaves an empty map that can be used again. */
static void test_free_resets(void **state)
{
  ptrmap m = {0};
  ptrmap_put(&m, 3, 4);
  ptrmap_free(&m);
  assert_null(m.keys);
  assert_int_equal(m.n, 0);
  assert_int_equal(m.cap, 0);
  assert_null(ptrmap_get(&m, 3));
  ptrmap_put(&m, 3, 5);
  assert_int_equal(*ptrmap_get(&m, 3), 5);
  ptrmap_free(&m);
}

/* Key 0 (a NULL pointer: libclang's file of a command-line macro) is an
 * ordinary key. Before, a lookup of 0 landed on the first empty slot and
 * returned its uninitialised value (the crash of issue 13.1). */
static void test_key_zero(void **state)
{
  ptrmap m = {0};
  assert_null(ptrmap_get(&m, 0));
  for (uint64_t k = 1; k <= 40; k++) ptrmap_put(&m, k * 8, (uint32_t)k);
  assert_null(ptrmap_get(&m, 0));
  ptrmap_put(&m, 0, 77);
  assert_non_null(ptrmap_get(&m, 0));
  assert_int_equal(*ptrmap_get(&m, 0), 77);
  for (uint64_t k = 41; k <= 200; k++) ptrmap_put(&m, k * 8, (uint32_t)k);   /* grows: key 0 stays */
  assert_int_equal(*ptrmap_get(&m, 0), 77);
  assert_int_equal(*ptrmap_get(&m, 8), 1);
  ptrmap_put(&m, 0, 78);
  assert_int_equal(*ptrmap_get(&m, 0), 78);
  ptrmap_clear(&m);
  assert_null(ptrmap_get(&m, 0));
  ptrmap_put(&m, 0, 1);
  ptrmap_free(&m);
  assert_null(ptrmap_get(&m, 0));
}

int main(void)
{
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_zero_map_is_empty),
    cmocka_unit_test(test_put_get_overwrite),
    cmocka_unit_test(test_get_slot_is_writable),
    cmocka_unit_test(test_many_pointer_keys),
    cmocka_unit_test(test_clear_keeps_storage),
    cmocka_unit_test(test_free_resets),
    cmocka_unit_test(test_key_zero),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
