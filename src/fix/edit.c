/* edit.c — one file's planned operations applied to its text.
 *
 * Every operation is checked against the text before it is made: the
 * function's name must still be where the analysis saw it, a prototype's
 * end must be followed by `;` or `,`, an attribute being replaced or
 * removed must still read as that attribute. The content hash already
 * says the file is unchanged; these checks guard the positions themselves
 * (a wrong one is refused, never guessed around). */
#include "fix/fix_internal.h"
#include <ctype.h>
#include <string.h>

typedef struct {
  const char *t;
  size_t len;
  VEC(size_t) lines;    /* offset of each line's first byte */
} text;

typedef struct { size_t lo, hi; char *with; } splice;

static bool is_id(char c) { return isalnum((unsigned char)c) || c == '_'; }

/* Byte offset of 1-based (line, col), or (size_t)-1 if outside the text. */
static size_t text_off(const text *x, unsigned line, unsigned col)
{
  if (line < 1 || line > x->lines.n || col < 1) return (size_t)-1;
  size_t start = x->lines.v[line - 1];
  size_t next = line < x->lines.n ? x->lines.v[line] : x->len + 1;
  return start + col - 1 < next ? start + col - 1 : (size_t)-1;
}

/* Past spaces, tabs, newlines and comments from i. */
static size_t skip_blank(const text *x, size_t i)
{
  while (i < x->len) {
    if (isspace((unsigned char)x->t[i])) i++;
    else if (x->t[i] == '/' && i + 1 < x->len && x->t[i + 1] == '*') {
      const char *e = strstr(x->t + i + 2, "*/");
      i = e ? (size_t)(e - x->t) + 2 : x->len;
    } else if (x->t[i] == '/' && i + 1 < x->len && x->t[i + 1] == '/') {
      while (i < x->len && x->t[i] != '\n' && x->t[i] != '\r') i++;
    } else break;
  }
  return i;
}

/* Back over spaces and tabs (not newlines) before i. */
static size_t back_blank(const text *x, size_t i)
{
  while (i > 0 && (x->t[i - 1] == ' ' || x->t[i - 1] == '\t')) i--;
  return i;
}

static bool holds_word(const text *x, size_t at, const char *w)
{
  size_t n = strlen(w);
  return at + n <= x->len && !memcmp(x->t + at, w, n) && (at + n == x->len || !is_id(x->t[at + n]))
      && (at == 0 || !is_id(x->t[at - 1]));
}

static uint8_t word_kind(const char *w, size_t n)
{
  if ((n == 11 && !memcmp(w, "unsequenced", 11)) || (n == 15 && !memcmp(w, "__unsequenced__", 15)))
    return SUM_DECL_UNSEQUENCED;
  if ((n == 12 && !memcmp(w, "reproducible", 12)) || (n == 16 && !memcmp(w, "__reproducible__", 16)))
    return SUM_DECL_REPRODUCIBLE;
  if ((n == 4 && !memcmp(w, "pure", 4)) || (n == 8 && !memcmp(w, "__pure__", 8))) return SUM_DECL_PURE;
  if ((n == 5 && !memcmp(w, "const", 5)) || (n == 9 && !memcmp(w, "__const__", 9))) return SUM_DECL_CONST;
  return 0;
}

/* The attribute word ending at `hi` (the range of a written attribute ends
 * with it: `const`, or `gnu::const`). */
static bool last_word(const text *x, size_t lo, size_t hi, size_t *wlo)
{
  size_t i = hi;
  while (i > lo && is_id(x->t[i - 1])) i--;
  *wlo = i;
  return i < hi && word_kind(x->t + i, hi - i);
}

/* Extends the removal of a written attribute [lo, hi) to what must go with
 * it: its whole __attribute__((…)) or [[…]] when alone there, else itself
 * and one comma. Returns false if the text is not what it should be. */
static bool removal_range(const text *x, size_t lo, size_t hi, size_t *rlo, size_t *rhi)
{
  size_t b = back_blank(x, lo);
  size_t a = skip_blank(x, hi);
  if (a < x->len && x->t[a] == ',') { *rlo = lo; *rhi = skip_blank(x, a + 1); return true; }
  if (b > 0 && x->t[b - 1] == ',') { *rlo = b - 1; *rhi = hi; return true; }
  /* Alone: `__attribute__ ( ( word ) )` or `[ [ gnu::word ] ]`. */
  char open = 0;
  size_t i = b;
  for (int k = 0; k < 2; k++) {
    i = k ? back_blank(x, i) : i;
    if (i == 0 || (x->t[i - 1] != '(' && x->t[i - 1] != '[')) return false;
    open = x->t[--i];
  }
  char close = open == '(' ? ')' : ']';
  for (int k = 0; k < 2; k++) {
    a = skip_blank(x, a);
    if (a >= x->len || x->t[a] != close) return false;
    a++;
  }
  if (open == '(') {
    i = back_blank(x, i);
    size_t w = i;
    while (w > 0 && is_id(x->t[w - 1])) w--;
    if (!(holds_word(x, w, "__attribute__") || holds_word(x, w, "__attribute"))) return false;
    i = w;
  }
  *rlo = i;
  *rhi = a;
  return true;
}

/* Takes a blank next to a removed piece along, so no double space stays. */
static void removal_blank(const text *x, size_t *lo, size_t *hi)
{
  size_t b = back_blank(x, *lo);
  if (b < *lo) *lo = b;
  else if (*hi < x->len && (x->t[*hi] == ' ' || x->t[*hi] == '\t')) (*hi)++;
}

/* Past the parameter list that follows the name at `name` (a C23
 * function-type attribute goes there); (size_t)-1 if the text is not a
 * name, blanks, and a balanced ( … ). */
static size_t after_params(const text *x, size_t name, size_t name_len)
{
  size_t i = skip_blank(x, name + name_len);
  if (i >= x->len || x->t[i] != '(') return (size_t)-1;
  int depth = 0;
  while (i < x->len) {
    size_t j = skip_blank(x, i);
    if (j != i) { i = j; continue; }
    char c = x->t[i];
    if (c == '"' || c == '\'') {   /* a literal (a macro's argument): skipped whole */
      for (i++; i < x->len && x->t[i] != c; i++) if (x->t[i] == '\\') i++;
    } else if (c == '(') depth++;
    else if (c == ')' && --depth == 0) return i + 1;
    else if (c == ';' || c == '{') return (size_t)-1;
    i++;
  }
  return (size_t)-1;
}

/* Past the macros between a prototype's end as clang sees it and its ';':
 * they expanded to nothing (`int f(int) OPT_CONST;` where OPT_CONST is
 * empty in this configuration), or clang would have counted them in. An
 * identifier, optionally with a balanced ( … ), at a time; i itself if
 * there is none. */
static size_t past_empty_macros(const text *x, size_t i)
{
  for (;;) {
    size_t id = skip_blank(x, i), a = id;
    if (a >= x->len || !(isalpha((unsigned char)x->t[a]) || x->t[a] == '_')) return i;
    while (a < x->len && (isalnum((unsigned char)x->t[a]) || x->t[a] == '_')) a++;
    size_t b = skip_blank(x, a);
    if (b < x->len && x->t[b] == '(') {   /* a function-like macro's arguments */
      b = after_params(x, id, a - id);
      if (b == (size_t)-1) return i;
      a = b;
    }
    i = a;
  }
}

/* Works out one operation as a splice; NULL reason on success. */
static const char *op_splice(const text *x, const fix_op *op, splice *out)
{
  size_t lo = text_off(x, op->line, op->col);
  if (lo == (size_t)-1) return "the position is past the end of the file";
  out->lo = out->hi = lo;
  out->with = NULL;
  if (op->kind == FOP_INSERT_DECLARATOR) {
    if (!holds_word(x, lo, op->expect)) return "the function's name is not where it was";
    size_t at = after_params(x, lo, strlen(op->expect));
    if (at == (size_t)-1) return "no parameter list follows the function's name there";
    out->lo = out->hi = at;
    out->with = xstrdup(op->text);
    return NULL;
  }
  if (op->kind == FOP_INSERT || op->kind == FOP_INSERT_END) {
    size_t name = text_off(x, op->info.line, op->info.col);
    if (name == (size_t)-1 || !holds_word(x, name, op->expect)) return "the function's name is not where it was";
    if (op->kind == FOP_INSERT_END) {
      out->lo = out->hi = lo = past_empty_macros(x, lo);
      size_t a = skip_blank(x, lo);
      if (a >= x->len || (x->t[a] != ';' && x->t[a] != ',')) return "the prototype does not end with ';' there";
    }
    out->with = xstrdup(op->text);
    return NULL;
  }
  size_t hi = text_off(x, op->end_line, op->end_col);
  if (hi == (size_t)-1 || hi < lo) return "the attribute's position is past the end of the file";
  if (op->expect) {   /* a macro */
    if (hi - lo != strlen(op->expect) || memcmp(x->t + lo, op->expect, hi - lo)) return "the attribute is not where it was";
    out->hi = hi;
    if (op->kind == FOP_REMOVE_ATTR) removal_blank(x, &out->lo, &out->hi);
    else out->with = xstrdup(op->text);
    return NULL;
  }
  size_t w;
  if (!last_word(x, lo, hi, &w)) return "the attribute is not where it was";
  if (op->kind == FOP_REPLACE) {
    out->lo = w;
    out->hi = hi;
    char *old = xstrndup(x->t + w, hi - w);
    out->with = xstrdup(fix_kind_word(word_kind(op->text, strlen(op->text)), old));
    free(old);
    return NULL;
  }
  if (!removal_range(x, lo, hi, &out->lo, &out->hi)) return "the attribute list around it is not one purist can edit";
  removal_blank(x, &out->lo, &out->hi);
  return NULL;
}

/* Indexes the lines of x as clang counts them: "\n", "\r\n" and a lone
 * "\r" (old Mac files) each end one. */
static void text_index_lines(text *x)
{
  vec_push(&x->lines, 0);
  for (size_t i = 0; i < x->len; i++)
    if (x->t[i] == '\n' || (x->t[i] == '\r' && (i + 1 == x->len || x->t[i + 1] != '\n')))
      vec_push(&x->lines, i + 1);
}

const char *fix_op_range(const char *t, size_t len, const fix_op *op, size_t *lo, size_t *hi, char **with)
{
  text x = { t, len, {0} };
  text_index_lines(&x);
  splice s = { 0, 0, NULL };
  const char *why = op_splice(&x, op, &s);
  vec_free(&x.lines);
  if (why) { free(s.with); return why; }
  *lo = s.lo;
  *hi = s.hi;
  *with = s.with ? s.with : xstrdup("");
  return NULL;
}

char *fix_apply_text(const char *t, size_t len, const fix_op *ops, size_t n, size_t *out_len, bool *failed,
                     fix_notes *notes)
{
  text x = { t, len, {0} };
  text_index_lines(&x);
  VEC(splice) sp = {0};
  for (size_t i = 0; i < n; i++) {
    splice s = { 0, 0, NULL };
    const char *why = op_splice(&x, &ops[i], &s);
    if (!why && sp.n && s.lo < sp.v[sp.n - 1].hi) why = "it overlaps another edit";
    failed[i] = why != NULL;
    if (why) {
      free(s.with);
      fix_note_add(notes, true, "%s:%u:%u: error: cannot %s on '%s': %s", ops[i].shown, ops[i].info.line,
                   ops[i].info.col, ops[i].info.what, ops[i].info.function, why);
      continue;
    }
    vec_push(&sp, s);
  }
  /* Bytes, not strings: a file may hold a NUL, and nothing may be lost. */
  VEC(char) out = {0};
  size_t at = 0;
  for (size_t i = 0; i <= sp.n; i++) {
    size_t upto = i < sp.n ? sp.v[i].lo : len;
    const char *with = i < sp.n && sp.v[i].with ? sp.v[i].with : "";
    size_t wl = strlen(with);
    vec_reserve(&out, out.n + (upto - at) + wl + 1);
    memcpy(out.v + out.n, t + at, upto - at);
    memcpy(out.v + out.n + (upto - at), with, wl);
    out.n += (upto - at) + wl;
    if (i < sp.n) { at = sp.v[i].hi; free(sp.v[i].with); }
  }
  out.v[out.n] = '\0';
  vec_free(&sp);
  vec_free(&x.lines);
  *out_len = out.n;
  return out.v;
}
