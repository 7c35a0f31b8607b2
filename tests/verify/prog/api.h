/* api.h — the fixture's watched functions: two honest, five that lie. */
#ifndef FIXTURE_API_H
#define FIXTURE_API_H

/* honest */
int square(int x) __attribute__((const));
int sum_array(const int *a, int n) __attribute__((pure));

/* dishonest, one way each */
int counted_len(const char *s) __attribute__((pure));   /* bumps a global on every call */
const char *level_name(int l) __attribute__((const));   /* memoises into statics */
int fill_first(int *buf, int v) __attribute__((pure));  /* writes into the heap block it is given */
int scaled(int x) __attribute__((const));               /* reads a global */
long now_tick(int x) __attribute__((const));            /* reads a clock */

#endif
