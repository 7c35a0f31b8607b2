/* test_vec.c — unit tests of src/util/vec.h (growable arrays). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include "util/vec.h"

/* A zero-initialised VEC is empty and owns nothing; freeing it is harmless. */
static void test_zero_vec_is_empty(void **state)
{
  VEC(int) v = {0};
  assert_null(v.v);
  assert_int_equal(v.n, 0);
  vec_free(&v);
  assert_int_equal(v.cap, 0);
}

/* Pushes keep every element in order across many growths, and capacity
 * grows by doubling (so it is a power of two times the first size, 8). */
static void test_push_keeps_order(void **state)
{
  VEC(uint64_t) v = {0};
  for (uint64_t i = 0; i < 100000; i++) vec_push(&v, i * 3);
  assert_int_equal(v.n, 100000);
  assert_true(v.cap >= v.n);
  assert_int_equal(v.cap % 8, 0);
  assert_int_equal((v.cap / 8) & (v.cap / 8 - 1), 0);
  for (uint64_t i = 0; i < v.n; i++) assert_int_equal(v.v[i], i * 3);
  vec_free(&v);
}

/* Struct elements are copied by value. */
static void test_push_structs(void **state)
{
  typedef struct { int a; const char *s; } pair;
  VEC(pair) v = {0};
  pair p = { 1, "one" };
  vec_push(&v, p);
  p.a = 2; p.s = "two";
  vec_push(&v, p);
  assert_int_equal(v.v[0].a, 1);
  assert_string_equal(v.v[0].s, "one");
  assert_string_equal(v.v[1].s, "two");
  vec_free(&v);
}

/* reserve makes room without changing the length, never shrinks, and
 * pushes up to the reserved size do not move the storage. */
static void test_reserve(void **state)
{
  VEC(char) v = {0};
  vec_reserve(&v, 100);
  assert_int_equal(v.n, 0);
  assert_true(v.cap >= 100);
  char *before = v.v;
  size_t cap = v.cap;
  for (size_t i = 0; i < cap; i++) vec_push(&v, 'x');
  assert_ptr_equal(v.v, before);
  vec_reserve(&v, 10);
  assert_int_equal(v.cap, cap);
  vec_free(&v);
}

/* free releases the storage and leaves an empty, reusable vector. */
static void test_free_resets(void **state)
{
  VEC(int) v = {0};
  vec_push(&v, 1);
  vec_free(&v);
  assert_null(v.v);
  assert_int_equal(v.n, 0);
  assert_int_equal(v.cap, 0);
  vec_push(&v, 2);
  assert_int_equal(v.v[0], 2);
  vec_free(&v);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_zero_vec_is_empty),
    cmocka_unit_test(test_push_keeps_order),
    cmocka_unit_test(test_push_structs),
    cmocka_unit_test(test_reserve),
    cmocka_unit_test(test_free_resets),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
