/* calc.c — the largest minus the smallest of an array, honestly; and a sum
 * that also counts its calls in a global. */
#include "calc.h"

int calc_calls;

int span(const int *v, int n)
{
  int lo = v[0], hi = v[0];
  for (int i = 1; i < n; i++) {
    if (v[i] < lo) lo = v[i];
    if (v[i] > hi) hi = v[i];
  }
  return hi - lo;
}

int tally(const int *v, int n)
{
  int s = 0;
  for (int i = 0; i < n; i++) s += v[i];
  calc_calls++;
  return s;
}
