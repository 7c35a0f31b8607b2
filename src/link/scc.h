/* scc.h — strongly connected components of the call graph (scc.c). */
#ifndef PURIST_SCC_H
#define PURIST_SCC_H
#include "link/link.h"

/* Component i is members[start[i] .. start[i+1]); components are listed
 * callees first. Only functions with a body take part. */
typedef struct {
  VEC(uint32_t) members;
  VEC(uint32_t) start;   /* one more entry than there are components */
} scc_result;

void scc_compute(const link_prog *p, scc_result *out);
void scc_free(scc_result *r);

#endif
