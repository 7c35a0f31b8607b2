#ifndef API_H
#define API_H
/* Declared pure, but counts its calls in a global: a violation on every call. */
int counted(int x) __attribute__((pure));
#endif
