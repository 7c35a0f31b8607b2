/* fuzz_kb.c — the knowledge-base loader (kb_load_text) and the baseline
 * reader (diag_baseline_filter) on arbitrary bytes. The baseline filters
 * a small list of findings; a failure leaves the list as it was. */
#include "fuzz_util.h"
#include "kb/kb.h"
#include "report/diag_out.h"
#include <stdlib.h>
#include <string.h>

static void fuzz_kb(const uint8_t *data, size_t size)
{
  kb *k = kb_new();
  char *err = NULL;
  if (kb_load_text(k, (const char *)data, size, "fuzz.kb", &err) != 0) {
    if (!err) abort();
    free(err);
  }
  kb_lookup(k, "strlen");
  kb_digest(k);
  kb_free(k);
}

static void fuzz_baseline(const uint8_t *data, size_t size)
{
  const char *path = fuzz_write_file("baseline.json", data, size);
  diag_list l = {0};
  diag_add(&l, "misuse", DIAG_WARNING, "a.c", "/p/a.c", 3, 1, "f", "f is declared pure");
  diag_add(&l, "suggest-pure", DIAG_NOTE, "b.c", "/p/b.c", 9, 2, "g", "g could be pure");
  diag_add(&l, "misuse", DIAG_WARNING, "a.c", "/p/a.c", 30, 1, "f", "f is declared pure");
  char *err = NULL;
  if (diag_baseline_filter(&l, path, &err) != 0) {
    if (!err || l.n != 3) abort();
    free(err);
  }
  diag_list_free(&l);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  fuzz_kb(data, size);
  fuzz_baseline(data, size);
  return 0;
}
