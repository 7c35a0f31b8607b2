/* tally.h — a pure function watched in a program that retitles itself. */
#ifndef TITLEFIX_TALLY_H
#define TITLEFIX_TALLY_H
extern int tally_calls;
int tally(const int *v, int n) __attribute__((pure));   /* lies: counts its calls */
#endif
