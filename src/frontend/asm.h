/* asm.h — reading inline asm statements (asm_read.c), for asm.c. */
#ifndef PURIST_ASM_H
#define PURIST_ASM_H
#include "frontend/walk.h"

/* A statement's tokens from `asm` to its closing parenthesis: spellings,
 * and which are string literals. */
typedef struct {
  char **sp;
  unsigned char *str;
  size_t n, cap;
} asm_toks;

/* From the source text where the statement's first token is spelled. */
int asm_toks_source(fe_tu *t, CXCursor s, asm_toks *out);
/* From clang's printed form of function fn (macros expanded), printed
 * once into *printed (the caller frees it). 0 if not found there. */
int asm_toks_printed(fe_tu *t, CXCursor fn, char **printed, CXCursor s, asm_toks *out);
void asm_toks_free(asm_toks *x);

#endif
