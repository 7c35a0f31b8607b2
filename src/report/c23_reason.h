/* c23_reason.h — why a function is unsequenced, reproducible or neither. */
#ifndef PURIST_C23_REASON_H
#define PURIST_C23_REASON_H
#include "link/c23.h"
#include "util/strbuf.h"

/* The first cause only, without location ("writes static 'hits'"). */
void c23_reason_head(strbuf *b, const link_prog *p, uint32_t fi, const char *root);
/* The full reason: the first cause, where, and which condition it breaks. */
void c23_reason(strbuf *b, const link_prog *p, uint32_t fi, const char *root);

#endif
