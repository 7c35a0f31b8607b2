/* rotable.c — read-only tables of pointers defined in another TU (issue
 * 30, item 6).
 *
 * `extern const struct ops *const all_ops[];` defined in ops.c as
 * `{ &a_ops, &b_ops }` with both objects defined const: what the table
 * points to is read-only data, so `all_ops[i]->width` reads nothing that
 * can change. In ops.c itself rodata.c sees the initializer and says so;
 * in another TU only the declaration is in sight. There, loading a pointer
 * from such a table records a read of what it points to (SE_READ_MEM with
 * SEF_RO_TABLE, named after the table) and gives the pointer read-only
 * provenance; the TU that defines the table, when its initializer points
 * to read-only data only, vouches for it with an empty slot function
 * "TABLE.*" (SFF_SLOT, as fnslot.c's slots). The link turns each such read
 * of a vouched table into a read of read-only data (link/rotable.c); a
 * table nobody analysed vouches for stays a read of memory, as before.
 * Writes through the loaded pointer are still writes (provenance
 * read-only counts as unknown for a write), and so are a callee's.
 *
 * A lookup function defined in another TU is the same fact for a call
 * (mesa's `util_format_description (fmt)`, `&descriptions[fmt]` in a
 * generated file, read by const predicates in another): a call to a
 * function this TU declares but does not define, returning a pointer to
 * const data (or defines further down), records a read of what it
 * returns (SEF_RO_TABLE, named after the function) and gives read-only provenance; the TU defining it
 * vouches with "FUNCTION.*" when every value its body returns is null or
 * read-only data (retro.c's fact, taken after the last walk). A caller
 * that passes the result on, or returns it, still joins the read: sound
 * whether or not the link confirms it. */
#include "frontend/walk.h"
#include <stdio.h>
#include <string.h>

/* Is decl an external read-only object this TU declares but does not
 * define (outside the system headers)? */
static bool rt_declared_elsewhere(CXCursor decl)
{
  if (clang_getCursorKind(decl) != CXCursor_VarDecl || clang_getCursorLinkage(decl) != CXLinkage_External ||
      !fe_type_readonly(clang_getCursorType(decl)))
    return false;
  if (clang_Location_isInSystemHeader(clang_getCursorLocation(decl))) return false;
  return clang_Cursor_isNull(clang_getCursorDefinition(decl));
}

uint64_t fw_rotable_load(fw *w, CXCursor at, CXCursor decl)
{
  uint64_t m = fe_static_prov(w->t, decl);
  if (!(m & PROV_UNKNOWN) || !rt_declared_elsewhere(decl)) return m;
  uint16_t flags0 = w->eff_flags;
  w->eff_flags |= SEF_RO_TABLE;
  fw_effect(w, at, SE_READ_MEM, 0, 0, fw_name(w, decl));
  w->eff_flags = flags0;
  return PROV_RODATA;
}

/* Push the empty slot function "NAME.*" that vouches for what decl
 * (a table or a lookup function named NAME) points to. */
static void rt_vouch(fe_tu *t, CXCursor decl)
{
  CXString vs = clang_getCursorSpelling(decl);
  char name[512];
  int len = snprintf(name, sizeof name, "%s.*", clang_getCString(vs));
  clang_disposeString(vs);
  if (len < 0 || (size_t)len >= sizeof name) return;
  sum_func f;
  memset(&f, 0, sizeof f);
  f.name = strtab_intern(t->sum->strs, name);
  f.loc = fe_cursor_loc(t, decl);
  f.linkage = SUM_EXTERNAL;
  f.flags = SFF_SLOT | SFF_SYSTEM | SFF_BODY;
  f.eff_off = (uint32_t)t->sum->effs.n;
  f.call_off = (uint32_t)t->sum->calls.n;
  f.fnarg_off = (uint32_t)t->sum->fnargs.n;
  f.pcall_off = (uint32_t)t->sum->pcalls.n;
  vec_push(&t->sum->funcs, f);
}

void fe_rotable_define(fe_tu *t, CXCursor var)
{
  if (!clang_isCursorDefinition(var) || clang_getCursorLinkage(var) != CXLinkage_External ||
      !fe_type_readonly(clang_getCursorType(var)) || clang_Location_isInSystemHeader(clang_getCursorLocation(var)))
    return;
  uint64_t m = fe_static_prov(t, var);
  if (!(m & PROV_RODATA) || (m & ~PROV_RODATA)) return;   /* no pointers, or some not read-only */
  rt_vouch(t, var);
}

/* Does fn (a declaration or definition) return a pointer to const data,
 * with external linkage, outside the system headers? */
static bool rt_lookup_shape(CXCursor fn)
{
  if (clang_getCursorKind(fn) != CXCursor_FunctionDecl || clang_getCursorLinkage(fn) != CXLinkage_External ||
      clang_Location_isInSystemHeader(clang_getCursorLocation(fn)))
    return false;
  CXType r = clang_getCanonicalType(clang_getResultType(clang_getCursorType(fn)));
  return r.kind == CXType_Pointer && fe_type_readonly(clang_getPointeeType(r));
}

uint64_t fw_rotable_call(fw *w, CXCursor at, CXCursor ref, uint32_t fi)
{
  /* Defined here and walked: retro.c has answered. Defined further down
   * (a header's inline helper above the lookup it calls, as mesa's
   * u_format.h is in u_format_table.c): this TU's own vouch decides. */
  bool walked = w->t->sum->funcs.v[fi].flags & SFF_BODY;
  if (!rt_lookup_shape(ref) || (walked && !clang_Cursor_isNull(clang_getCursorDefinition(ref)))) return PROV_UNKNOWN;
  /* `return f (x);` reads nothing here: the caller's read through the
   * value is its own (mesa's gl_shader_stage_name wrappers stay const). */
  if (clang_equalCursors(at, w->ret_top)) return PROV_UNKNOWN;
  uint16_t flags0 = w->eff_flags;
  w->eff_flags |= SEF_RO_TABLE;
  fw_effect(w, at, SE_READ_MEM, 0, 0, fw_name(w, ref));
  w->eff_flags = flags0;
  return PROV_RODATA;
}

void fe_rotable_lookups(fe_tu *t)
{
  for (size_t i = 0; i < t->defs.n; i++)
    if (rt_lookup_shape(t->defs.v[i]) && fe_retro_returns_rodata(t, t->def_funcs.v[i])) rt_vouch(t, t->defs.v[i]);
}
