/*
** num.c - integer arithmetic.  Nothing here touches memory, so most of it
** is const; the exceptions show what takes a function out of that class.
*/
#include "num.h"
#include "log.h"

/* purist: const — integer arithmetic; declared EX_CONST, and it is */
int num_div_ceil(int a, int b)
{
    return (a + b - 1) / b;
}

/* purist: const, may not return — Euclid's loop is not provably finite */
int num_gcd(int a, int b)
{
    while (b != 0) {
        int r = a % b;
        a = b;
        b = r;
    }
    return a;
}

/* purist: const, may not return — mutual recursion with num_is_odd */
int num_is_even(unsigned n)
{
    return n == 0 ? 1 : num_is_odd(n - 1);
}

/* purist: const, may not return — mutual recursion with num_is_even */
int num_is_odd(unsigned n)
{
    return n == 0 ? 0 : num_is_even(n - 1);
}

/* purist: pure, may not return — die() (noreturn) may read memory, so the call counts as a read */
int num_checked_div(int a, int b)
{
    if (b == 0)
        die("num_checked_div: division by zero");
    return a / b;
}

/* purist: normal — calls through a function pointer */
int num_apply(int (*op)(int, int), int a, int b)
{
    return op(a, b);
}
