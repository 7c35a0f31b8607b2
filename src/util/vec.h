/* vec.h — growable arrays, the one container purist needs everywhere.
 *
 *   VEC(int) v = {0};  vec_push(&v, 3);  v.v[0] == 3;  vec_free(&v);
 *
 * A VEC is a plain struct {T *v; size_t n, cap;}: zero-initialised it is
 * empty and owns nothing. Growth doubles, so pushes are amortised O(1).
 * Allocation failure aborts (xalloc.h): purist cannot do useful work
 * without memory, and every caller checking would hide the real logic. */
#ifndef PURIST_VEC_H
#define PURIST_VEC_H
#include <stddef.h>
#include "util/xalloc.h"

#define VEC(T) struct { T *v; size_t n, cap; }

#define vec_reserve(a, want) do {                                        \
    if ((want) > (a)->cap) {                                             \
      size_t nc_ = (a)->cap ? (a)->cap * 2 : 8;                          \
      while (nc_ < (want)) nc_ *= 2;                                     \
      (a)->v = xrealloc((a)->v, nc_ * sizeof *(a)->v);                  \
      (a)->cap = nc_;                                                    \
    }                                                                    \
  } while (0)

#define vec_push(a, x) do {                                              \
    vec_reserve((a), (a)->n + 1);                                        \
    (a)->v[(a)->n++] = (x);                                              \
  } while (0)

#define vec_free(a) do { free((a)->v); (a)->v = NULL; (a)->n = (a)->cap = 0; } while (0)

#endif
