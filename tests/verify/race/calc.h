/* Two functions declared pure: level_of is deterministic (its result
 * changes only when another thread writes what it reads); tick_of is not
 * (it reads the time-stamp counter, no system call). */
#ifndef CALC_H
#define CALC_H
int level_of(const volatile int *p, int x) __attribute__((pure));
unsigned long tick_of(int x) __attribute__((pure));
#endif
