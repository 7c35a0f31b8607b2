/* api.c — definitions of the fixture's watched functions. */
#include "api.h"
#include <time.h>

int factor = 3;
long calls_made;

int square(int x) { return x * x; }

int sum_array(const int *a, int n)
{
  int s = 0;
  for (int i = 0; i < n; i++) s += a[i];
  return s;
}

int counted_len(const char *s)
{
  int n = 0;
  calls_made++;
  while (s[n]) n++;
  return n;
}

const char *level_name(int l)
{
  static const char *names[4];
  static int ready;
  if (!ready) {
    names[0] = "debug"; names[1] = "info"; names[2] = "warn"; names[3] = "error";
    ready = 1;
  }
  return names[l & 3];
}

int fill_first(int *buf, int v)
{
  buf[0] = v;
  return v + 1;
}

int scaled(int x) { return x * factor; }

long now_tick(int x)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_nsec + x;
}
