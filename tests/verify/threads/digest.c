/* digest.c — FNV-1a over a buffer: reads through its argument only. */
#include "digest.h"

unsigned digest(const unsigned char *p, int n)
{
  unsigned h = 2166136261u;
  for (int i = 0; i < n; i++) h = (h ^ p[i]) * 16777619u;
  return h;
}
