/* cfgstub.c — does an #if in a body only choose between harmless stubs?
 *
 * A skipped #if branch in a function's body makes its class hold only for
 * the configuration parsed (condfacts.c): the branch is not compiled, so
 * nothing is known of it. But most such branches in real code are stubs
 * whose text says all: libpng's forty getters end `#else
 * PNG_UNUSED(png_ptr) PNG_UNUSED(info_ptr) #endif return (0);`, zlib's
 * zlibCompileFlags has `#ifdef ZLIB_DEBUG flags += 1 << 8; #endif`. Every
 * conditional construct in the body that holds a skipped branch is read
 * here, token by token, all its branches (the one compiled too, as its
 * returns and calls could hide the rest of the body from the walk): when
 * no token of it can write, call, loop, declare or define anything, the
 * other configuration does at most what this one does, plus reads —
 * FE_STUB_CONST if it reads only parameters, locals, enumerators and
 * literals, FE_STUB_PURE if it may read memory besides. Macros are judged
 * by their definitions in this translation unit; a name it does not know
 * (a macro only the other configuration defines) judges nothing. */
#include "frontend/fe_internal.h"
#include "util/ppdir.h"
#include <string.h>

enum { CS_GLOBAL = 1, CS_ENUM, CS_TYPE, CS_FUNC, CS_MACRO };
enum { CS_DEPTH = 8 };   /* macros within macros judged */

struct fe_cfgstub {
  strtab *names;           /* file-scope names and macros of the TU */
  VEC(uint8_t) kind;       /* CS_* per name id */
  VEC(uint32_t) head;      /* a macro's last definition, per name id: index + 1 in defs */
  VEC(struct cs_def { CXCursor c; uint32_t prev; }) defs;   /* every #define, chained per name */
  VEC(uint8_t) memo;       /* a macro's level + 1 once judged for this function; 0xff while judged */
};

typedef struct {
  fe_tu *t;
  struct fe_cfgstub *cs;
  strtab *locals;          /* the function's parameters and locals */
  VEC(uint8_t) counted;    /* per local: an integer the compiled body already steps (`n += …`, `n++`) */
  int depth;
} cs_judge;

static void cs_set(struct fe_cfgstub *cs, const char *name, uint8_t kind, CXCursor c)
{
  uint32_t id = strtab_intern(cs->names, name);
  while (cs->kind.n <= id) {
    vec_push(&cs->kind, 0);
    vec_push(&cs->head, 0);
    vec_push(&cs->memo, 0);
  }
  if (kind == CS_MACRO || cs->kind.v[id] < CS_MACRO) cs->kind.v[id] = kind;   /* a macro hides a name */
  if (kind != CS_MACRO) return;
  /* Defined again after an #undef (stddef.h's NULL, once per inclusion):
   * every definition is judged. */
  struct cs_def d = { c, cs->head.v[id] };
  vec_push(&cs->defs, d);
  cs->head.v[id] = (uint32_t)cs->defs.n;
}

static void cs_set_cursor(struct fe_cfgstub *cs, CXCursor c, uint8_t kind)
{
  CXString s = clang_getCursorSpelling(c);
  const char *name = clang_getCString(s);
  if (name && *name) cs_set(cs, name, kind, c);
  clang_disposeString(s);
}

static enum CXChildVisitResult cs_enum_kid(CXCursor c, CXCursor parent, CXClientData d)
{
  (void)parent;
  if (clang_getCursorKind(c) == CXCursor_EnumConstantDecl) cs_set_cursor(d, c, CS_ENUM);
  return CXChildVisit_Continue;
}

static enum CXChildVisitResult cs_top(CXCursor c, CXCursor parent, CXClientData d)
{
  (void)parent;
  switch (clang_getCursorKind(c)) {
  case CXCursor_MacroDefinition: cs_set_cursor(d, c, CS_MACRO); break;
  case CXCursor_VarDecl: cs_set_cursor(d, c, CS_GLOBAL); break;
  case CXCursor_FunctionDecl: cs_set_cursor(d, c, CS_FUNC); break;
  case CXCursor_TypedefDecl: cs_set_cursor(d, c, CS_TYPE); break;
  case CXCursor_EnumDecl: clang_visitChildren(c, cs_enum_kid, d); break;
  default: break;
  }
  return CXChildVisit_Continue;
}

static struct fe_cfgstub *cs_tables(fe_tu *t)
{
  if (t->cfgstub) return t->cfgstub;
  struct fe_cfgstub *cs = xcalloc(1, sizeof *cs);
  cs->names = strtab_new();
  clang_visitChildren(clang_getTranslationUnitCursor(t->tu), cs_top, cs);
  return t->cfgstub = cs;
}

static bool cs_integer(CXType t)
{
  enum CXTypeKind k = clang_getCanonicalType(t).kind;
  return (k >= CXType_Char_U && k <= CXType_Int128 && k != CXType_WChar) || k == CXType_Enum;
}

static void cs_local_mark(cs_judge *j, const char *name, uint8_t bit)
{
  uint32_t id = strtab_intern(j->locals, name);
  while (j->counted.n <= id) vec_push(&j->counted, 0);
  j->counted.v[id] |= bit;
}

/* The operand of a step, when it is a variable itself (first child). */
static enum CXChildVisitResult cs_step_operand(CXCursor c, CXCursor parent, CXClientData d)
{
  (void)parent;
  enum CXCursorKind k = clang_getCursorKind(c);
  if (k == CXCursor_UnexposedExpr || k == CXCursor_ParenExpr) return CXChildVisit_Recurse;
  CXCursor v = clang_getCursorReferenced(c);
  enum CXCursorKind vk = clang_getCursorKind(v);
  if (k == CXCursor_DeclRefExpr && (vk == CXCursor_ParmDecl || (vk == CXCursor_VarDecl && !clang_Cursor_hasVarDeclGlobalStorage(v)))) {
    CXString s = clang_getCursorSpelling(c);
    cs_local_mark(d, clang_getCString(s), 2);
    clang_disposeString(s);
  }
  return CXChildVisit_Break;
}

/* The parameters and locals of the function, and which integer ones its
 * compiled body steps: a compound assignment, ++ or -- of the variable
 * itself. */
static enum CXChildVisitResult cs_local(CXCursor c, CXCursor parent, CXClientData d)
{
  (void)parent;
  cs_judge *j = d;
  enum CXCursorKind k = clang_getCursorKind(c);
  if (k == CXCursor_ParmDecl || k == CXCursor_VarDecl) {
    CXString s = clang_getCursorSpelling(c);
    cs_local_mark(j, clang_getCString(s), cs_integer(clang_getCursorType(c)) ? 1 : 0);
    clang_disposeString(s);
  }
  bool step = k == CXCursor_CompoundAssignOperator;
  if (k == CXCursor_UnaryOperator) {
    enum CXUnaryOperatorKind op = clang_getCursorUnaryOperatorKind(c);
    step = op >= CXUnaryOperator_PostInc && op <= CXUnaryOperator_PreDec;
  }
  if (step) clang_visitChildren(c, cs_step_operand, j);
  return CXChildVisit_Recurse;
}

static int cs_min(int a, int b) { return a < b ? a : b; }

static bool cs_spelled(const char *s, const char *const *words)
{
  for (; *words; words++)
    if (!strcmp(s, *words)) return true;
  return false;
}

/* Type keywords, allowed in a cast or sizeof only (after '(' or one of them). */
static bool cs_type_word(const char *s)
{
  static const char *const w[] = { "void", "char", "short", "int", "long", "unsigned", "signed", "float",
                                   "double", "_Bool", "const", "struct", "union", "enum", NULL };
  return cs_spelled(s, w);
}

/* Punctuation that writes: assignments, ++ and --. */
static bool cs_writes(const char *p)
{
  size_t n = strlen(p);
  if (!strcmp(p, "++") || !strcmp(p, "--") || !strcmp(p, "##")) return true;
  if (n == 0 || p[n - 1] != '=') return false;
  return !(n == 2 && (p[0] == '=' || p[0] == '!' || p[0] == '<' || p[0] == '>'));
}

typedef struct { CXTranslationUnit tu; CXToken *v; unsigned n, all; char **text; } cs_toks;

/* The tokens of r; with `limit`, none that starts at that offset or after
 * (clang_tokenize takes in the token at the range's end). */
static void cs_toks_get(cs_toks *k, CXTranslationUnit tu, CXSourceRange r, unsigned limit)
{
  k->tu = tu;
  clang_tokenize(tu, r, &k->v, &k->n);
  k->all = k->n;
  while (limit && k->n) {
    unsigned off;
    clang_getSpellingLocation(clang_getTokenLocation(tu, k->v[k->n - 1]), NULL, NULL, NULL, &off);
    if (off < limit) break;
    k->n--;
  }
  k->text = xcalloc(k->n ? k->n : 1, sizeof *k->text);
  for (unsigned i = 0; i < k->n; i++) {
    CXString s = clang_getTokenSpelling(tu, k->v[i]);
    k->text[i] = xstrdup(clang_getCString(s));
    clang_disposeString(s);
  }
}

static void cs_toks_free(cs_toks *k)
{
  for (unsigned i = 0; i < k->n; i++) free(k->text[i]);
  free(k->text);
  clang_disposeTokens(k->tu, k->v, k->all);
}

static unsigned cs_line(const cs_toks *k, unsigned i)
{
  unsigned line;
  clang_getSpellingLocation(clang_getTokenLocation(k->tu, k->v[i]), NULL, &line, NULL, NULL);
  return line;
}

/* Does token i of k (read from `from`) begin a directive: a `#` first on
 * its line? */
static bool cs_directive_at(const cs_toks *k, unsigned i, unsigned from)
{
  return !strcmp(k->text[i], "#") && (i == from || cs_line(k, i - 1) != cs_line(k, i));
}

/* The first token of k past the line token i is on. */
static unsigned cs_line_end(const cs_toks *k, unsigned i)
{
  unsigned line = cs_line(k, i);
  while (i < k->n && cs_line(k, i) == line) i++;
  return i;
}

static int cs_tokens(cs_judge *j, const cs_toks *k, unsigned from, const strtab *params);

/* The level of one definition of a macro (the arguments of a call of it
 * are judged where they are written). */
static int cs_macro_def(cs_judge *j, CXCursor def)
{
  cs_toks k;
  cs_toks_get(&k, j->t->tu, clang_getCursorExtent(def), 0);
  strtab *params = strtab_new();
  unsigned from = 1;
  if (clang_Cursor_isMacroFunctionLike(def)) {
    for (from = 2; from < k.n && strcmp(k.text[from], ")"); from++)
      strtab_intern(params, !strcmp(k.text[from], "...") ? "__VA_ARGS__" : k.text[from]);
    from++;
  }
  int level = cs_tokens(j, &k, from, params);
  strtab_free(params);
  cs_toks_free(&k);
  return level;
}

/* The level of macro id: the least of its definitions'. */
static int cs_macro(cs_judge *j, uint32_t id)
{
  struct fe_cfgstub *cs = j->cs;
  if (cs->memo.v[id] == 0xff || j->depth >= CS_DEPTH) return FE_STUB_NONE;
  if (cs->memo.v[id]) return cs->memo.v[id] - 1;
  cs->memo.v[id] = 0xff;
  j->depth++;
  int level = FE_STUB_CONST;
  for (uint32_t d = cs->head.v[id]; d && level > FE_STUB_NONE; d = cs->defs.v[d - 1].prev)
    level = cs_min(level, cs_macro_def(j, cs->defs.v[d - 1].c));
  j->depth--;
  cs->memo.v[id] = (uint8_t)(level + 1);
  return level;
}

/* The level of identifier i of k (params: a macro's parameters). */
static int cs_ident(cs_judge *j, const cs_toks *k, unsigned i, const strtab *params)
{
  const char *s = k->text[i], *prev = i ? k->text[i - 1] : "", *next = i + 1 < k->n ? k->text[i + 1] : "";
  bool called = !strcmp(next, "(");
  if (!strcmp(prev, ".") || !strcmp(prev, "->") || !strcmp(prev, "struct") || !strcmp(prev, "union") ||
      !strcmp(prev, "enum"))
    return FE_STUB_CONST;   /* a member or a tag */
  if ((params && strtab_find(params, s) != UINT32_MAX) || strtab_find(j->locals, s) != UINT32_MAX)
    return called ? FE_STUB_NONE : FE_STUB_CONST;
  if (!strcmp(s, "__func__") || !strcmp(s, "__FUNCTION__")) return FE_STUB_CONST;
  uint32_t id = strtab_find(j->cs->names, s);
  switch (id == UINT32_MAX ? 0 : j->cs->kind.v[id]) {
  case CS_MACRO: return cs_macro(j, id);
  case CS_ENUM: return FE_STUB_CONST;
  case CS_TYPE: return !strcmp(prev, "(") || cs_type_word(prev) ? FE_STUB_CONST : FE_STUB_NONE;
  case CS_GLOBAL: return called ? FE_STUB_NONE : FE_STUB_PURE;
  case CS_FUNC: return called ? FE_STUB_NONE : FE_STUB_CONST;   /* its address */
  default: return FE_STUB_NONE;   /* unknown here: perhaps a macro only the other configuration defines */
  }
}

/* Is token i of k a local integer the compiled body steps already? Its
 * value is then no constant the walk could decide a test by (walk_stmt.c's
 * locals that hold 0), so stepping it once more in a stub changes no path
 * the class was judged on: zlib's zlibCompileFlags `#ifdef ZLIB_DEBUG
 * flags += 1 << 8; #endif` after `flags += 1;` in every compiled case. */
static bool cs_counted(const cs_judge *j, const cs_toks *k, unsigned i)
{
  if (i >= k->n || clang_getTokenKind(k->v[i]) != CXToken_Identifier) return false;
  uint32_t id = strtab_find(j->locals, k->text[i]);
  return id != UINT32_MAX && id < j->counted.n && j->counted.v[id] == 3;
}

/* Is token i a step of a stepped local integer alone: `n += e`, `n++`,
 * `++n`, not `p->n += e` nor `*n++`? */
static bool cs_local_step(const cs_judge *j, const cs_toks *k, unsigned i)
{
  static const char *const steps[] = { "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>=", "++", "--", NULL };
  static const char *const reach[] = { ".", "->", "*", "&", "[", "]", "++", "--", NULL };
  const char *p = k->text[i];
  if (!cs_spelled(p, steps)) return false;
  bool incdec = p[1] == p[0];
  if (i > 0 && cs_counted(j, k, i - 1)) return i < 2 || !cs_spelled(k->text[i - 2], reach);
  return incdec && cs_counted(j, k, i + 1) && (i + 2 >= k->n || !cs_spelled(k->text[i + 2], reach));
}

/* The level of punctuation i of k (in_macro: of a macro's definition,
 * whose names may be its arguments: no write is a local's there). */
static int cs_punct(const cs_judge *j, const cs_toks *k, unsigned i, bool in_macro)
{
  const char *p = k->text[i];
  if (cs_writes(p)) return !in_macro && cs_local_step(j, k, i) ? FE_STUB_CONST : FE_STUB_NONE;
  if (!strcmp(p, "->") || !strcmp(p, "[")) return FE_STUB_PURE;
  if (!strcmp(p, "*")) {   /* unary: a load; after an operand: a product */
    const char *prev = i ? k->text[i - 1] : "";
    CXTokenKind pk = i ? clang_getTokenKind(k->v[i - 1]) : CXToken_Punctuation;
    bool operand = pk == CXToken_Identifier || pk == CXToken_Literal || !strcmp(prev, ")") || !strcmp(prev, "]");
    bool cast = pk == CXToken_Keyword && cs_type_word(prev);   /* `(void *)` */
    return operand || cast ? FE_STUB_CONST : FE_STUB_PURE;
  }
  return FE_STUB_CONST;
}

/* A directive in the text read: the conditional ones (and #error, #pragma)
 * only choose; any other (#define, #undef, #include) changes what follows. */
static bool cs_directive_ok(const char *w)
{
  static const char *const ok[] = { "if", "ifdef", "ifndef", "elif", "elifdef", "elifndef", "else", "endif",
                                    "error", "warning", "pragma", NULL };
  return cs_spelled(w, ok);
}

static int cs_tokens(cs_judge *j, const cs_toks *k, unsigned from, const strtab *params)
{
  static const char *const kw_ok[] = { "return", "if", "else", "sizeof", "_Alignof", NULL };
  int level = FE_STUB_CONST;
  for (unsigned i = from; i < k->n && level > FE_STUB_NONE; i++) {
    const char *s = k->text[i];
    switch (clang_getTokenKind(k->v[i])) {
    case CXToken_Comment: case CXToken_Literal: break;
    case CXToken_Punctuation:
      if (!params && cs_directive_at(k, i, from)) {
        if (i + 1 >= k->n || !cs_directive_ok(k->text[i + 1])) return FE_STUB_NONE;
        i = cs_line_end(k, i) - 1;
      } else if (params && !strcmp(s, "#")) {
        i++;   /* `#param`: a string */
      } else {
        level = cs_min(level, cs_punct(j, k, i, params != NULL));
      }
      break;
    case CXToken_Keyword:
      if (cs_type_word(s) && i > from && (!strcmp(k->text[i - 1], "(") || cs_type_word(k->text[i - 1]))) break;
      if (!strcmp(s, "void") && i + 1 < k->n && !strcmp(k->text[i + 1], ")")) break;
      if (!cs_spelled(s, kw_ok)) return FE_STUB_NONE;
      break;
    case CXToken_Identifier:
      level = cs_min(level, cs_ident(j, k, i, params));
      break;
    }
  }
  return level;
}

/* The first character before offset `at` of s that is no blank nor part
 * of a block comment; 0 at the start. */
static char cs_char_before(const char *s, unsigned at)
{
  while (at > 0) {
    char c = s[--at];
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') continue;
    if (c == '/' && at > 0 && s[at - 1] == '*') {   /* a block comment's end: back to its start */
      while (at > 1 && !(s[at - 2] == '/' && s[at - 1] == '*')) at--;
      at = at > 1 ? at - 2 : 0;
      continue;
    }
    return c;
  }
  return 0;
}

static bool cs_operand_end(char c)
{
  return c == ')' || c == ']' || c == '_' || (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/* Could a branch of the construct k, from `start` to `end` of s, join the
 * text around it into a call or a subscript only the other configuration
 * makes: `f` before it and a branch opening with `(`, or a branch ending
 * in a name and `(` after it? */
static bool cs_joins(const cs_toks *k, const char *s, size_t size, unsigned start, unsigned end)
{
  bool before = cs_operand_end(cs_char_before(s, start));
  size_t next = fe_skip_space(s, end, size);
  char after = next < size ? s[next] : 0;
  bool opens_after = after == '(' || after == '[';
  for (unsigned i = 0; i < k->n; i++) {
    if (!cs_directive_at(k, i, 0)) continue;
    /* a directive line: the tokens around it end and begin branches */
    const char *last = i > 0 ? k->text[i - 1] : "";
    CXTokenKind lk = i > 0 ? clang_getTokenKind(k->v[i - 1]) : CXToken_Punctuation;
    if (opens_after && i > 0 && (lk == CXToken_Identifier || !strcmp(last, ")") || !strcmp(last, "]"))) return true;
    unsigned b = cs_line_end(k, i);
    if (before && b < k->n && (!strcmp(k->text[b], "(") || !strcmp(k->text[b], "["))) return true;
  }
  return false;
}

/* The conditional constructs at depth 0 of [lo, hi) of s that hold a
 * skipped range (skip[0..nskip): offsets), judged; FE_STUB_NONE if the
 * directives do not nest within the range. */
static int cs_constructs(cs_judge *j, CXFile file, const char *s, size_t size, unsigned lo, unsigned hi,
                         const unsigned *skip, size_t nskip)
{
  int level = FE_STUB_CONST, depth = 0;
  unsigned start = lo;
  const char *p = s + lo;
  while (p < s + hi && level > FE_STUB_NONE) {
    const char *next;
    uint32_t nl;
    unsigned at = (unsigned)(p - s);
    char *d = pp_directive(p, &next, &nl);
    if (d && (pp_is(d, "if") || pp_is(d, "ifdef") || pp_is(d, "ifndef")) && depth++ == 0) start = at;
    if (d && pp_is(d, "endif") && --depth == 0) {
      unsigned end = (unsigned)(next - s);
      bool held = false;
      for (size_t i = 0; i < nskip && !held; i++) held = skip[i] >= start && skip[i] < end;
      if (held) {
        cs_toks k;
        cs_toks_get(&k, j->t->tu, clang_getRange(clang_getLocationForOffset(j->t->tu, file, start),
                                                 clang_getLocationForOffset(j->t->tu, file, end)), end);
        level = cs_joins(&k, s, size, start, end) ? FE_STUB_NONE : cs_min(level, cs_tokens(j, &k, 0, NULL));
        cs_toks_free(&k);
      }
    }
    free(d);
    if (depth < 0) level = FE_STUB_NONE;
    p = next;
  }
  return depth ? FE_STUB_NONE : level;
}

int fe_cfg_stub_level(fe_tu *t, CXCursor fn, CXFile file, unsigned lo, unsigned hi,
                      const unsigned *skip, size_t nskip)
{
  size_t size = 0;
  const char *s = fe_tu_text(t, file, &size);
  if (!s || hi > size || lo >= hi) return FE_STUB_NONE;
  /* Back to the start of lo's line, where a directive would begin. */
  while (lo > 0 && s[lo - 1] != '\n') lo--;
  cs_judge j = { .t = t, .cs = cs_tables(t), .locals = strtab_new() };
  /* A macro's level depends on which of its names are this function's
   * locals (`#define HAVE_ROOM (len < cap)`): judged again per function. */
  if (j.cs->memo.n) memset(j.cs->memo.v, 0, j.cs->memo.n);
  clang_visitChildren(fn, cs_local, &j);
  int level = cs_constructs(&j, file, s, size, lo, hi, skip, nskip);
  strtab_free(j.locals);
  vec_free(&j.counted);
  return level;
}

void fe_cfg_stub_free(fe_tu *t)
{
  struct fe_cfgstub *cs = t->cfgstub;
  if (!cs) return;
  strtab_free(cs->names);
  vec_free(&cs->kind);
  vec_free(&cs->head);
  vec_free(&cs->defs);
  vec_free(&cs->memo);
  free(cs);
  t->cfgstub = NULL;
}
