/* fileio.c — see fileio.h. */
#include "util/fileio.h"
#include "util/vec.h"
#include <errno.h>
#include <stdio.h>
#include <string.h>

char *file_read_all(const char *path, size_t *len)
{
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  VEC(char) b = {0};
  char chunk[1 << 16];
  size_t n;
  while ((n = fread(chunk, 1, sizeof chunk, f)) > 0) {
    vec_reserve(&b, b.n + n + 1);
    memcpy(b.v + b.n, chunk, n);
    b.n += n;
  }
  int bad = ferror(f);
  fclose(f);
  if (bad) {
    vec_free(&b);
    errno = EIO;
    return NULL;
  }
  vec_reserve(&b, b.n + 1);
  b.v[b.n] = '\0';
  *len = b.n;
  return b.v;
}
