#include "api.h"

int level = 3;
static int calls;

int honest(int x) { return x * 2 + 1; }
int reads_level_r(int x) { return x + level; }
int split(int x, int *out) { *out = x / 2; return x % 2; }

int memo_r(int n)
{
  static int cache_r = -1;
  if (cache_r < 0) cache_r = honest(7);
  return cache_r + n;
}

int memo_u(int n)
{
  static int cache_u = -1;
  if (cache_u < 0) cache_u = honest(5);
  return cache_u + n;
}

int counted(int x)
{
  calls++;
  return x;
}

int reads_level(int x) { return x * level; }
