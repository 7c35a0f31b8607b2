/* fuzz_elfsec.c — the ELF-section and archive readers (elfsec_read) on an
 * arbitrary file: objects, executables, archives (regular and thin) and
 * whatever else. The callback touches every byte it is given, so a range
 * past the mapped file shows up under ASan. */
#include "elf/elfsec.h"
#include "fuzz_util.h"
#include <stdlib.h>
#include <string.h>

static void fuzz_cb(void *ctx, const char *name, const unsigned char *data, size_t len,
                    const char *bad)
{
  unsigned *sum = ctx;
  if (!name) abort();
  *sum += (unsigned)strlen(name);
  if (bad) *sum += (unsigned)strlen(bad);
  for (size_t i = 0; data && i < len; i++) *sum += data[i];
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  const char *path = fuzz_write_file("in.o", data, size);
  unsigned sum = 0;
  char *err = NULL;
  elfsec_status st = elfsec_read(path, fuzz_cb, &sum, &err);
  if (st == ELFSEC_ERROR && !err) abort();
  free(err);
  elfsec_sniff(data, size);
  return 0;
}
