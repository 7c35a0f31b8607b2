/* work.c — a pure checksum over a buffer and a tiny const helper. */
#include "work.h"

unsigned checksum(const unsigned char *p, int n)
{
  unsigned h = 2166136261u;
  for (int i = 0; i < n; i++) h = (h ^ p[i]) * 16777619u;
  return h;
}

int clampi(int x, int lo, int hi) { return x < lo ? lo : x > hi ? hi : x; }
