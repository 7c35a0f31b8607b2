#include "calc.h"

int level_of(const volatile int *p, int x) { return *p + x; }

unsigned long tick_of(int x) { return (unsigned long)__builtin_ia32_rdtsc() + (unsigned long)x; }
