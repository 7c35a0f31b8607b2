/* asm.c — inline asm judged by its operands (DESIGN.md §2).
 *
 *   inert template (empty, or only assembler   an optimisation barrier: no effect
 *   comments), non-volatile, no "memory"       of its own (operands aside);
 *   clobber
 *   inert template, volatile or a "memory"     a compiler barrier: it orders the
 *   clobber                                    caller's memory accesses, so it is
 *                                              normal for infer (GCC agrees), but
 *                                              it does nothing at run time: a
 *                                              declared attribute is not broken
 *                                              by it (checks/misuse.c: a note);
 *   non-volatile, no "memory" clobber         only what its operands say: outputs
 *                                             are written, "m" inputs read;
 *   "memory" clobber, real template           reads and writes any memory: normal;
 *   volatile (or basic, or goto), real        may read a clock or do I/O: normal.
 *   volatile, instructions only `mov`s        normal for infer (GCC agrees), but
 *   between operands (labels and data in       at run time only what its operands
 *   another section aside), no "memory"        say: no declared attribute is broken
 *   clobber, not goto                          by it beyond them (SA_ASM_MOVE)
 *
 * Constraints and clobbers are literal strings even when the template is
 * built from macros, so the statement is judged by them; its text comes
 * from asm_read.c (the source, else clang's printed function). What still
 * cannot be read counts as an asm that may do anything. */
#include "frontend/asm.h"
#include <string.h>

enum { ASM_MAX_OPS = 64, ASM_CONS_LEN = 16 };

typedef struct {
  int ok;                 /* the statement was read */
  int is_volatile, is_goto, basic;
  int inert;              /* the template is empty or only assembler comments */
  int moves;              /* its instructions only move between operands */
  int memory_clobber;
  unsigned nout, nin;
  char cons[ASM_MAX_OPS][ASM_CONS_LEN];   /* constraints: outputs, then inputs */
} asm_info;

typedef struct {
  const asm_toks *t;
  size_t i;
} asm_lex;

static const char *asm_cur(asm_lex *x) { return x->i < x->t->n ? x->t->sp[x->i] : ""; }

static int asm_is(asm_lex *x, const char *want) { return !strcmp(asm_cur(x), want); }

/* A string literal (not a macro name standing for one). */
static int asm_is_string(asm_lex *x) { return x->i < x->t->n && x->t->str[x->i]; }

/* Concatenated string literals into out (contents without quotes, cut
 * at len); returns how many literals, 0 if none is here. *cut is set
 * when the text did not fit. */
static int asm_strings(asm_lex *x, char *out, size_t len, int *cut)
{
  int count = 0;
  size_t used = 0;
  out[0] = '\0';
  while (asm_is_string(x)) {
    const char *b = asm_cur(x);
    size_t bl = strlen(b);
    for (size_t j = 1; j + 1 < bl; j++) {
      if (used + 1 < len) out[used++] = b[j];
      else if (cut) *cut = 1;
    }
    out[used] = '\0';
    count++;
    x->i++;
  }
  return count;
}

/* Does a template (string contents, escapes as written) do nothing at run
 * time: every line empty or an assembler comment? GNU as takes a line
 * starting with '#' as a comment on every target; "//" too on most. */
static int asm_template_inert(const char *s)
{
  int line_start = 1;
  for (const char *p = s; *p;) {
    if (*p == ' ' || (*p == '\\' && p[1] == 't')) { p += *p == ' ' ? 1 : 2; continue; }
    if (*p == '\\' && p[1] == 'n') { line_start = 1; p += 2; continue; }
    if (!line_start) return 0;
    if (*p == '#' || (p[0] == '/' && p[1] == '/')) {   /* the rest of the line */
      while (*p && !(*p == '\\' && p[1] == 'n')) p += (*p == '\\' && p[1]) ? 2 : 1;
      continue;
    }
    return 0;
  }
  return 1;
}

/* Is operand text o (trimmed) only a substitution of an operand: `%0`,
 * `%[name]`, with a register-size modifier (`%k1`)? Not `%%gs:%1` (a
 * segment the operands do not describe), not a literal address, not `%c1`
 * or `%P1`, which print an "i" operand's symbol bare: a load from it. */
static int asm_operand_ref(const char *o, size_t n)
{
  if (n < 2 || o[0] != '%') return 0;
  size_t i = 1;
  if (strchr("bhwkq", o[i]) && i + 1 < n && (o[i + 1] == '[' || (o[i + 1] >= '0' && o[i + 1] <= '9')))
    i++;                                                       /* a register size */
  if (o[i] == '[') {
    for (i++; i < n && o[i] != ']'; i++)
      if (!fe_ident_char(o[i])) return 0;
    return i + 1 == n;
  }
  for (; i < n; i++) if (o[i] < '0' || o[i] > '9') return 0;
  return 1;
}

/* Is one assembler statement s (n bytes, trimmed) a `mov` between operand
 * substitutions? */
static int asm_move_stmt(const char *s, size_t n)
{
  static const char *const ops[] = { "movq", "movl", "movw", "movb", "mov", NULL };
  size_t m = 0;
  while (m < n && fe_ident_char(s[m])) m++;
  int known = 0;
  for (int k = 0; ops[k]; k++) known |= strlen(ops[k]) == m && !strncmp(s, ops[k], m);
  if (!known) return 0;
  const char *comma = memchr(s + m, ',', n - m);
  if (!comma || memchr(comma + 1, ',', (size_t)(s + n - comma - 1))) return 0;
  const char *a = s + m, *ae = comma, *b = comma + 1, *be = s + n;
  while (a < ae && *a == ' ') a++;
  while (ae > a && ae[-1] == ' ') ae--;
  while (b < be && *b == ' ') b++;
  return asm_operand_ref(a, (size_t)(ae - a)) && asm_operand_ref(b, (size_t)(be - b));
}

/* Does a template (string contents, escapes as written) run only `mov`s
 * between its operands? Labels (`1:`) are no instruction; what lies
 * between `.pushsection` and `.popsection` (or `.section` and `.previous`)
 * is data placed elsewhere, never run here: an exception table entry,
 * which is why such a load is volatile. Any other directive (`.byte` emits
 * code) or instruction: no. */
static int asm_template_moves(const char *s)
{
  char buf[512];
  size_t n = 0;
  int other_section = 0, any = 0;
  for (const char *p = s;; ) {
    int tab = *p == '\t' || (*p == '\\' && p[1] == 't');
    int end = !*p || (*p == '\\' && p[1] == 'n') || *p == ';' || *p == '\n';
    if (!end && n + 1 >= sizeof buf) return 0;
    if (!end) { buf[n++] = tab ? ' ' : *p; p += tab && *p == '\\' ? 2 : 1; continue; }
    while (n && (buf[n - 1] == ' ')) n--;
    buf[n] = '\0';
    size_t i = 0;
    while (i < n && buf[i] == ' ') i++;
    size_t j = i;                                              /* a label */
    while (j < n && fe_ident_char(buf[j])) j++;
    if (j > i && j < n && buf[j] == ':') for (i = j + 1; i < n && buf[i] == ' '; i++) {}
    const char *st = buf + i;
    size_t len = n - i;
    if (len && st[0] == '#') len = 0;
    if (len && st[0] == '.') {
      if (!strncmp(st, ".pushsection", 12) || !strncmp(st, ".section", 8)) other_section = 1;
      else if (!strncmp(st, ".popsection", 11) || !strncmp(st, ".previous", 9)) other_section = 0;
      else if (!other_section) return 0;
    } else if (len && !other_section) {
      if (!asm_move_stmt(st, len)) return 0;
      any = 1;
    }
    n = 0;
    if (!*p) break;
    p += *p == '\\' ? 2 : 1;
  }
  return any && !other_section;
}

/* Skips a parenthesised group starting at `(`; 0 if unbalanced. */
static int asm_skip_parens(asm_lex *x)
{
  int depth = 0;
  for (; x->i < x->t->n; x->i++) {
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

static int asm_section_end(asm_lex *x)
{
  return x->i >= x->t->n || asm_is(x, ":") || asm_is(x, "::") || asm_is(x, ")");
}

/* One section of operands: [name] "constraint" (expr), … */
static int asm_operands(asm_lex *x, asm_info *a, unsigned *count)
{
  while (!asm_section_end(x)) {
    if (asm_is(x, "[")) {                                  /* [name] */
      x->i += 2;
      if (!asm_is(x, "]")) return 0;
      x->i++;
    }
    unsigned k = a->nout + a->nin;
    if (k >= ASM_MAX_OPS) return 0;
    if (!asm_strings(x, a->cons[k], ASM_CONS_LEN, NULL)) return 0;
    if (!asm_is(x, "(") || !asm_skip_parens(x)) return 0;
    (*count)++;
    if (asm_is(x, ",")) x->i++;
  }
  return 1;
}

static int asm_clobbers(asm_lex *x, asm_info *a)
{
  while (!asm_section_end(x)) {
    char c[32];
    if (!asm_strings(x, c, sizeof c, NULL)) return 0;
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
    int q = -1;
    for (int j = 0; quals[j]; j++) if (asm_is(x, quals[j])) q = j;
    if (q < 0) break;
    if (q <= 2) a->is_volatile = 1;
    if (q == 6) a->is_goto = 1;
  }
  if (!asm_is(x, "(")) return 0;
  x->i++;
  char tmpl[512];
  int cut = 0;
  if (!asm_strings(x, tmpl, sizeof tmpl, &cut)) return 0;
  a->inert = !cut && asm_template_inert(tmpl);
  a->moves = !cut && !a->inert && asm_template_moves(tmpl);
  if (asm_is(x, ")")) { a->basic = 1; return 1; }
  unsigned section = 0;
  for (int c; (c = asm_colons(x)) > 0;) {
    for (int j = 0; j < c; j++) section++;
    if (section == 1 && !asm_operands(x, a, &a->nout)) return 0;
    if (section == 2 && !asm_operands(x, a, &a->nin)) return 0;
    if (section == 3 && !asm_clobbers(x, a)) return 0;
    if (section == 4) while (x->i < x->t->n && !asm_is(x, ")")) x->i++;   /* goto labels */
    if (section > 4) return 0;
  }
  return asm_is(x, ")");
}

static int asm_parse(const asm_toks *t, asm_info *a, unsigned nops)
{
  memset(a, 0, sizeof *a);
  asm_lex x = { t, 0 };
  a->ok = asm_parse_tokens(&x, a) && a->nout + a->nin == nops;
  return a->ok;
}

/* Reads the statement from the source, else from the printed function. */
static void asm_read(fw *w, CXCursor s, asm_info *a, unsigned nops)
{
  asm_toks t;
  int ok = asm_toks_source(w->t, s, &t) && asm_parse(&t, a, nops);
  asm_toks_free(&t);
  if (ok) return;
  ok = asm_toks_printed(w->t, w->fn, &w->asm_printed, s, &t) && asm_parse(&t, a, nops);
  asm_toks_free(&t);
  if (!ok) memset(a, 0, sizeof *a);
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
  if (a->inert) { fw_expr(w, e, ACC_ADDR); return; }    /* nothing reads it */
  lv_t lv;
  if (fw_lvalue(w, e, &lv)) fw_access(w, e, &lv, 1, 0);  /* the whole object, arrays too */
  else fw_expr(w, e, ACC_VALUE);
}

void fw_asm(fw *w, CXCursor s)
{
  asm_info a;
  size_t k = fw_kids(w, s);
  VEC(CXCursor) ops = {0};
  for (size_t i = k; i < w->ks.n; i++)
    if (clang_isExpression(clang_getCursorKind(w->ks.v[i]))) vec_push(&ops, w->ks.v[i]);
  w->ks.n = k;
  asm_read(w, s, &a, (unsigned)ops.n);
  if (!a.ok) {
    for (size_t i = 0; i < ops.n; i++) fw_expr(w, ops.v[i], ACC_VALUE);
    asm_effect(w, s, SA_ASM_UNREAD);
    vec_free(&ops);
    return;
  }
  uint16_t f0 = w->eff_flags;
  w->eff_flags |= SEF_ASM;
  for (unsigned i = 0; i < a.nout; i++) {
    /* An inert template leaves the value as it was: a pointer keeps its provenance. */
    uint64_t m = a.inert ? 0 : PROV_UNKNOWN;
    fw_store(w, ops.v[i], m, clang_getNullCursor(), strchr(a.cons[i], '+') != NULL);
  }
  for (unsigned i = 0; i < a.nin; i++) asm_input(w, &a, a.cons[a.nout + i], ops.v[a.nout + i]);
  w->eff_flags = f0;
  vec_free(&ops);
  int ordered = a.is_volatile || a.basic || a.is_goto || a.memory_clobber;
  if (a.inert && ordered) asm_effect(w, s, SA_ASM_BARRIER);
  else if (a.inert) return;
  else if (a.moves && a.is_volatile && !a.basic && !a.is_goto && !a.memory_clobber) asm_effect(w, s, SA_ASM_MOVE);
  else if (a.is_volatile || a.basic || a.is_goto) asm_effect(w, s, SA_ASM_VOLATILE);
  else if (a.memory_clobber) asm_effect(w, s, SA_ASM_MEMORY);
}
