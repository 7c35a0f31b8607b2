/* calc.h — const functions watched while the program handles signals. */
#ifndef SIGFIX_CALC_H
#define SIGFIX_CALC_H
int doubled(int x) __attribute__((const));
int weighted(int x) __attribute__((const));   /* lies: reads a global */
#endif
