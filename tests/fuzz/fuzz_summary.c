/* fuzz_summary.c — the summary reader (summary_decode) on arbitrary bytes.
 *
 * The first byte chooses how the rest is read:
 *   even: as a file of records, header and all (magic, version, checksum);
 *   odd:  as the payload of one record, to which a valid header (this
 *         format version, the payload's length and XXH64) is put first —
 *         so mutations reach the payload decoder instead of stopping at
 *         the checksum, as a damaged or hostile record with a correct
 *         checksum would.
 * A decoded record is encoded again and must decode to the same bytes:
 * what the reader accepts, the writer can write. */
#include "summary/summary.h"
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

/* The record encoded, decoded and encoded again: the same bytes. */
static void fuzz_again(const sum_tu *tu)
{
  size_t len;
  unsigned char *again = summary_encode(tu, &len);
  size_t p2 = 0;
  char *err2 = NULL;
  sum_tu *tu2 = summary_decode(again, len, &p2, &err2);
  if (!tu2 || p2 != len) abort();
  size_t len2;
  unsigned char *third = summary_encode(tu2, &len2);
  if (len2 != len || memcmp(third, again, len) != 0) abort();
  free(third);
  summary_free(tu2);
  free(again);
}

static void fuzz_records(const uint8_t *data, size_t size)
{
  size_t pos = 0;
  while (pos < size) {
    char *err = NULL;
    size_t start = pos;
    sum_tu *tu = summary_decode(data, size, &pos, &err);
    if (!tu) {
      if (!err) abort();        /* a failure always says why */
      free(err);
      break;
    }
    if (pos <= start || pos > size) abort();
    fuzz_again(tu);
    summary_free(tu);
  }
}

static void put_le(unsigned char *p, uint64_t v, int n)
{
  for (int i = 0; i < n; i++) p[i] = (unsigned char)(v >> (8 * i));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  if (size == 0) return 0;
  if (!(data[0] & 1)) {
    fuzz_records(data + 1, size - 1);
    return 0;
  }
  size_t plen = size - 1;
  unsigned char *rec = malloc(32 + plen);
  memcpy(rec, SUMMARY_MAGIC, 8);
  put_le(rec + 8, SUMMARY_FORMAT, 4);
  put_le(rec + 12, 0, 4);
  put_le(rec + 16, plen, 8);
  put_le(rec + 24, XXH64(data + 1, plen, 0), 8);
  memcpy(rec + 32, data + 1, plen);
  fuzz_records(rec, 32 + plen);
  free(rec);
  return 0;
}
