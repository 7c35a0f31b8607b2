/* fuzz_summary.c — the summary reader (summary_decode) on arbitrary bytes.
 * A decoded record is encoded again and must decode to the same bytes:
 * what the reader accepts, the writer can write. */
#include "summary/summary.h"
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
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
    summary_free(tu);
  }
  return 0;
}
