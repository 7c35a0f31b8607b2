/* work.h — the benchmark's watched functions. */
#ifndef BENCH_WORK_H
#define BENCH_WORK_H
unsigned checksum(const unsigned char *p, int n) __attribute__((pure));
int clampi(int x, int lo, int hi) __attribute__((const));
#endif
