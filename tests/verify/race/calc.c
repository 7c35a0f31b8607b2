#include "calc.h"

/* Takes a while (a local loop), so that a writer running meanwhile changes
 * *p between a call and its re-execution. */
int level_of(const volatile int *p, int x)
{
  for (volatile int i = 0; i < 20000; i++) {}
  return *p + x;
}

unsigned long tick_of(int x) { return (unsigned long)__builtin_ia32_rdtsc() + (unsigned long)x; }
