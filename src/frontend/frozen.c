/* frozen.c — statics that no code writes are constants (issue 37, item 1).
 *
 * GCC's ipa-reference (-O1 and up) knows which statics of a TU no function
 * writes and whose address never escapes: they keep their initial value
 * for ever, so a function reading only such statics is const. For
 * `static int val;` read by `int f(int x) { return x + val; }` GCC 12's
 * early pass says pure and its IPA pass const; purist said pure.
 *
 * After every body of the TU is walked, this pass finds each file-scope
 * static and static local that nothing writes: no store (an asm output
 * included), no address taken in any function (SE_ADDR_GLOBAL: `&val`, an
 * array's decay, a pointer to one of its members), and no reference at
 * all in a file-scope initializer (whose only way to use a variable is
 * to take its address). Its reads become SE_READ_CONST with SEF_FROZEN,
 * for the reason text "reads static 'val', which no code writes".
 *
 * Left as they are, conservatively: thread-local statics (one copy per
 * thread; GCC too keeps them pure), atomic reads, objects declared in
 * system headers, and every object with external linkage (other TUs may
 * write those; the link decides for a whole program). A volatile static's
 * reads are SE_VOLATILE already. Not seen: an asm template that names the
 * static in its text, with no operand for it (GCC does not see that
 * either, and requires `used` to keep such a static). */
#include "frontend/fe_internal.h"
#include "util/ptrmap.h"

/* The key of a static as frozen.c sees it: static locals of different
 * functions are different objects, file statics are one per name (one TU
 * cannot define two at file scope). */
static uint64_t frozen_key(uint32_t fi, const sum_effect *e)
{
  uint64_t scope = e->obj == SO_STATIC_LOCAL ? (uint64_t)fi + 1 : 0;
  return (scope << 32 | e->name) + 1;
}

static bool frozen_kind(const sum_effect *e)
{
  return (e->obj == SO_FILE_STATIC || e->obj == SO_STATIC_LOCAL) && !(e->flags & (SEF_SYSTEM_OBJ | SEF_ATOMIC));
}

typedef struct { fe_tu *t; ptrmap *named; } frozen_scan;

/* Every static variable an initializer mentions: its address is stored. */
static enum CXChildVisitResult frozen_init_ref(CXCursor c, CXCursor parent, CXClientData d)
{
  (void)parent;
  frozen_scan *s = d;
  if (clang_getCursorKind(c) != CXCursor_DeclRefExpr) return CXChildVisit_Recurse;
  CXCursor ref = clang_getCursorReferenced(c);
  if (clang_getCursorKind(ref) == CXCursor_VarDecl && clang_Cursor_hasVarDeclGlobalStorage(ref)) {
    CXString n = clang_getCursorSpelling(ref);
    ptrmap_put(s->named, strtab_intern(s->t->sum->strs, clang_getCString(n)) + 1ull, 1);
    clang_disposeString(n);
  }
  return CXChildVisit_Continue;
}

void fe_frozen_note_init(fe_tu *t, CXCursor var)
{
  CXCursor init = clang_Cursor_getVarDeclInitializer(var);
  if (clang_Cursor_isNull(init)) return;
  frozen_scan s = { t, &t->init_refs };
  clang_visitChildren(init, frozen_init_ref, &s);
  frozen_init_ref(init, var, &s);
}

/* Keys of the statics some function writes or takes the address of. */
static void frozen_written(const sum_tu *s, ptrmap *out)
{
  for (uint32_t fi = 0; fi < s->funcs.n; fi++) {
    const sum_func *f = &s->funcs.v[fi];
    if (!(f->flags & SFF_BODY)) continue;
    for (uint32_t i = 0; i < f->neff; i++) {
      const sum_effect *e = &s->effs.v[f->eff_off + i];
      if (e->kind == SE_WRITE_GLOBAL || e->kind == SE_ADDR_GLOBAL) ptrmap_put(out, frozen_key(fi, e), 1);
    }
  }
}

void fe_frozen_finish(fe_tu *t)
{
  sum_tu *s = t->sum;
  ptrmap written = {0};
  frozen_written(s, &written);
  for (uint32_t fi = 0; fi < s->funcs.n; fi++) {
    const sum_func *f = &s->funcs.v[fi];
    if (!(f->flags & SFF_BODY)) continue;
    for (uint32_t i = 0; i < f->neff; i++) {
      sum_effect *e = &s->effs.v[f->eff_off + i];
      if (e->kind != SE_READ_GLOBAL || !frozen_kind(e) || ptrmap_get(&written, frozen_key(fi, e)) ||
          ptrmap_get(&t->init_refs, e->name + 1ull))
        continue;
      e->kind = SE_READ_CONST;
      e->flags |= SEF_FROZEN;
    }
  }
  ptrmap_free(&written);
}
