/* asm.c — inline asm judged by its operands (DESIGN.md §2).
 *
 *   empty template ("")                       an optimisation barrier: no effect
 *                                             of its own (operands aside);
 *   non-volatile, no "memory" clobber         only what its operands say: outputs
 *                                             are written, "m" inputs read;
 *   "memory" clobber, non-empty template      reads and writes any memory: normal;
 *   volatile (or basic, or goto), non-empty   may read a clock or do I/O: normal.
 *
 * libclang shows an asm statement's operand expressions (outputs, then
 * inputs) but not its template, constraints or clobbers, so this file
 * reads them from the tokens. A statement from a macro (`barrier()`,
 * a compiler-guard macro) is read in the macro's definition, where its
 * first token is spelled. What cannot be read (a template or constraint
 * that is itself a macro argument, stringised, a macro name) counts as an
 * asm that may do anything. */
#include "frontend/walk.h"
#include <string.h>

enum { ASM_MAX_OPS = 64, ASM_CONS_LEN = 16, ASM_SCAN_BYTES = 8192 };

typedef struct {
  int ok;                 /* the statement was read */
  int is_volatile, is_goto, basic;
  int empty;              /* the template is empty ("" or "" "") */
  int memory_clobber;
  unsigned nout, nin;
  char cons[ASM_MAX_OPS][ASM_CONS_LEN];   /* constraints: outputs, then inputs */
} asm_info;

typedef struct {
  CXTranslationUnit tu;
  CXToken *toks;
  unsigned n, i;
} asm_lex;

/* The spelling of the current token into buf (truncated), "" past the end. */
static const char *asm_tok(asm_lex *x, char *buf, size_t n)
{
  buf[0] = '\0';
  if (x->i >= x->n) return buf;
  CXString s = clang_getTokenSpelling(x->tu, x->toks[x->i]);
  const char *c = clang_getCString(s);
  size_t len = strlen(c);
  if (len >= n) len = n - 1;
  memcpy(buf, c, len);
  buf[len] = '\0';
  clang_disposeString(s);
  return buf;
}

static int asm_is(asm_lex *x, const char *want)
{
  char b[64];
  return !strcmp(asm_tok(x, b, sizeof b), want);
}

/* A string literal (not a macro name standing for one). */
static int asm_is_string(asm_lex *x)
{
  char b[8];
  return x->i < x->n && clang_getTokenKind(x->toks[x->i]) == CXToken_Literal && asm_tok(x, b, sizeof b)[0] == '"';
}

/* Concatenated string literals into out (contents without quotes, cut
 * at len); returns how many literals, 0 if none is here. */
static int asm_strings(asm_lex *x, char *out, size_t len)
{
  int count = 0;
  size_t used = 0;
  out[0] = '\0';
  while (asm_is_string(x)) {
    char b[256];
    asm_tok(x, b, sizeof b);
    size_t bl = strlen(b);
    for (size_t j = 1; j + 1 < bl && used + 1 < len; j++) out[used++] = b[j];
    out[used] = '\0';
    count++;
    x->i++;
  }
  return count;
}

/* Skips a parenthesised group starting at `(`; 0 if unbalanced. */
static int asm_skip_parens(asm_lex *x)
{
  int depth = 0;
  for (; x->i < x->n; x->i++) {
    if (asm_is(x, "(")) depth++;
    else if (asm_is(x, ")") && --depth == 0) { x->i++; return 1; }
  }
  return 0;
}

/* Section separators: `:`, or `::` lexed as one token in C23 mode. */
static int asm_colons(asm_lex *x)
{
  if (asm_is(x, ":")) { x->i++; return 1; }
  if (asm_is(x, "::")) { x->i++; return 2; }
  return 0;
}

/* One section of operands: [name] "constraint" (expr), … */
static int asm_operands(asm_lex *x, asm_info *a, unsigned *count)
{
  while (x->i < x->n && !asm_is(x, ":") && !asm_is(x, "::") && !asm_is(x, ")")) {
    if (asm_is(x, "[")) {                                  /* [name] */
      x->i += 2;
      if (!asm_is(x, "]")) return 0;
      x->i++;
    }
    unsigned k = a->nout + a->nin;
    if (k >= ASM_MAX_OPS) return 0;
    if (!asm_strings(x, a->cons[k], ASM_CONS_LEN)) return 0;
    if (!asm_is(x, "(") || !asm_skip_parens(x)) return 0;
    (*count)++;
    if (asm_is(x, ",")) x->i++;
  }
  return 1;
}

static int asm_clobbers(asm_lex *x, asm_info *a)
{
  while (x->i < x->n && !asm_is(x, ":") && !asm_is(x, "::") && !asm_is(x, ")")) {
    char c[32];
    if (!asm_strings(x, c, sizeof c)) return 0;
    if (!strcmp(c, "memory")) a->memory_clobber = 1;
    if (asm_is(x, ",")) x->i++;
  }
  return 1;
}

/* asm [volatile|inline|goto]* ( template [: outputs [: inputs [: clobbers [: labels]]]] ) */
static int asm_parse_tokens(asm_lex *x, asm_info *a)
{
  static const char *const quals[] = { "volatile", "__volatile__", "__volatile", "inline", "__inline__",
                                       "__inline", "goto", NULL };
  if (!asm_is(x, "asm") && !asm_is(x, "__asm__") && !asm_is(x, "__asm")) return 0;
  for (x->i++;; x->i++) {
    char b[32];
    asm_tok(x, b, sizeof b);
    int q = -1;
    for (int j = 0; quals[j]; j++) if (!strcmp(b, quals[j])) q = j;
    if (q < 0) break;
    if (q <= 2) a->is_volatile = 1;
    if (q == 6) a->is_goto = 1;
  }
  if (!asm_is(x, "(")) return 0;
  x->i++;
  char tmpl[8];
  if (!asm_strings(x, tmpl, sizeof tmpl)) return 0;
  a->empty = tmpl[0] == '\0';
  if (asm_is(x, ")")) { a->basic = 1; return 1; }
  unsigned section = 0;
  for (int c; (c = asm_colons(x)) > 0;) {
    for (int j = 0; j < c; j++) section++;
    if (section == 1 && !asm_operands(x, a, &a->nout)) return 0;
    if (section == 2 && !asm_operands(x, a, &a->nin)) return 0;
    if (section == 3 && !asm_clobbers(x, a)) return 0;
    if (section == 4) while (x->i < x->n && !asm_is(x, ")")) x->i++;   /* goto labels */
    if (section > 4) return 0;
  }
  return asm_is(x, ")");
}

/* Reads the statement from its first token's spelling (in a macro's
 * definition when it comes from one) up to its closing parenthesis. */
static void asm_read(fe_tu *t, CXCursor s, asm_info *a)
{
  memset(a, 0, sizeof *a);
  CXFile f;
  unsigned off;
  clang_getSpellingLocation(clang_getRangeStart(clang_getCursorExtent(s)), &f, NULL, NULL, &off);
  size_t size = 0;
  if (!f || !clang_getFileContents(t->tu, f, &size) || off >= size) return;
  unsigned end = size - off > ASM_SCAN_BYTES ? off + ASM_SCAN_BYTES : (unsigned)size;
  CXSourceRange r = clang_getRange(clang_getLocationForOffset(t->tu, f, off),
                                   clang_getLocationForOffset(t->tu, f, end));
  asm_lex x = { t->tu, NULL, 0, 0 };
  clang_tokenize(t->tu, r, &x.toks, &x.n);
  a->ok = asm_parse_tokens(&x, a);
  clang_disposeTokens(t->tu, x.toks, x.n);
}

/* Does the constraint let the operand live in memory? */
static int asm_memory_constraint(const char *c)
{
  return strpbrk(c, "moVgX") != NULL;
}

static void asm_effect(fw *w, CXCursor s, sum_asm_why why)
{
  fw_effect(w, s, SE_ASM, 0, (uint8_t)why, 0);
}

static void asm_input(fw *w, const asm_info *a, const char *cons, CXCursor e)
{
  if (!asm_memory_constraint(cons)) { fw_expr(w, e, ACC_VALUE); return; }
  if (a->empty) { fw_expr(w, e, ACC_ADDR); return; }    /* nothing reads it */
  lv_t lv;
  if (fw_lvalue(w, e, &lv)) fw_access(w, e, &lv, 1, 0);  /* the whole object, arrays too */
  else fw_expr(w, e, ACC_VALUE);
}

void fw_asm(fw *w, CXCursor s)
{
  asm_info a;
  asm_read(w->t, s, &a);
  size_t k = fw_kids(w, s);
  VEC(CXCursor) ops = {0};
  for (size_t i = k; i < w->ks.n; i++)
    if (clang_isExpression(clang_getCursorKind(w->ks.v[i]))) vec_push(&ops, w->ks.v[i]);
  w->ks.n = k;
  if (!a.ok || a.nout + a.nin != ops.n) {
    for (size_t i = 0; i < ops.n; i++) fw_expr(w, ops.v[i], ACC_VALUE);
    asm_effect(w, s, SA_ASM_UNREAD);
    vec_free(&ops);
    return;
  }
  uint8_t f0 = w->eff_flags;
  w->eff_flags |= SEF_ASM;
  for (unsigned i = 0; i < a.nout; i++) {
    /* An empty template leaves the value as it was: a pointer keeps its provenance. */
    uint64_t m = a.empty ? 0 : PROV_UNKNOWN;
    fw_store(w, ops.v[i], m, clang_getNullCursor(), strchr(a.cons[i], '+') != NULL);
  }
  for (unsigned i = 0; i < a.nin; i++) asm_input(w, &a, a.cons[a.nout + i], ops.v[a.nout + i]);
  w->eff_flags = f0;
  vec_free(&ops);
  if (a.empty) return;
  if (a.is_volatile || a.basic || a.is_goto) asm_effect(w, s, SA_ASM_VOLATILE);
  else if (a.memory_clobber) asm_effect(w, s, SA_ASM_MEMORY);
}
