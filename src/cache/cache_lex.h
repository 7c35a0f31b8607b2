/* cache_lex.h — a C file's preprocessing tokens, for the summary cache: a
 * hash that an edit of comments or spacing leaves unchanged, and where each
 * token is, so that a summary made from the old text can name the same
 * tokens in the new one (issue 32 item 2; docs/decisions.md, "Header
 * edits cost what changed").
 *
 * No libclang: a small lexer of translation phases 1-3. Comments become
 * spacing; line splices are seen through; string and character literals,
 * header names and directives are kept exactly. Each token is hashed with
 * its bytes and two bits the preprocessor can see: it starts a line (so
 * directives end where they did) and spacing precedes it (so `F(x)` and
 * `F (x)` in a #define, `a+b` and `a + b` under # stay apart). Where the
 * lexer cannot be sure it sees what clang sees, it errs towards keeping
 * text: a quote it cannot close keeps the rest of its line as one token,
 * as clang does. */
#ifndef PURIST_CACHE_LEX_H
#define PURIST_CACHE_LEX_H
#include <stddef.h>
#include <stdint.h>
#include "util/vec.h"

/* __LINE__ appears outside a #define, or a macro the file defines with
 * __LINE__ in its expansion is used: moving its line changes a value. */
#define CLEX_LINE     0x1
/* A #line directive or a line marker (`# 12 "x.h"`): the summary's lines
 * are presumed lines, which such a directive fixes, not the file's. */
#define CLEX_LINEDIR  0x2
/* A trigraph `??/` (a backslash in ISO modes, text in GNU modes): where
 * comments end depends on the flags, so the hash covers the bytes. */
#define CLEX_TRIGRAPH 0x4

/* A token's first byte and the position just past its last, 1-based
 * physical lines and byte columns, as clang counts them. */
typedef struct { uint32_t bl, bc, el, ec; } clex_tok;
typedef VEC(clex_tok) clex_toks;

typedef struct {
  uint64_t hash;     /* never 0 */
  unsigned flags;    /* CLEX_* */
} clex_sum;

/* Lexes text[0..len); toks (if not NULL) gets every token's position, in
 * order. Any bytes are accepted: NULs, invalid UTF-8, an unterminated
 * comment or literal (the rest of the file, or of the line). */
clex_sum cache_lex(const char *text, size_t len, clex_toks *toks);

#endif
