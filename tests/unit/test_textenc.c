/* test_textenc.c — unit tests of src/util/textenc.h: the one lossless
 * encoding of byte strings in JSON (docs/file-names.md). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>
#include "util/textenc.h"

/* enc(s) == want, and decoding gives s back. */
static void roundtrip(const char *s, const char *want)
{
  char *e = textenc_json(s);
  assert_string_equal(e, want);
  char *d = textenc_json_decode(e, strlen(e));
  assert_non_null(d);
  assert_string_equal(d, s);
  free(d);
  free(e);
}

/* UTF-8 text, ASCII or not, is unchanged. */
static void test_utf8_unchanged(void **state)
{
  roundtrip("main.c", "main.c");
  roundtrip("na\xc3\xafve.c", "na\xc3\xafve.c");
  roundtrip("\xf0\x9f\x98\x80.c", "\xf0\x9f\x98\x80.c");   /* U+1F600, four bytes */
  roundtrip("", "");
}

/* A byte that is not UTF-8 becomes U+EF00 + byte. */
static void test_bad_bytes(void **state)
{
  roundtrip("lat\xe9n.c", "lat\xee\xbf\xa9n.c");                 /* 0xE9 -> U+EFE9 */
  roundtrip("\xff", "\xee\xbf\xbf");                            /* 0xFF -> U+EFFF */
  roundtrip("\x80x", "\xee\xbe\x80x");                          /* a lone continuation byte */
  roundtrip("\xc3", "\xee\xbf\x83");                            /* cut short */
  roundtrip("\xc0\xaf", "\xee\xbf\x80\xee\xbe\xaf");            /* overlong '/' */
  roundtrip("\xed\xa0\x80", "\xee\xbf\xad\xee\xbe\xa0\xee\xbe\x80");   /* a surrogate */
}

/* A character of the escape range itself is escaped byte by byte, so it
 * never reads as an escaped byte. */
static void test_reserved_range(void **state)
{
  roundtrip("\xee\xbe\x80", "\xee\xbf\xae\xee\xbe\xbe\xee\xbe\x80");   /* U+EF80 */
  roundtrip("\xee\xbf\xbf", "\xee\xbf\xae\xee\xbe\xbf\xee\xbe\xbf");   /* U+EFFF */
  roundtrip("\xee\xbd\xbf", "\xee\xbd\xbf");   /* U+EF7F: outside the range, unchanged */
}

/* Decoding refuses a NUL byte (names and messages are C strings). */
static void test_decode_nul(void **state)
{
  assert_null(textenc_json_decode("a\0b", 3));
}

int main(void)
{
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_utf8_unchanged),
    cmocka_unit_test(test_bad_bytes),
    cmocka_unit_test(test_reserved_range),
    cmocka_unit_test(test_decode_nul),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
