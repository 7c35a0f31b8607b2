/* condfacts.c — does a function's class hold only for the configuration
 * parsed? The preprocessor's skipped ranges (#if branches not taken) say
 * so in two ways: code skipped inside the definition's body (a stub
 * `#else` that returns a constant where the real build does I/O), or
 * another definition of the same name in a skipped branch (`#ifdef USE_TLS
 * … #else bool keylog_enabled(void) { return false; } #endif`). An
 * attribute fix writes into a shared header would bind every configuration;
 * purist has seen one. Found on curl, whose TLS-less build makes
 * curl_easy_ssls_import look const. */
#include "frontend/fe_internal.h"
#include <ctype.h>
#include <string.h>

/* The offset just past the `)` matching the `(` at i, or n. */
static size_t cf_close_paren(const char *s, size_t i, size_t n)
{
  int depth = 0;
  for (; i < n; i++) {
    if (s[i] == '(') depth++;
    else if (s[i] == ')' && --depth == 0) return i + 1;
  }
  return n;
}

/* Records in t->skipped_defs each name that [lo, hi) of s defines with a
 * prototype-style definition: an identifier, `( … )`, then `{`. A call
 * (followed by `;`, an operator, `)`) does not count. */
static void cf_scan_defs(fe_tu *t, const char *s, size_t lo, size_t hi)
{
  for (size_t i = lo; i < hi;) {
    if (!(isalpha((unsigned char)s[i]) || s[i] == '_') || (i > lo && (isalnum((unsigned char)s[i - 1]) || s[i - 1] == '_'))) {
      i++;
      continue;
    }
    size_t e = i;
    while (e < hi && (isalnum((unsigned char)s[e]) || s[e] == '_')) e++;
    size_t p = fe_skip_space(s, e, hi);
    if (p < hi && s[p] == '(') {
      size_t q = fe_skip_space(s, cf_close_paren(s, p, hi), hi);
      if (q < hi && s[q] == '{') strtab_intern_n(t->skipped_defs, s + i, e - i);
    }
    i = e;
  }
}

/* Does the skipped text at s[lo, hi) begin with `#if 0`? Such a block (an
 * old implementation kept for reference) is compiled by no configuration,
 * so it is no reason to doubt the class (lz4's XXH32 keeps one in its
 * body). */
/* Skips blanks and block comments on one line from i. */
static size_t cf_skip_blanks(const char *s, size_t i, size_t n)
{
  for (;;) {
    while (i < n && (s[i] == ' ' || s[i] == '\t')) i++;
    if (i + 1 < n && s[i] == '/' && s[i + 1] == '*') {
      const char *e = strstr(s + i + 2, "*/");
      i = e && (size_t)(e - s) < n ? (size_t)(e - s) + 2 : n;
    } else {
      return i;
    }
  }
}

static bool cf_if_zero(const char *s, size_t lo, size_t hi)
{
  size_t i = cf_skip_blanks(s, lo, hi);
  if (i >= hi || s[i] != '#') return false;
  i = cf_skip_blanks(s, i + 1, hi);
  if (hi - i < 2 || strncmp(s + i, "if", 2) || isalnum((unsigned char)s[i + 2]) || s[i + 2] == '_') return false;
  i = cf_skip_blanks(s, i + 2, hi);
  if (i >= hi || s[i] != '0') return false;
  i = cf_skip_blanks(s, i + 1, hi);
  return i >= hi || s[i] == '\n' || s[i] == '\r' || (s[i] == '/' && i + 1 < hi && s[i + 1] == '/');
}

/* The identifier at s[i] (its length in *len), or NULL. */
static const char *cf_ident(const char *s, size_t i, size_t n, size_t *len)
{
  size_t e = i;
  while (e < n && (isalnum((unsigned char)s[e]) || s[e] == '_')) e++;
  *len = e - i;
  return e > i && !isdigit((unsigned char)s[i]) ? s + i : NULL;
}

/* Past the directive keyword kw at s[i] (after `#` and blanks), or 0. */
static size_t cf_directive(const char *s, size_t i, size_t n, const char *kw)
{
  i = cf_skip_blanks(s, i, n);
  if (i >= n || s[i] != '#') return 0;
  i = cf_skip_blanks(s, i + 1, n);
  size_t k = strlen(kw);
  if (n - i < k || strncmp(s + i, kw, k) || isalnum((unsigned char)s[i + k]) || s[i + k] == '_') return 0;
  return cf_skip_blanks(s, i + k, n);
}

/* Is the skipped text at s[lo, hi) a header's include guard skipped on
 * its reentry: `#ifndef N` (or `#if !defined N`), then `#define N` with
 * nothing after it, up to the file's last `#endif`? A header that a
 * header it includes includes back (Emacs's lisp.h through thread.h) is
 * reentered while open, and clang reports its whole body skipped; the
 * outer inclusion compiles that very text, so it is no other
 * configuration (every function of lisp.h was "pure only in the
 * configuration analysed"). A `#ifndef N #define N` that does not reach
 * the end of the file is a default, not a guard. */
static bool cf_include_guard(const char *s, size_t lo, size_t hi, size_t n)
{
  size_t i = cf_directive(s, lo, hi, "ifndef"), len = 0, dlen = 0;
  if (!i) {
    i = cf_directive(s, lo, hi, "if");
    if (!i || s[i] != '!') return false;
    i = cf_skip_blanks(s, i + 1, hi);
    if (hi - i < 7 || strncmp(s + i, "defined", 7)) return false;
    i = cf_skip_blanks(s, i + 7, hi);
    if (i < hi && s[i] == '(') i = cf_skip_blanks(s, i + 1, hi);
  }
  const char *name = cf_ident(s, i, hi, &len);
  if (!name) return false;
  i = cf_skip_blanks(s, i + len, hi);
  if (i < hi && s[i] == ')') i++;
  while (i < hi && s[i] != '\n') i++;   /* the rest of the #if line */
  i = cf_directive(s, fe_skip_space(s, i, hi), hi, "define");
  const char *def = i ? cf_ident(s, i, hi, &dlen) : NULL;
  if (!def || dlen != len || strncmp(def, name, len)) return false;
  i = cf_skip_blanks(s, i + dlen, hi);
  if (i < hi && s[i] != '\n' && s[i] != '\r' && !(s[i] == '/' && i + 1 < hi && s[i + 1] == '/')) return false;
  /* The range ends at or just past the guard's `#endif`: past it, only
   * the rest of that line, blanks and comments up to the end. */
  size_t e = fe_skip_space(s, hi, n);
  if (e < n && cf_directive(s, e, n, "endif")) {
    while (e < n && s[e] != '\n') e++;
    e = fe_skip_space(s, e, n);
  }
  return e >= n;
}

static int cf_cmp_skip(const void *a, const void *b)
{
  unsigned x = ((const struct fe_skip *)a)->off, y = ((const struct fe_skip *)b)->off;
  return (x > y) - (x < y);
}

/* Collects the TU's skipped ranges and the names defined in them, once. */
static void cf_collect(fe_tu *t)
{
  if (t->skipped_defs) return;   /* collected (skipped may be NULL) */
  t->skipped = clang_getAllSkippedRanges(t->tu);
  t->skipped_defs = strtab_new();
  size_t n = t->skipped && t->skipped->count ? t->skipped->count : 1;
  t->skipped_live = xcalloc(n, sizeof *t->skipped_live);
  for (unsigned k = 0; t->skipped && k < t->skipped->count; k++) {
    CXSourceRange r = t->skipped->ranges[k];
    CXFile f;
    unsigned lo, hi;
    clang_getExpansionLocation(clang_getRangeStart(r), &f, NULL, NULL, &lo);
    clang_getExpansionLocation(clang_getRangeEnd(r), NULL, NULL, NULL, &hi);
    size_t size = 0;
    const char *s = fe_tu_text(t, f, &size);
    if (s && lo < hi && hi <= size && cf_if_zero(s, lo, hi)) continue;   /* no configuration compiles it */
    if (s && lo < hi && hi <= size && cf_include_guard(s, lo, hi, size)) continue;   /* the outer inclusion compiles it */
    t->skipped_live[t->nlive++] = (struct fe_skip){ lo, f };
    if (s && lo < hi && hi <= size) cf_scan_defs(t, s, lo, hi);
  }
  qsort(t->skipped_live, t->nlive, sizeof *t->skipped_live, cf_cmp_skip);
}

/* The SDF_CONFIG flags of a stub's level (cfgstub.c). */
static int cf_stub_flags(int level)
{
  if (level == FE_STUB_CONST) return SDF_CONFIG | SDF_CFG_PURE_OK | SDF_CFG_CONST_OK;
  return level == FE_STUB_PURE ? SDF_CONFIG | SDF_CFG_PURE_OK : SDF_CONFIG;
}

int fe_cond_dependent(fe_tu *t, CXCursor fn, int is_def, CXFile file, unsigned lo, unsigned hi)
{
  cf_collect(t);
  CXString name = clang_getCursorSpelling(fn);
  int other = strtab_find(t->skipped_defs, clang_getCString(name)) != UINT32_MAX;
  clang_disposeString(name);
  if (other) return SDF_CONFIG;   /* another definition: nothing read here says what it does */
  /* A branch in the specifiers before the name (gperf's `#ifdef __GNUC__
   * __inline #else … inline #endif` ahead of `static unsigned int hash(…)`)
   * chooses a keyword, not what the body does: only a branch from the name
   * on (the parameters, the body) counts. */
  unsigned name_off = 0;
  CXFile nf;
  clang_getExpansionLocation(clang_getCursorLocation(fn), &nf, NULL, NULL, &name_off);
  if (nf && clang_File_isEqual(nf, file) && name_off > lo && name_off < hi) lo = name_off;
  /* The ranges' starts were resolved and sorted once by cf_collect:
   * asking libclang for every range and every definition took 2-3% of
   * check's CPU on neovim (thousands of #if branches in its headers). */
  size_t a = 0, b = t->nlive;
  while (is_def && a < b) {   /* the first range starting after lo */
    size_t mid = a + (b - a) / 2;
    if (t->skipped_live[mid].off <= lo) a = mid + 1;
    else b = mid;
  }
  VEC(unsigned) in = {0};
  for (size_t k = a; is_def && k < t->nlive && t->skipped_live[k].off < hi; k++)
    if (clang_File_isEqual(t->skipped_live[k].file, file)) vec_push(&in, t->skipped_live[k].off);
  int flags = in.n ? cf_stub_flags(fe_cfg_stub_level(t, fn, file, lo, hi, in.v, in.n)) : 0;
  vec_free(&in);
  return flags;
}

void fe_cond_free(fe_tu *t)
{
  if (t->skipped) clang_disposeSourceRangeList(t->skipped);
  strtab_free(t->skipped_defs);
  free(t->skipped_live);
  fe_cfg_stub_free(t);
}
