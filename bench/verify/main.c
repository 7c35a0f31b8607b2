/* main.c — call-heavy: millions of calls of the watched functions, from
 * another TU (so through the wrappers) and of an unwatched local helper. */
#include "work.h"
#include <stdio.h>
#include <stdlib.h>

static unsigned step(unsigned h, int i) { return h * 31u + (unsigned)i; }

int main(int argc, char **argv)
{
  long n = argc > 1 ? atol(argv[1]) : 2000000;
  unsigned char *buf = malloc(256);
  for (int i = 0; i < 256; i++) buf[i] = (unsigned char)i;
  unsigned h = 0;
  for (long i = 0; i < n; i++) {
    buf[i & 255] = (unsigned char)h;
    h = step(h, clampi((int)(i & 1023), 16, 1000)) ^ checksum(buf, 64 + (int)(i & 127));
  }
  printf("%u\n", h);
  free(buf);
  return 0;
}
