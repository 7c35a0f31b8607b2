/* fixfacts.c — what `purist fix` needs to know about a declaration to edit
 * it safely: where it begins and ends, which pure/const attributes are
 * written on it and how (spelled out, [[gnu::]], or through a macro), which
 * of the project's attribute macros are defined before it, whether its
 * name comes from a macro or it is a K&R definition, and a content hash of
 * its file as parsed. All positions are expansion locations: where the
 * user's text is. */
#include "frontend/fe_internal.h"
#include "frontend/pch.h"
#include <ctype.h>
#include <string.h>
#include <xxhash.h>

static void ff_line_col(CXSourceLocation l, uint32_t *line, uint32_t *col)
{
  unsigned ln = 0, c = 0;
  clang_getExpansionLocation(l, NULL, &ln, &c, NULL);
  *line = ln;
  *col = c;
}

/* ---- attribute macros (detailed preprocessing record) ---- */

static int ff_is(const char *s, const char *a, const char *b) { return !strcmp(s, a) || !strcmp(s, b); }

/* The attribute kind a token names: pure/__pure__, const/__const__. */
static uint8_t ff_kind_word(const char *s)
{
  if (ff_is(s, "pure", "__pure__")) return SUM_DECL_PURE;
  if (ff_is(s, "const", "__const__")) return SUM_DECL_CONST;
  return 0;
}

/* Matches a macro body (tokens after the name) that is exactly one
 * pure/const attribute: __attribute__((pure)), [[gnu::const]], or another
 * attribute macro already known. Returns the kind, 0 if not one. */
static uint8_t ff_match_body(fe_tu *t, char **tok, unsigned n, uint8_t *form)
{
  if (n == 6 && ff_is(tok[0], "__attribute__", "__attribute") && !strcmp(tok[1], "(") && !strcmp(tok[2], "(")
      && !strcmp(tok[4], ")") && !strcmp(tok[5], ")")) {
    *form = SA_GNU;
    return ff_kind_word(tok[3]);
  }
  if (n == 7 && !strcmp(tok[0], "[") && !strcmp(tok[1], "[") && ff_is(tok[2], "gnu", "__gnu__")
      && !strcmp(tok[3], "::") && !strcmp(tok[5], "]") && !strcmp(tok[6], "]")) {
    *form = SA_C23;
    return ff_kind_word(tok[4]);
  }
  uint8_t std = fe_c23_macro_kind(tok, n);   /* [[unsequenced]] */
  if (std) {
    *form = SA_STD;
    return std;
  }
  if (n == 1) {
    uint32_t id = strtab_find(t->sum->strs, tok[0]);
    for (size_t i = 0; id != UINT32_MAX && i < t->sum->macros.n; i++)
      if (t->sum->macros.v[i].name == id) {
        *form = t->sum->macros.v[i].form;
        return t->sum->macros.v[i].kind;
      }
  }
  return 0;
}

/* The tokens of a macro definition, as strings (caller frees each). */
static unsigned ff_tokens(CXTranslationUnit tu, CXSourceRange r, char **out, unsigned max)
{
  CXToken *toks;
  unsigned n, k = 0;
  clang_tokenize(tu, r, &toks, &n);
  for (unsigned i = 0; i < n && k < max; i++) {
    CXString s = clang_getTokenSpelling(tu, toks[i]);
    out[k++] = xstrdup(clang_getCString(s));
    clang_disposeString(s);
  }
  clang_disposeTokens(tu, toks, n);
  return n <= max ? k : max + 1;
}

/* Does the text s[0, n) hold the word w anywhere (as a substring)? */
static int ff_holds(const char *s, size_t n, const char *w)
{
  size_t k = strlen(w);
  return k && memmem(s, n, w, k) != NULL;
}

/* Can the definition starting at byte lo of f be an attribute macro? Its
 * body must begin with `__attribute__`/`__attribute`, `[` or a known
 * attribute macro's name (ff_match_body), so a definition whose line holds
 * none of these is not one, and is not tokenized (most of a TU's macros,
 * those of system headers included: tokenizing them was ~8 % of the walk
 * on Lua). What the line alone cannot tell is tokenized as before: no
 * text (a macro of the command line), a backslash (a line splice: the
 * definition goes on, or splits a word), a comment's opening (it may run
 * onto the next lines), `?` (a trigraph), `<:` (a digraph of `[`). */
static int ff_may_be_attr(fe_tu *t, CXFile f, unsigned lo)
{
  size_t size = 0;
  const char *text = fe_tu_text(t, f, &size);
  if (!text || lo >= size) return 1;
  const char *s = text + lo, *nl = memchr(s, '\n', size - lo);
  size_t n = nl ? (size_t)(nl - s) : size - lo;
  if (memchr(s, '\\', n) || memchr(s, '?', n) || memchr(s, '[', n) || ff_holds(s, n, "/*") ||
      ff_holds(s, n, "<:") || ff_holds(s, n, "__attribute"))
    return 1;
  for (size_t i = 0; i < t->sum->macros.n; i++)
    if (ff_holds(s, n, strtab_get(t->sum->strs, t->sum->macros.v[i].name))) return 1;
  return 0;
}

/* A macro definition: if its whole expansion is a pure or const
 * attribute, it is recorded, and declarations after it (in TU order,
 * worked out in fe_fix_finish) may use it. */
void fe_fix_macro(fe_tu *t, CXCursor c, CXFile f, unsigned at)
{
  /* The line test first, as it spares most macros the calls below. */
  if (!ff_may_be_attr(t, f, at)) return;
  if (clang_Cursor_isMacroFunctionLike(c) || clang_Cursor_isMacroBuiltin(c)) return;
  CXSourceRange r = clang_getCursorExtent(c);
  unsigned lo = fe_expansion_offset(clang_getRangeStart(r), NULL), hi = fe_expansion_offset(clang_getRangeEnd(r), NULL);
  if (hi <= lo || hi - lo > 120) return;   /* an attribute macro is short: skip the rest cheaply */
  char *tok[9];
  unsigned n = ff_tokens(t->tu, r, tok, 8);
  uint8_t form = SA_GNU, kind = 0;
  if (n >= 2 && n <= 8) kind = ff_match_body(t, tok + 1, n - 1, &form);
  if (kind) {
    int sys = clang_Location_isInSystemHeader(clang_getCursorLocation(c));
    sum_macro m = { strtab_intern(t->sum->strs, tok[0]), kind, form, (uint8_t)(sys != 0), SMO_FILE };   /* origin: fe_fix_finish */
    vec_push(&t->sum->macros, m);
    fe_pending p = { t->sum->macros.n - 1, clang_getCursorLocation(c) };
    vec_push(&t->fix_macros, p);
  }
  for (unsigned i = 0; i < n && i < 8; i++) free(tok[i]);
}

/* ---- TU order ---- */

/* Where a location lies in the TU: the root its inclusion chain starts
 * from (0: the predefines buffer, which holds the built-in macros, the
 * command line's -D/-U and its -include directives; 1: the main file),
 * then the offsets of the #include lines leading to it, then its own
 * offset. Two locations compare in TU order as these lists compare
 * lexicographically. A location with no file (a command-line or built-in
 * macro) lies in the predefines buffer: root 0, its offset there. */
typedef VEC(unsigned) tu_key;

typedef struct {
  ptrmap files;             /* CXFile → index in keys + 1 (first inclusion only) */
  VEC(tu_key) keys;
} key_map;

#define FF_ROOT_PREDEFINES 0u
#define FF_ROOT_MAIN 1u

static void ff_inclusion(const fe_incl *in, void *d)
{
  key_map *km = d;
  uint64_t k = (uint64_t)(uintptr_t)in->file;
  if (!k || ptrmap_get(&km->files, k)) return;
  tu_key key = {0};
  vec_push(&key, in->predefined ? FF_ROOT_PREDEFINES : FF_ROOT_MAIN);
  for (unsigned i = 0; i < in->depth; i++) vec_push(&key, in->offs[i]);
  vec_push(&km->keys, key);
  ptrmap_put(&km->files, k, (uint32_t)km->keys.n);
}

/* A location resolved once: its file's inclusion prefix and its offset. */
typedef struct {
  const unsigned *pre;
  size_t n;
  unsigned off;
} ff_key;

/* The inclusion prefix of a location's file (root first), and its offset.
 * A file libclang did not report counts as the main file. */
static ff_key ff_prefix(const key_map *km, CXSourceLocation l)
{
  static const unsigned predefines[1] = { FF_ROOT_PREDEFINES }, main_file[1] = { FF_ROOT_MAIN };
  CXFile f;
  ff_key k = { predefines, 1, fe_expansion_offset(l, &f) };
  if (!f) return k;
  const uint32_t *i = ptrmap_get(&km->files, (uint64_t)(uintptr_t)f);
  if (!i) {
    k.pre = main_file;
    return k;
  }
  k.n = km->keys.v[*i - 1].n;
  k.pre = km->keys.v[*i - 1].v;
  return k;
}

/* Compares two locations in TU order (<0, 0, >0). */
static int ff_order(const ff_key *a, const ff_key *b)
{
  for (size_t i = 0;; i++) {
    unsigned xa = i < a->n ? a->pre[i] : a->off, xb = i < b->n ? b->pre[i] : b->off;
    if (xa != xb) return xa < xb ? -1 : 1;
    if (i >= a->n || i >= b->n) return i >= a->n && i >= b->n ? 0 : (i >= a->n ? -1 : 1);
  }
}

/* The slot of an attribute kind in fe_fix_finish's table. */
static int ff_kind_slot(uint8_t kind)
{
  return kind == SUM_DECL_CONST ? 1 : kind == SUM_DECL_REPRODUCIBLE ? 2 : kind == SUM_DECL_UNSEQUENCED ? 3 : 0;
}

/* Where an attribute macro's definition comes from: no file is the
 * predefines buffer (clang names its parts "<command line>" and
 * "<built-in>"); the GCC view's header holds the build compiler's
 * built-in macros; another file reached from that buffer was -include'd. */
static uint8_t ff_origin(const key_map *km, CXSourceLocation l)
{
  CXFile f;
  clang_getExpansionLocation(l, &f, NULL, NULL, NULL);
  if (f) {
    CXString name = clang_getFileName(f);
    bool builtin = fe_ccview_is_virtual(clang_getCString(name));   /* the build compiler's own macros */
    clang_disposeString(name);
    if (builtin) return SMO_BUILTIN;
    return ff_prefix(km, l).pre[0] == FF_ROOT_PREDEFINES ? SMO_INCLUDE : SMO_FILE;
  }
  CXString name;
  clang_getPresumedLocation(l, &name, NULL, NULL);
  const char *s = clang_getCString(name);
  uint8_t o = s && !strcmp(s, "<built-in>") ? SMO_BUILTIN : SMO_CMDLINE;
  clang_disposeString(name);
  return o;
}

/* The macros in TU order, and for each prefix of that order the latest
 * macro of each [ff_kind_slot][system?] among them (an index into the
 * order, -1 for none). A later macro at the same place does not replace
 * an earlier one, as a strict comparison in a scan of the list would not. */
typedef struct {
  ff_key key;
  size_t j;           /* index in t->fix_macros */
} ff_placed;

typedef struct {
  ff_placed *order;   /* the macros sorted in TU order, ties in list order */
  long (*best)[4][2]; /* best[p]: among order[0..p) */
} ff_sweep;

static int ff_cmp_placed(const void *a, const void *b)
{
  const ff_placed *x = a, *y = b;
  int c = ff_order(&x->key, &y->key);
  return c ? c : (x->j > y->j) - (x->j < y->j);
}

static void ff_sweep_build(ff_sweep *w, const fe_tu *t, const key_map *km)
{
  size_t n = t->fix_macros.n;
  w->order = xcalloc(n ? n : 1, sizeof *w->order);
  w->best = xcalloc(n + 1, sizeof *w->best);
  for (size_t j = 0; j < n; j++) w->order[j] = (ff_placed){ ff_prefix(km, t->fix_macros.v[j].loc), j };
  qsort(w->order, n, sizeof *w->order, ff_cmp_placed);
  for (int k = 0; k < 4; k++) w->best[0][k][0] = w->best[0][k][1] = -1;
  for (size_t p = 0; p < n; p++) {
    memcpy(w->best[p + 1], w->best[p], sizeof w->best[p]);
    const sum_macro *sm = &t->sum->macros.v[t->fix_macros.v[w->order[p].j].index];
    long *b = &w->best[p + 1][ff_kind_slot(sm->kind)][sm->system];
    if (*b < 0 || ff_order(&w->order[*b].key, &w->order[p].key) < 0) *b = (long)p;
  }
}

/* How many macros lie strictly before the location in TU order. */
static size_t ff_sweep_before(const ff_sweep *w, size_t n, const ff_key *at)
{
  size_t lo = 0, hi = n;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (ff_order(&w->order[mid].key, at) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/* Sets each declaration's macro_pure/macro_const (and the C23 ones): the
 * last attribute macro of that kind defined before it in TU order (a
 * project macro wins over a system header's), and each macro's origin.
 * Each location is resolved once and the macros sorted once: a scan of
 * every macro per declaration took 5% of check's CPU on neovim, whose
 * func_attr.h redefines its attribute macros before each of ~5000
 * generated prototypes. */
void fe_fix_finish(fe_tu *t)
{
  key_map km = { {0}, {0} };
  fe_inclusions(t->tu, t->pch, ff_inclusion, &km);
  for (size_t j = 0; j < t->fix_macros.n; j++)
    t->sum->macros.v[t->fix_macros.v[j].index].origin = ff_origin(&km, t->fix_macros.v[j].loc);
  ff_sweep w;
  ff_sweep_build(&w, t, &km);
  for (size_t i = 0; i < t->fix_decls.n; i++) {
    sum_decl *d = &t->sum->decls.v[t->fix_decls.v[i].index];
    ff_key at = ff_prefix(&km, t->fix_decls.v[i].loc);
    const long (*best)[2] = (const long (*)[2])w.best[ff_sweep_before(&w, t->fix_macros.n, &at)];
    uint32_t name[4][2];
    for (int k = 0; k < 4; k++)
      for (int sys = 0; sys < 2; sys++)
        name[k][sys] = best[k][sys] < 0 ? 0 : t->sum->macros.v[t->fix_macros.v[w.order[best[k][sys]].j].index].name;
    d->macro_pure = name[0][0] ? name[0][0] : name[0][1];
    d->macro_const = name[1][0] ? name[1][0] : name[1][1];
    d->macro_repro = name[2][0] ? name[2][0] : name[2][1];
    d->macro_unseq = name[3][0] ? name[3][0] : name[3][1];
  }
  free(w.order);
  free(w.best);
  for (size_t i = 0; i < km.keys.n; i++) vec_free(&km.keys.v[i]);
  vec_free(&km.keys);
  ptrmap_free(&km.files);
}

/* ---- one declaration ---- */

/* The identifier at byte `off` of the file (a macro's name at its use). */
static uint32_t ff_ident_at(fe_tu *t, CXFile file, unsigned off)
{
  size_t size = 0;
  const char *text = fe_tu_text(t, file, &size);
  if (!text || off >= size) return 0;
  unsigned e = off;
  while (e < size && (isalnum((unsigned char)text[e]) || text[e] == '_')) e++;
  return e > off ? strtab_intern_n(t->sum->strs, text + off, e - off) : 0;
}

/* Is the attribute written out as [[gnu::…]]? Its extent starts at `gnu`,
 * right after `[[`. */
static uint8_t ff_written_form(fe_tu *t, CXFile file, unsigned off)
{
  size_t size = 0;
  const char *text = fe_tu_text(t, file, &size);
  while (text && off > 0 && off <= size && isspace((unsigned char)text[off - 1])) off--;
  return text && off >= 1 && off <= size && text[off - 1] == '[' ? SA_C23 : SA_GNU;
}

typedef struct {
  fe_tu *t;
  sum_decl *d;
  CXFile file;
  unsigned lo, hi;
} decl_scan;

static enum CXChildVisitResult ff_attr(CXCursor c, CXCursor parent, CXClientData data)
{
  static const char *const gcc_excl[] = { "malloc", "__malloc__", "alloc_size", "__alloc_size__",
                                          "alloc_align", "__alloc_align__", NULL };
  decl_scan *s = data;
  enum CXCursorKind k = clang_getCursorKind(c);
  if (k == CXCursor_UnexposedAttr && fe_attr_has_word(s->t, c, gcc_excl)) s->d->dflags |= SDF_GCC_EXCL;
  if (k != CXCursor_PureAttr && k != CXCursor_ConstAttr) return CXChildVisit_Continue;
  CXSourceRange r = clang_getCursorExtent(c);
  if (clang_Range_isNull(r) || !fe_attr_in_decl(s->t, s->file, s->lo, s->hi, c)) return CXChildVisit_Continue;
  sum_attr a;
  memset(&a, 0, sizeof a);
  a.kind = k == CXCursor_PureAttr ? SUM_DECL_PURE : SUM_DECL_CONST;
  CXSourceLocation b = clang_getRangeStart(r);
  unsigned off = fe_expansion_offset(b, NULL), sl = 0, sc = 0;
  clang_getSpellingLocation(b, NULL, &sl, &sc, NULL);
  ff_line_col(b, &a.beg_line, &a.beg_col);
  ff_line_col(clang_getRangeEnd(r), &a.end_line, &a.end_col);
  if (sl != a.beg_line || sc != a.beg_col) {           /* spelled by a macro */
    a.macro = ff_ident_at(s->t, s->file, off);
    for (size_t i = 0; i < s->t->sum->macros.n; i++)
      if (s->t->sum->macros.v[i].name == a.macro) a.form = s->t->sum->macros.v[i].form;
  } else {
    a.form = ff_written_form(s->t, s->file, off);
  }
  vec_push(&s->t->sum->attrs, a);
  s->d->nattr++;
  return CXChildVisit_Continue;
}

/* A K&R definition names its parameters in an identifier list and declares
 * them after the `)`: the first parameter's name lies past the list. */
static int ff_is_knr(fe_tu *t, CXCursor fn, CXFile file, unsigned name_off)
{
  if (clang_Cursor_getNumArguments(fn) < 1) return 0;
  CXCursor p0 = clang_Cursor_getArgument(fn, 0);
  unsigned p_off = fe_expansion_offset(clang_getCursorLocation(p0), NULL);
  size_t size = 0;
  const char *text = fe_tu_text(t, file, &size);
  if (!text || p_off > size || p_off <= name_off) return 0;
  int depth = 0;
  for (unsigned i = name_off; i < p_off; i++) {
    if (text[i] == '(') depth++;
    else if (text[i] == ')' && --depth == 0) return 1;
  }
  return 0;
}

/* Hashes the file once per TU: fix compares it with the file it edits. */
static void ff_hash_file(fe_tu *t, CXFile file, uint32_t id)
{
  if (ptrmap_get(&t->hashed, (uint64_t)id + 1)) return;
  ptrmap_put(&t->hashed, (uint64_t)id + 1, 1);
  size_t size = 0;
  const char *text = fe_tu_text(t, file, &size);
  sum_file f = { id, XXH64(text ? text : "", text ? size : 0, 0),
                 (uint8_t)fe_generated_file(t, strtab_get(t->sum->strs, id), text, size) };
  vec_push(&t->sum->files, f);
}

/* Fills the fix facts of declaration d (cursor fn), whose loc is set. */
void fe_fix_decl(fe_tu *t, CXCursor fn, sum_decl *d)
{
  CXSourceLocation name = clang_getCursorLocation(fn);
  CXFile file, bf, ef;
  unsigned name_off = fe_expansion_offset(name, &file), sl = 0, sc = 0;
  clang_getSpellingLocation(name, NULL, &sl, &sc, NULL);
  if (sl != d->loc.line || sc != d->loc.col) {
    d->dflags |= SDF_MACRO_NAME;
    d->spelled = fe_fix_renamed(t, name, file, name_off, strtab_get(t->sum->strs, t->sum->funcs.v[d->func].name));
  }
  CXSourceRange r = clang_getCursorExtent(fn);
  decl_scan s = { t, d, file, fe_expansion_offset(clang_getRangeStart(r), &bf), fe_expansion_offset(clang_getRangeEnd(r), &ef) };
  if (!clang_File_isEqual(bf, file) || !clang_File_isEqual(ef, file) || s.hi < s.lo) d->dflags |= SDF_SPLIT;
  ff_line_col(clang_getRangeStart(r), &d->beg_line, &d->beg_col);
  ff_line_col(clang_getRangeEnd(r), &d->end_line, &d->end_col);
  if (d->is_def && ff_is_knr(t, fn, file, name_off)) d->dflags |= SDF_KNR;
  if (file) d->dflags |= (uint8_t)fe_cond_dependent(t, fn, d->is_def, file, s.lo, s.hi);
  d->attr_off = (uint32_t)t->sum->attrs.n;
  d->nattr = 0;
  clang_visitChildren(fn, ff_attr, &s);
  fe_pending at = { t->sum->decls.n, clang_getRangeStart(r) };   /* d is pushed next */
  vec_push(&t->fix_decls, at);
  if (file) ff_hash_file(t, file, d->loc.file);
}
