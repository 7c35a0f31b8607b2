/*
** compiler.h - how this project spells compiler attributes.
**
** Declarations use these macros rather than raw __attribute__ so that a
** compiler without GNU attributes still builds the code.
*/
#ifndef EX_COMPILER_H
#define EX_COMPILER_H

#if defined(__GNUC__) || defined(__clang__)
#  define EX_PURE                __attribute__((pure))
#  define EX_CONST               __attribute__((const))
#  define EX_PRINTF(fmt, first)  __attribute__((format(printf, fmt, first)))
#else
#  define EX_PURE
#  define EX_CONST
#  define EX_PRINTF(fmt, first)
#endif

#endif /* EX_COMPILER_H */
