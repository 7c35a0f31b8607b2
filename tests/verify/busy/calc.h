/* calc.h — pure functions watched while another thread writes a global. */
#ifndef BUSYFIX_CALC_H
#define BUSYFIX_CALC_H
extern int calc_calls;
int span(const int *v, int n) __attribute__((pure));    /* honest */
int tally(const int *v, int n) __attribute__((pure));   /* lies: counts its calls */
#endif
