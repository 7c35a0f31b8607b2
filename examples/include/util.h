/*
** util.h - small integer and character helpers shared by several files.
**
** They are static inline, so every file that includes this header gets its
** own copy; an analyzer should still report each of them once.
*/
#ifndef EX_UTIL_H
#define EX_UTIL_H

/* purist: const — compares its arguments */
static inline int ex_min(int a, int b)
{
    return a < b ? a : b;
}

/* purist: const — compares its arguments */
static inline int ex_max(int a, int b)
{
    return a > b ? a : b;
}

/* purist: const — compares its arguments */
static inline int ex_clamp(int v, int lo, int hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

/* purist: const — a range test, unlike isdigit(), which reads the locale */
static inline int ex_is_digit(int c)
{
    return c >= '0' && c <= '9';
}

/* purist: const — compares its argument with constants */
static inline int ex_is_space(int c)
{
    return c == ' ' || c == '\t' || c == '\n';
}

#endif /* EX_UTIL_H */
