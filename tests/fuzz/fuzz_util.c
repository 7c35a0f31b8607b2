/* fuzz_util.c — the input as a file, for readers that take paths. */
#include "fuzz_util.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const char *fuzz_tmpdir(void)
{
  static char dir[64];
  if (!dir[0]) {
    const char *base = getenv("TMPDIR");
    snprintf(dir, sizeof dir, "%s/purist-fuzz-XXXXXX", base && strlen(base) < 32 ? base : "/tmp");
    if (!mkdtemp(dir)) abort();
  }
  return dir;
}

const char *fuzz_write_file(const char *name, const uint8_t *data, size_t size)
{
  static char path[128];
  snprintf(path, sizeof path, "%s/%s", fuzz_tmpdir(), name);
  FILE *f = fopen(path, "wb");
  if (!f) abort();
  if (size && fwrite(data, 1, size, f) != size) abort();
  if (fclose(f) != 0) abort();
  return path;
}

char *fuzz_cstr(const uint8_t *data, size_t size)
{
  char *s = malloc(size + 1);
  if (!s) abort();
  memcpy(s, data, size);
  s[size] = '\0';
  return s;
}
