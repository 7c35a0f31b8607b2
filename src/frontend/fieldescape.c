/* fieldescape.c — a record holding a union of pointers, handed to code the
 * link cannot see (issue 30, item 5; libunistring's uc_general_category_t).
 *
 * A call through a member of such a union (frontend/fieldfn.c) reaches
 * what the program stores into any of its members. A function without a
 * body in the program (read, memcpy, a library's filler) may write the
 * union's bytes with anything, and a call through a pointer may reach such
 * a function: so each argument that points (casts aside) to a record
 * holding the union, and a call returning such a record by value, records
 * SFS_ESCAPE naming the callee — unknown at the link unless the callee has
 * a body there, whose own stores then count — or SFS_UNKNOWN for a call
 * through a pointer. A parameter that points to const (memcpy's source) is
 * only read. A cast to a pointer to such a record from a pointer to other
 * bytes is unknown too (fw_fnfield_cast). */
#include "frontend/walk.h"

typedef VEC(uint32_t) fx_keys;

static void fx_record_keys(fe_tu *t, CXType ty, fx_keys *keys, int depth);

typedef struct { fe_tu *t; fx_keys *keys; int depth; } fx_visit;

static enum CXVisitorResult fx_field(CXCursor c, CXClientData d)
{
  fx_visit *v = d;
  fx_record_keys(v->t, clang_getCursorType(c), v->keys, v->depth + 1);
  return CXVisit_Continue;
}

/* The keys of the unions of pointers inside type ty (itself one, a field,
 * an array element) into keys. */
static void fx_record_keys(fe_tu *t, CXType ty, fx_keys *keys, int depth)
{
  ty = clang_getCanonicalType(ty);
  while (ty.kind == CXType_ConstantArray || ty.kind == CXType_IncompleteArray)
    ty = clang_getCanonicalType(clang_getArrayElementType(ty));
  if (ty.kind != CXType_Record || depth > 8) return;
  CXCursor decl = clang_getTypeDeclaration(ty);
  if (clang_getCursorKind(decl) == CXCursor_UnionDecl) {
    uint32_t key = fe_fnfield_union_key(t, decl);
    if (key) vec_push(keys, key);
    return;   /* a union that is not one: none of its members is a key */
  }
  fx_visit v = { t, keys, depth };
  clang_Type_visitFields(ty, fx_field, &v);
}

/* Does callee type fn take a pointer to const as argument i? */
static bool fx_reads_only(CXType fn, int i)
{
  if (clang_getCanonicalType(fn).kind != CXType_FunctionProto || i >= clang_getNumArgTypes(fn)) return false;
  CXType p = clang_getCanonicalType(clang_getArgType(fn, (unsigned)i));
  return p.kind == CXType_Pointer && clang_isConstQualifiedType(clang_getPointeeType(p));
}

/* The unions of pointers in type ty, each recorded as handed to callee. */
static void fx_escape(fw *w, CXType ty, CXCursor callee, fx_keys *keys)
{
  fe_tu *t = w->t;
  bool direct = !clang_Cursor_isNull(callee);
  keys->n = 0;
  fx_record_keys(t, ty, keys, 0);
  for (size_t k = 0; k < keys->n; k++) {
    sum_fstore s = { keys->v[k], w->fi + 1, direct ? SFS_ESCAPE : SFS_UNKNOWN, direct ? fe_func_for(t, callee) : 0 };
    vec_push(&t->sum->fstores, s);
  }
}

void fw_fnfield_escape(fw *w, CXCursor call, CXCursor callee)
{
  fe_tu *t = w->t;
  int nargs = clang_Cursor_getNumArguments(call);
  bool direct = !clang_Cursor_isNull(callee);
  CXType fn = clang_getCursorType(callee);   /* direct calls only */
  fx_keys keys = {0};
  for (int i = 0; i < nargs; i++) {
    CXType at = clang_getCanonicalType(clang_getCursorType(fe_strip(t, clang_Cursor_getArgument(call, (unsigned)i))));
    if (at.kind == CXType_Pointer && !(direct && fx_reads_only(fn, i))) fx_escape(w, clang_getPointeeType(at), callee, &keys);
  }
  /* A record returned by value holds what the callee put there. */
  fx_escape(w, clang_getCursorType(call), callee, &keys);
  vec_free(&keys);
}

/* `(T *) p` where p points to another type, not void: the union in T may
 * be read from bytes (`*(T *) buf`, a record copied from a byte buffer).
 * A void pointer (malloc's block, a callback's context) keeps the model:
 * the object it points to was written as a T. */
void fw_fnfield_cast(fw *w, CXCursor cast, CXCursor operand)
{
  fe_tu *t = w->t;
  CXType to = clang_getCanonicalType(clang_getCursorType(cast));
  CXType from = clang_getCanonicalType(clang_getCursorType(fe_strip(t, operand)));
  if (to.kind != CXType_Pointer || from.kind != CXType_Pointer) return;
  CXType src = clang_getCanonicalType(clang_getPointeeType(from));
  CXType dst = clang_getCanonicalType(clang_getPointeeType(to));
  if (src.kind == CXType_Void) return;
  if (src.kind == CXType_Record && dst.kind == CXType_Record &&   /* qualifiers aside, the same record */
      clang_equalCursors(clang_getCanonicalCursor(clang_getTypeDeclaration(src)),
                         clang_getCanonicalCursor(clang_getTypeDeclaration(dst))))
    return;
  fx_keys keys = {0};
  fx_record_keys(t, dst, &keys, 0);
  for (size_t k = 0; k < keys.n; k++) {
    sum_fstore s = { keys.v[k], w->fi + 1, SFS_UNKNOWN, 0 };
    vec_push(&t->sum->fstores, s);
  }
  vec_free(&keys);
}
