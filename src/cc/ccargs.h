/* ccargs.h — what a compiler command line does, as far as `purist cc`
 * needs to know: does it compile C sources to objects, which, and where
 * do the objects go. GCC's (and clang's) driver conventions. */
#ifndef PURIST_CCARGS_H
#define PURIST_CCARGS_H
#include <stdbool.h>
#include "util/vec.h"

typedef struct {
  char *src;   /* the C source (or preprocessed .i) as written */
  char *obj;   /* the object the compiler writes for it */
} ccargs_unit;

typedef struct {
  VEC(ccargs_unit) units;  /* C sources compiled to objects; empty: nothing to summarise */
  VEC(char *) flags;       /* every argument but the wrappers, the compiler and the inputs */
  const char *skip;        /* why there is nothing to summarise, or NULL */
  char *linked;            /* a link step (no -c, -S, -E, -M…): the file it writes
                              (-o's value, else a.out); NULL otherwise */
} ccargs;

/* Reads argv[0..argc): optional wrappers (ccache, distcc…), the compiler,
 * then its arguments; response files (@file) are read for this purpose
 * only. Fills out (free with ccargs_free). */
void ccargs_parse(int argc, char *const *argv, ccargs *out);
void ccargs_free(ccargs *a);

#endif
