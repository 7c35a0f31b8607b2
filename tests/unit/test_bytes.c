/* test_bytes.c — unit tests of src/util/bytes.h: varints and little-endian
 * integers written and read back, and a reader that stops at damage. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>
#include "util/bytes.h"

/* Every value round-trips, at each varint length's edges (the reader has
 * inline paths for one and two bytes and a general one for the rest). */
static void test_uleb_round_trips_at_every_length(void **state)
{
  (void)state;
  static const uint64_t vals[] = { 0, 1, 0x7f, 0x80, 0x81, 0x3fff, 0x4000, 0x4001, 0x1fffff, 0x200000,
                                   0xffffffffu, 0x100000000ull, (uint64_t)1 << 62, UINT64_MAX - 1, UINT64_MAX };
  bytes b = {0};
  size_t n = sizeof vals / sizeof *vals;
  for (size_t i = 0; i < n; i++) bytes_uleb(&b, vals[i]);
  bytes_reader r = { b.v, b.v + b.n, 0 };
  for (size_t i = 0; i < n; i++) assert_true(bytes_get_uleb(&r) == vals[i]);
  assert_int_equal(r.bad, 0);
  assert_ptr_equal(r.p, r.end);
  vec_free(&b);
}

/* The encoding is the shortest: 0x7f one byte, 0x80 and 0x3fff two, 0x4000 three. */
static void test_uleb_lengths(void **state)
{
  (void)state;
  static const struct { uint64_t v; size_t len; } cases[] = { { 0x7f, 1 }, { 0x80, 2 }, { 0x3fff, 2 }, { 0x4000, 3 } };
  for (size_t i = 0; i < 4; i++) {
    bytes b = {0};
    bytes_uleb(&b, cases[i].v);
    assert_int_equal(b.n, cases[i].len);
    vec_free(&b);
  }
}

/* A varint cut short (its last byte says more follows) sets bad and reads
 * 0; so does a read at the end; once bad, reads return 0 and do not move. */
static void test_uleb_truncated_and_sticky(void **state)
{
  (void)state;
  const unsigned char cut[] = { 0x85 };                /* one byte promising a second */
  bytes_reader r = { cut, cut + 1, 0 };
  assert_true(bytes_get_uleb(&r) == 0);
  assert_int_equal(r.bad, 1);
  const unsigned char cut3[] = { 0x80, 0x80 };         /* two bytes promising a third */
  r = (bytes_reader){ cut3, cut3 + 2, 0 };
  assert_true(bytes_get_uleb(&r) == 0);
  assert_int_equal(r.bad, 1);
  const unsigned char ok[] = { 0x05, 0x81, 0x01 };
  r = (bytes_reader){ ok, ok + 3, 1 };                 /* already bad */
  assert_true(bytes_get_uleb(&r) == 0);
  assert_ptr_equal(r.p, ok);
  r = (bytes_reader){ ok, ok + 3, 0 };
  assert_true(bytes_get_uleb(&r) == 5);
  assert_true(bytes_get_uleb(&r) == 0x81);
  assert_true(bytes_get_uleb(&r) == 0);                /* at the end */
  assert_int_equal(r.bad, 1);
}

/* Eleven continuation bytes are more than 64 bits: refused. */
static void test_uleb_overlong_refused(void **state)
{
  (void)state;
  unsigned char over[11];
  memset(over, 0x80, sizeof over);
  bytes_reader r = { over, over + sizeof over, 0 };
  assert_true(bytes_get_uleb(&r) == 0);
  assert_int_equal(r.bad, 1);
}

static void test_le_round_trip_and_short(void **state)
{
  (void)state;
  bytes b = {0};
  bytes_le(&b, 0x0102030405060708ull, 8);
  assert_int_equal(b.v[0], 0x08);
  bytes_reader r = { b.v, b.v + b.n, 0 };
  assert_true(bytes_get_le(&r, 8) == 0x0102030405060708ull);
  r = (bytes_reader){ b.v, b.v + 3, 0 };
  assert_true(bytes_get_le(&r, 4) == 0);
  assert_int_equal(r.bad, 1);
  vec_free(&b);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_uleb_round_trips_at_every_length),
    cmocka_unit_test(test_uleb_lengths),
    cmocka_unit_test(test_uleb_truncated_and_sticky),
    cmocka_unit_test(test_uleb_overlong_refused),
    cmocka_unit_test(test_le_round_trip_and_short),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
