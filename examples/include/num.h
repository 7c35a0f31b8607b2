/*
** num.h - integer arithmetic: the bottom of the layout call chain.
*/
#ifndef EX_NUM_H
#define EX_NUM_H

#include "compiler.h"

/* Returns A / B rounded up.  Assumes A >= 0 and B > 0. */
int num_div_ceil(int a, int b) EX_CONST;

/* Returns the greatest common divisor of A and B (both >= 0).
** Spelled without the project macro, as older code often is. */
int num_gcd(int a, int b) __attribute__((const));

/* Parity by mutual recursion; N is small in practice. */
int num_is_even(unsigned n);
int num_is_odd(unsigned n);

/* Returns A / B; a zero B is a programming error and ends the program. */
int num_checked_div(int a, int b);

/* Returns OP(A, B): the operation is chosen by the caller at run time. */
int num_apply(int (*op)(int, int), int a, int b);

#endif /* EX_NUM_H */
