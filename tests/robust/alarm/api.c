#include "api.h"
int calls_made;
int counted(int x)
{
  calls_made++;
  return x + 1;
}
int square(int x)
{
  /* long enough (about 50 µs) for alarms to land inside the call */
  unsigned acc = (unsigned)x;
  for (int k = 0; k < 20000; k++) acc = acc * 31u + (unsigned)k;
  return (int)(acc & 0xff) + x * x;
}
