/* decl.c — the function table of a TU: each function with its declared
 * facts (attributes, linkage, noreturn). Files and locations are text.c's;
 * an attribute's words, attrtext.c's. */
#include "frontend/fe_internal.h"
#include <string.h>

typedef struct {
  fe_tu *t;
  uint8_t attrs;
  uint16_t flags;
  int own_only;            /* skip attributes inherited from other declarations */
  unsigned lo, hi;         /* the declaration's extent (file offsets), for own_only */
  CXFile file;
} attr_scan;

/* Is the attribute written within the declaration (not inherited)? */
static int fe_attr_is_own(const attr_scan *a, CXCursor attr)
{
  return fe_attr_in_decl(a->t, a->file, a->lo, a->hi, attr);   /* also a leading [[gnu::const]] */
}

static enum CXChildVisitResult fe_scan_attr(CXCursor c, CXCursor parent, CXClientData d)
{
  static const char *const noreturn_words[] = { "noreturn", "_Noreturn", "__noreturn__", NULL };
  static const char *const weak_words[] = { "weak", "__weak__", NULL };
  attr_scan *a = d;
  enum CXCursorKind k = clang_getCursorKind(c);
  if (k != CXCursor_PureAttr && k != CXCursor_ConstAttr && k != CXCursor_UnexposedAttr)
    return CXChildVisit_Continue;
  if (a->own_only && !fe_attr_is_own(a, c)) return CXChildVisit_Continue;
  /* Builtin-implied attributes have no source text. */
  int implicit = clang_Range_isNull(clang_getCursorExtent(c));
  if (k == CXCursor_PureAttr) {
    if (implicit) a->flags |= SFF_BUILTIN_PURE; else a->attrs |= SUM_DECL_PURE;
  } else if (k == CXCursor_ConstAttr) {
    if (implicit) a->flags |= SFF_BUILTIN_CONST; else a->attrs |= SUM_DECL_CONST;
  } else if (!implicit) {
    if (fe_attr_has_word(a->t, c, noreturn_words)) a->flags |= SFF_NORETURN;
    else if (fe_attr_has_word(a->t, c, weak_words)) a->flags |= SFF_WEAK;
  }
  return CXChildVisit_Continue;
}

static attr_scan fe_scan_attrs(fe_tu *t, CXCursor fn)
{
  attr_scan a = { .t = t };
  clang_visitChildren(fn, fe_scan_attr, &a);
  return a;
}

/* Attributes written on this declaration itself: libclang also shows the
 * ones a redeclaration inherits, with their original source extent. */
uint8_t fe_decl_attrs(fe_tu *t, CXCursor fn)
{
  attr_scan a = { .t = t, .own_only = 1 };
  CXSourceRange r = clang_getCursorExtent(fn);
  clang_getExpansionLocation(clang_getRangeStart(r), &a.file, NULL, NULL, &a.lo);
  clang_getExpansionLocation(clang_getRangeEnd(r), NULL, NULL, NULL, &a.hi);
  clang_visitChildren(fn, fe_scan_attr, &a);
  return a.attrs;
}

/* Facts of the function type: void result, variadic, noreturn (GNU
 * __attribute__((noreturn)) lives in the type, not in an attribute cursor). */
static uint16_t fe_type_flags(CXCursor fn)
{
  uint16_t flags = 0;
  CXType ty = clang_getCursorType(fn);
  enum CXTypeKind rk = clang_getCanonicalType(clang_getResultType(ty)).kind;
  if (rk == CXType_Void) flags |= SFF_VOID;
  if (rk == CXType_Record) flags |= SFF_AGGREGATE;
  if (clang_isFunctionTypeVariadic(ty)) flags |= SFF_VARIADIC;
  CXString s = clang_getTypeSpelling(ty);
  if (strstr(clang_getCString(s), "noreturn")) flags |= SFF_NORETURN;
  clang_disposeString(s);
  return flags;
}

/* Gathers attributes from the declarations at hand: the first one, the one
 * being used (which inherits from earlier ones; the first may be a builtin's
 * implicit declaration) and the definition (attributes written only there
 * are not visible on the earlier prototype). */
static attr_scan fe_scan_all_decls(fe_tu *t, CXCursor canon, CXCursor use, CXCursor def)
{
  attr_scan all = fe_scan_attrs(t, canon);
  CXCursor more[2] = { use, def };
  for (int i = 0; i < 2; i++) {
    if (clang_Cursor_isNull(more[i]) || clang_equalCursors(more[i], canon)) continue;
    attr_scan d = fe_scan_attrs(t, more[i]);
    all.attrs |= d.attrs;
    all.flags |= d.flags;
  }
  return all;
}

static uint32_t fe_add_func(fe_tu *t, CXCursor canon, CXCursor use)
{
  CXCursor def = clang_getCursorDefinition(canon);
  CXCursor where = clang_Cursor_isNull(def) ? canon : def;
  sum_func f;
  memset(&f, 0, sizeof f);
  CXString name = clang_getCursorSpelling(canon);
  f.name = strtab_intern(t->sum->strs, clang_getCString(name));
  clang_disposeString(name);
  f.loc = fe_cursor_loc(t, where);
  enum CXLinkageKind lk = clang_getCursorLinkage(canon);
  f.linkage = (lk == CXLinkage_Internal || lk == CXLinkage_UniqueExternal) ? SUM_INTERNAL : SUM_EXTERNAL;
  f.keyfile = f.linkage == SUM_INTERNAL ? f.loc.file : 0;
  attr_scan a = fe_scan_all_decls(t, canon, use, def);
  f.declared = a.attrs;
  f.flags = a.flags | fe_type_flags(canon);
  if (clang_Location_isInSystemHeader(clang_getCursorLocation(canon))) f.flags |= SFF_SYSTEM;
  if (t->weak && strtab_find(t->weak, strtab_get(t->sum->strs, f.name)) != UINT32_MAX) f.flags |= SFF_WEAK;
  if (!clang_Cursor_isNull(def) && clang_Cursor_isFunctionInlined(def)) f.flags |= SFF_INLINE;
  /* libclang's visibility already applies -fvisibility=hidden and the
   * visibility attributes and pragmas. */
  if (t->pic && !clang_Cursor_isNull(def) && f.linkage == SUM_EXTERNAL && !(f.flags & SFF_INLINE) &&
      clang_getCursorVisibility(def) == CXVisibility_Default)
    f.flags |= t->interpose ? SFF_EXPORTED | SFF_INTERPOSABLE : SFF_EXPORTED;
  if (fe_gnu_body_hidden(t, canon, use, def)) f.flags |= SFF_NOIPA;
  if (f.name == strtab_intern(t->sum->strs, "__builtin_unreachable")) f.flags |= SFF_UNREACHABLE;   /* a reserved name */
  int np = clang_Cursor_getNumArguments(canon);
  f.nparams = (uint16_t)(np > 0 ? np : 0);
  vec_push(&t->sum->funcs, f);
  return (uint32_t)t->sum->funcs.n - 1;
}

uint32_t fe_func_for(fe_tu *t, CXCursor fn)
{
  CXCursor canon = clang_getCanonicalCursor(fn);
  uint64_t key = fe_decl_key(canon);
  uint32_t *hit = ptrmap_get(&t->funcs, key);
  if (hit) return *hit;
  uint32_t fi = fe_add_func(t, canon, fn);
  ptrmap_put(&t->funcs, key, fi);
  return fi;
}

int fe_func_noreturn(fe_tu *t, uint32_t fi)
{
  const sum_func *f = &t->sum->funcs.v[fi];
  if (f->flags & SFF_NORETURN) return 1;
  /* The knowledge base speaks for library functions only: declared in a
   * system header, or builtins (which have no location). */
  if (f->linkage != SUM_EXTERNAL || !((f->flags & SFF_SYSTEM) || f->loc.file == 0)) return 0;
  const kb_entry *e = kb_lookup(t->kb, strtab_get(t->sum->strs, f->name));
  return e && e->noreturn;
}
