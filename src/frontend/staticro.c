/* staticro.c — a static variable its TU never writes is read-only
 * (issue 29, item 2: expat's `static const char *text = "…";`).
 *
 * GCC sees every use of a variable with internal linkage (or a function's
 * static) and, when none writes it or takes its address, treats it as
 * read-only: its initializer's value is propagated into every load, and
 * `strlen (text)` is folded at compile time. purist takes the same fact for
 * the value such a variable holds (rodata.c): where its initializer points.
 * Reading the variable itself stays a read of global memory.
 *
 * The scan is conservative: every reference to such a variable in the main
 * file is looked at (function bodies and initializers alike), and any use
 * other than a plain load (an implicit lvalue-to-rvalue conversion, which
 * libclang shows as an unexposed parent) counts as written: an assignment,
 * ++/--, `&`, sizeof, an asm operand, a parenthesised lvalue. A variable
 * defined outside the main file is never taken (a header included later
 * could write it). Done once per TU, on the first question. */
#include "frontend/fe_internal.h"

/* A variable the scan looks at: static storage, not external, defined in
 * the main file, not volatile. */
static bool sro_candidate(CXCursor d)
{
  if (clang_getCursorKind(d) != CXCursor_VarDecl || !clang_Cursor_hasVarDeclGlobalStorage(d)) return false;
  enum CXLinkageKind l = clang_getCursorLinkage(d);
  if (l != CXLinkage_Internal && l != CXLinkage_NoLinkage) return false;
  if (clang_isVolatileQualifiedType(clang_getCanonicalType(clang_getCursorType(d)))) return false;
  return clang_Location_isFromMainFile(clang_getCursorLocation(d));
}

static enum CXChildVisitResult sro_visit(CXCursor c, CXCursor parent, CXClientData d)
{
  fe_tu *t = d;
  if (clang_getCursorKind(parent) == CXCursor_TranslationUnit &&
      !clang_Location_isFromMainFile(clang_getCursorLocation(c)))
    return CXChildVisit_Continue;                    /* a header's declarations */
  if (clang_getCursorKind(c) == CXCursor_DeclRefExpr && clang_getCursorKind(parent) != CXCursor_UnexposedExpr) {
    CXCursor v = clang_getCursorReferenced(c);
    if (sro_candidate(v)) ptrmap_put(&t->static_written, fe_decl_key(clang_getCanonicalCursor(v)), 1);
  }
  return CXChildVisit_Recurse;
}

bool fe_static_unwritten(fe_tu *t, CXCursor decl)
{
  if (!sro_candidate(decl)) return false;
  if (!t->static_scanned) {
    t->static_scanned = true;
    clang_visitChildren(clang_getTranslationUnitCursor(t->tu), sro_visit, t);
  }
  return !ptrmap_get(&t->static_written, fe_decl_key(clang_getCanonicalCursor(decl)));
}
