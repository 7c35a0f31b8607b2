#ifndef API_H
#define API_H
/* Declared pure, counts its calls in a global: a violation on every call. */
int counted(int x) __attribute__((pure));
/* Declared const, and it is. */
int square(int x) __attribute__((const));
#endif
