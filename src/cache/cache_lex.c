/* cache_lex.c — preprocessing tokens without libclang (see cache_lex.h).
 *
 * Newlines are "\r\n", "\n" or a lone "\r", as clang counts lines. A line
 * splice is a backslash, optional blanks (clang accepts them, with a
 * warning) and a newline; it is seen through everywhere but its bytes stay
 * in the token that holds it, so an edit that moves a splice inside a token
 * changes the hash. */
#include "cache/cache_lex.h"
#include <stdbool.h>
#include <string.h>
#include <xxhash.h>
#include "util/bytes.h"

typedef struct {
  const unsigned char *s;
  size_t n, i;
  uint32_t line, col;
} lx;

/* Where the current line stands in a directive. */
typedef enum { DIR_NONE, DIR_HASH, DIR_INCLUDE, DIR_DEFINE, DIR_OTHER } lx_dir;

/* A byte range of the text: a macro's name. */
typedef struct { size_t b, e; } lx_span;

typedef struct {
  lx_dir dir;
  unsigned flags;
  /* Macros this file defines whose expansion holds __LINE__ (spelled in
   * their body, or through another such macro of the file defined before):
   * using one outside a #define is using __LINE__. */
  VEC(lx_span) linemac;
  lx_span defname;   /* the name of the #define being read (e == 0: not yet) */
  bool defline;      /* its body holds __LINE__ */
} lx_state;

/* The length of a newline at i, or 0. */
static size_t lx_nl_len(const lx *L, size_t i)
{
  if (i >= L->n) return 0;
  if (L->s[i] == '\n') return 1;
  if (L->s[i] == '\r') return i + 1 < L->n && L->s[i + 1] == '\n' ? 2 : 1;
  return 0;
}

/* The length of a line splice at i, or 0. */
static size_t lx_splice_len(const lx *L, size_t i)
{
  if (i >= L->n || L->s[i] != '\\') return 0;
  size_t j = i + 1;
  while (j < L->n && (L->s[j] == ' ' || L->s[j] == '\t' || L->s[j] == '\f' || L->s[j] == '\v')) j++;
  size_t nl = lx_nl_len(L, j);
  return nl ? j + nl - i : 0;
}

/* The current character past any splices, or -1; nothing is consumed. */
static int lx_peek(const lx *L)
{
  size_t j = L->i, k;
  if (j < L->n && L->s[j] != '\\') return L->s[j];   /* the usual case */
  while ((k = lx_splice_len(L, j)) != 0) j += k;
  return j < L->n ? L->s[j] : -1;
}

/* Consumes the splices at the current position (a token never ends with
 * one: clang's does not), returning the character after them, or -1. */
static int lx_at(lx *L)
{
  size_t k;
  while ((k = lx_splice_len(L, L->i)) != 0) {
    L->i += k;
    L->line++;
    L->col = 1;
  }
  return L->i < L->n ? L->s[L->i] : -1;
}

/* The character after the current one, splices skipped. */
static int lx_peek2(const lx *L)
{
  size_t j = L->i, k;
  while ((k = lx_splice_len(L, j)) != 0) j += k;
  size_t nl = lx_nl_len(L, j);
  j += nl ? nl : 1;
  while ((k = lx_splice_len(L, j)) != 0) j += k;
  return j < L->n ? L->s[j] : -1;
}

/* Consumes the current character and the splices before it. */
static void lx_take(lx *L)
{
  lx_at(L);
  size_t nl = lx_nl_len(L, L->i);
  if (nl) {
    L->i += nl;
    L->line++;
    L->col = 1;
  } else if (L->i < L->n) {
    L->i++;
    L->col++;
  }
}

/* Consumes a run of bytes of one line none of which is in stop (a fast
 * path: the bytes are consumed as they are, so a backslash, a newline or a
 * byte of stop ends the run). */
static void lx_run(lx *L, const char *stop)
{
  size_t j = L->i;
  while (j < L->n && L->s[j] != '\\' && L->s[j] != '\n' && L->s[j] != '\r' && !strchr(stop, L->s[j])) j++;
  L->col += (uint32_t)(j - L->i);
  L->i = j;
}

static int lx_is_ident(int c)
{
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '$' ||
         c >= 0x80;
}

static int lx_is_digit(int c)
{
  return c >= '0' && c <= '9';
}

/* Is the current character a newline (or the end)? */
static int lx_at_eol(const lx *L)
{
  int c = lx_peek(L);
  return c < 0 || c == '\n' || c == '\r';
}

/* A block comment at "/" "*": to its end or the file's. */
static void lx_block_comment(lx *L)
{
  lx_take(L);
  lx_take(L);
  int c;
  for (;;) {
    lx_run(L, "*");
    if ((c = lx_peek(L)) < 0) return;
    if (c == '*' && lx_peek2(L) == '/') {
      lx_take(L);
      lx_take(L);
      return;
    }
    lx_take(L);
  }
}

/* The rest of the line (a line comment, or text that cannot be closed). */
static void lx_to_eol(lx *L)
{
  for (;;) {
    lx_run(L, "");
    if (lx_at_eol(L)) return;
    lx_take(L);
  }
}

/* A character or string literal at its quote q: to the closing quote, or
 * (unterminated) to the end of the line, which clang makes one token. */
static void lx_quoted(lx *L, int q, int escapes)
{
  char stop[2] = { (char)q, '\0' };
  lx_take(L);
  for (;;) {
    lx_run(L, stop);
    if (lx_at_eol(L)) return;
    int c = lx_peek(L);
    lx_take(L);
    if (c == '\\' && escapes) {
      if (!lx_at_eol(L)) lx_take(L);
    } else if (c == q) {
      return;
    }
  }
}

/* A raw string R"delim(...)delim" at its quote; if the delimiter is not
 * one, an ordinary string from where it stopped. Kept even where clang
 * would not read it as raw: holding more text exactly is the safe side. */
static void lx_raw_string(lx *L)
{
  char delim[17];
  size_t dn = 0;
  lx_take(L);
  int c;
  while ((c = lx_peek(L)) >= 0 && c != '(' && dn < 16 && c != ' ' && c != ')' && c != '\\' && c != '"' &&
         c != '\t' && c != '\v' && c != '\f' && c != '\n' && c != '\r') {
    delim[dn++] = (char)c;
    lx_take(L);
  }
  if (c != '(') {   /* not raw after all: the rest as a plain string */
    while (!lx_at_eol(L)) {
      c = lx_peek(L);
      lx_take(L);
      if (c == '\\' && !lx_at_eol(L)) lx_take(L);
      else if (c == '"') return;
    }
    return;
  }
  lx_take(L);
  while ((c = lx_peek(L)) >= 0) {
    lx_take(L);
    if (c != ')' || L->n - L->i < dn + 1) continue;
    if (memcmp(L->s + L->i, delim, dn) == 0 && L->s[L->i + dn] == '"') {
      for (size_t k = 0; k <= dn; k++) lx_take(L);
      return;
    }
  }
}

/* Does the identifier s[b..e) spell word? */
static int lx_word(const lx *L, size_t b, size_t e, const char *word)
{
  size_t n = strlen(word);
  return e - b == n && memcmp(L->s + b, word, n) == 0;
}

/* Is the identifier s[b..e) one of the file's line macros? */
static bool lx_is_linemac(const lx *L, const lx_state *st, size_t b, size_t e)
{
  for (size_t i = 0; i < st->linemac.n; i++) {
    lx_span m = st->linemac.v[i];
    if (m.e - m.b == e - b && memcmp(L->s + m.b, L->s + b, e - b) == 0) return true;
  }
  return false;
}

/* An identifier (and a raw string it prefixes); follows directives. */
static void lx_ident(lx *L, lx_state *st, lx_dir was)
{
  size_t b = L->i;
  for (;;) {
    size_t j = L->i;
    while (j < L->n && lx_is_ident(L->s[j])) j++;
    L->col += (uint32_t)(j - L->i);
    L->i = j;
    int c = lx_peek(L);
    if (c < 0 || !lx_is_ident(c)) break;
    lx_take(L);   /* past a splice */
  }
  size_t e = L->i;
  if (lx_peek(L) == '"' && e > b && L->s[e - 1] == 'R' &&
      (lx_word(L, b, e, "R") || lx_word(L, b, e, "LR") || lx_word(L, b, e, "uR") || lx_word(L, b, e, "UR") ||
       lx_word(L, b, e, "u8R"))) {
    lx_raw_string(L);
    return;
  }
  if (was == DIR_HASH) {
    if (lx_word(L, b, e, "include") || lx_word(L, b, e, "include_next") || lx_word(L, b, e, "import"))
      st->dir = DIR_INCLUDE;
    else if (lx_word(L, b, e, "define"))
      st->dir = DIR_DEFINE;
    else
      st->dir = DIR_OTHER;
    if (lx_word(L, b, e, "line")) st->flags |= CLEX_LINEDIR;
  } else if (st->dir == DIR_DEFINE && !st->defname.e) {
    st->defname = (lx_span){ b, e };
  } else if (lx_word(L, b, e, "__LINE__") || lx_is_linemac(L, st, b, e)) {
    if (st->dir == DIR_DEFINE) st->defline = true;
    else st->flags |= CLEX_LINE;
  }
}

/* The end of a directive: a #define whose body holds __LINE__ adds its
 * name to the file's line macros. */
static void lx_directive_end(lx_state *st)
{
  if (st->dir == DIR_DEFINE && st->defline && st->defname.e) vec_push(&st->linemac, st->defname);
  st->defname = (lx_span){ 0, 0 };
  st->defline = false;
  st->dir = DIR_NONE;
}

/* A preprocessing number (C's pp-number; a quote is not part of it). */
static void lx_number(lx *L)
{
  lx_take(L);
  for (;;) {
    int c = lx_peek(L);
    if ((c == 'e' || c == 'E' || c == 'p' || c == 'P') && (lx_peek2(L) == '+' || lx_peek2(L) == '-')) {
      lx_take(L);
      lx_take(L);
    } else if (c >= 0 && (lx_is_ident(c) || c == '.')) {
      lx_take(L);
    } else {
      return;
    }
  }
}

/* One token at the current (non-blank) character. */
static void lx_token(lx *L, lx_state *st, int bol)
{
  lx_dir was = st->dir;
  if (was == DIR_HASH) st->dir = DIR_OTHER;
  int c = lx_at(L);
  if (lx_is_ident(c) && !lx_is_digit(c)) {
    lx_ident(L, st, was);
  } else if (lx_is_digit(c) || (c == '.' && lx_is_digit(lx_peek2(L)))) {
    lx_number(L);
    if (was == DIR_HASH) st->flags |= CLEX_LINEDIR;   /* `# 12 "x.h"` */
  } else if (st->dir == DIR_INCLUDE && (c == '<' || c == '"')) {
    lx_quoted(L, c == '<' ? '>' : '"', 0);   /* a header name: no escapes, no comments */
  } else if (c == '"' || c == '\'') {
    lx_quoted(L, c, 1);
  } else if (c == '%' && lx_peek2(L) == ':') {
    lx_take(L);
    lx_take(L);
    if (bol) st->dir = DIR_HASH;
  } else {
    lx_take(L);
    if (c == '#' && bol) st->dir = DIR_HASH;
  }
}

/* Appends a token to the hashed stream: its two bits, length and bytes. */
static void lx_emit(bytes *out, const unsigned char *s, size_t n, int directive, int space)
{
  unsigned char bits = (unsigned char)((directive ? 2 : 0) | (space ? 1 : 0));
  bytes_raw(out, &bits, 1);
  bytes_uleb(out, n);
  bytes_raw(out, s, n);
}

static uint64_t lx_nonzero(uint64_t h)
{
  return h ? h : 1;
}

clex_sum cache_lex(const char *text, size_t len, clex_toks *toks)
{
  clex_sum r = { 0, 0 };
  if (len >= 3 && memmem(text, len, "?\?/", 3)) {
    r.flags = CLEX_TRIGRAPH;
    r.hash = lx_nonzero(XXH3_64bits_withSeed(text, len, 0x3f3f2f));
    return r;
  }
  lx L = { (const unsigned char *)text, len, 0, 1, 1 };
  if (len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0) { L.i = 3; L.col = 4; }   /* a BOM: clang skips it */
  lx_state st = { DIR_NONE, 0, {0}, { 0, 0 }, false };
  bytes out = {0};
  int bol = 1, space = 1, c;   /* at the start of a line; after spacing (a line start is) */
  while ((c = lx_at(&L)) >= 0) {
    if (lx_nl_len(&L, L.i)) {
      /* A newline is spacing, but for the directive it ends. */
      if (st.dir != DIR_NONE) bytes_raw(&out, "\4", 1);
      lx_directive_end(&st);
      lx_take(&L);
      bol = space = 1;
    } else if (c == ' ' || c == '\t' || c == '\f' || c == '\v' || c == '\0') {
      lx_take(&L);
      space = 1;
    } else if (c == '/' && lx_peek2(&L) == '*') {
      lx_block_comment(&L);
      space = 1;
    } else if (c == '/' && lx_peek2(&L) == '/') {
      lx_to_eol(&L);
      space = 1;
    } else {
      clex_tok t = { L.line, L.col, 0, 0 };
      size_t b = L.i;
      lx_token(&L, &st, bol);
      t.el = L.line;
      t.ec = L.col;
      lx_emit(&out, L.s + b, L.i - b, st.dir == DIR_HASH, space);
      if (toks) vec_push(toks, t);
      bol = space = 0;
    }
  }
  lx_directive_end(&st);   /* a #define on the last line, without a newline */
  vec_free(&st.linemac);
  r.flags = st.flags;
  r.hash = lx_nonzero(XXH3_64bits(out.v ? (const void *)out.v : "", out.n));
  vec_free(&out);
  return r;
}
