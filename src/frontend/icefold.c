/* icefold.c — conditions that are integer constant expressions (issue 30,
 * found on NetworkManager).
 *
 * NetworkManager's nm_assert is `if (NM_MORE_ASSERTS_EFFECTIVE == 0) { … }
 * else if (cond) { } else { <assertion failure> }`, the macro expanding to
 * `((1) ? 0 : 0) == 0` in a build without extra asserts: the failure
 * branch is on no path, and GCC deletes it at every level of optimisation,
 * as it does `if (0)`. A literal alone was folded (fw_int_literal_value);
 * here a condition made only of literals, enumerators, operators, `?:`,
 * casts and sizeof is evaluated. Nothing else: a call (`__builtin_constant_p`,
 * which GCC may answer differently after inlining than libclang does on
 * the function alone), a variable (even a const one), a statement
 * expression keeps the branch.
 *
 * `__builtin_types_compatible_p (typeof (*k), struct key)` is one too
 * (found on the Linux kernel: static_key_enabled's type check calls a
 * function no file defines in its dead branch). libclang shows it as an
 * UnexposedExpr whose children are the expressions inside its typeofs,
 * which are never evaluated: it is recognised by the keyword it is
 * spelled with, and its operands are not looked at. */
#include "frontend/walk.h"
#include <string.h>

typedef struct {
  fe_tu *t;
  int ok;
} ice_ctx;

/* Is c `__builtin_types_compatible_p (…)`, whose operands are types? */
static int ice_types_compatible(fe_tu *t, CXCursor c)
{
  char name[32];
  return fe_spelled_ident(t, clang_getCursorLocation(c), name, sizeof name) &&
         !strcmp(name, "__builtin_types_compatible_p");
}

/* Is node c (and everything under it) part of an integer constant
 * expression? ok drops to 0 at the first node that is not. */
static enum CXChildVisitResult ice_visit(CXCursor c, CXCursor parent, CXClientData d)
{
  (void)parent;
  ice_ctx *x = d;
  switch (clang_getCursorKind(c)) {
  case CXCursor_IntegerLiteral: case CXCursor_CharacterLiteral: case CXCursor_TypeRef:
    return CXChildVisit_Continue;
  case CXCursor_UnaryExpr:              /* sizeof, _Alignof: evaluation says if it is constant */
    return CXChildVisit_Continue;
  case CXCursor_UnexposedExpr:
    return ice_types_compatible(x->t, c) ? CXChildVisit_Continue : CXChildVisit_Recurse;
  case CXCursor_ParenExpr: case CXCursor_UnaryOperator: case CXCursor_BinaryOperator:
  case CXCursor_ConditionalOperator: case CXCursor_CStyleCastExpr:
    return CXChildVisit_Recurse;
  case CXCursor_DeclRefExpr:
    if (clang_getCursorKind(clang_getCursorReferenced(c)) == CXCursor_EnumConstantDecl)
      return CXChildVisit_Continue;
    break;
  default:
    break;
  }
  x->ok = 0;
  return CXChildVisit_Break;
}

int fw_ice_value(fe_tu *t, CXCursor cond, long long *v)
{
  ice_ctx x = { t, 1 };
  enum CXChildVisitResult top = ice_visit(cond, clang_getNullCursor(), &x);
  if (x.ok && top == CXChildVisit_Recurse) clang_visitChildren(cond, ice_visit, &x);
  if (!x.ok) return 0;
  CXEvalResult r = clang_Cursor_Evaluate(cond);
  if (!r) return 0;
  int ok = clang_EvalResult_getKind(r) == CXEval_Int;
  if (ok) *v = clang_EvalResult_getAsLongLong(r) != 0;
  clang_EvalResult_dispose(r);
  return ok;
}
