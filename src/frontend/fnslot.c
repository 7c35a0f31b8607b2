/* fnslot.c — calls through read-only objects defined in another TU (issue
 * 13, item 5).
 *
 * systemd's `const UnitVTable * const unit_vtable[] = { &service_vtable,
 * … }` (unit.c) points at `const UnitVTable service_vtable = { .can_reload
 * = service_can_reload, … }`, defined in service.c. The TU of the call
 * cannot see that initializer, so a call `unit_vtable[t]->can_reload(u)`
 * goes to a *slot*, a function named "service_vtable.can_reload" with no
 * body there (SFF_SLOT). The TU defining the object gives the slot a body:
 * one SCF_TABLE call of each function stored in that member, passing the
 * slot's parameters on. The link joins the two by name, as any external
 * function, so the call's class is the join of the stored functions with
 * the per-parameter effects mapped through the call's arguments (a member
 * the initializer leaves null calls nothing). When no
 * analysed TU defines the object, the slot stays an unknown external
 * function: normal, as before.
 *
 * Only objects that cannot change are slots: external linkage, a const
 * record type (not volatile), a member of pointer-to-function type. */
#include "frontend/walk.h"
#include <stdio.h>
#include <string.h>

typedef struct { const char *want; CXType type; int found; } slot_field;

static enum CXVisitorResult slot_field_visit(CXCursor c, CXClientData d)
{
  slot_field *f = d;
  CXString s = clang_getCursorSpelling(c);
  int hit = strcmp(clang_getCString(s), f->want) == 0;
  clang_disposeString(s);
  if (hit) { f->found = 1; f->type = clang_getCursorType(c); return CXVisit_Break; }
  return CXVisit_Continue;
}

/* The number of parameters of member `member` of record type rec when it
 * is a pointer to a function; -1 otherwise. */
static int slot_member_params(CXType rec, const char *member)
{
  slot_field f = { member, { CXType_Invalid, { 0, 0 } }, 0 };
  clang_Type_visitFields(rec, slot_field_visit, &f);
  if (!f.found) return -1;
  CXType t = clang_getCanonicalType(f.type);
  if (t.kind != CXType_Pointer) return -1;
  CXType fn = clang_getCanonicalType(clang_getPointeeType(t));
  if (fn.kind == CXType_FunctionNoProto) return 0;
  if (fn.kind != CXType_FunctionProto) return -1;
  int n = clang_getNumArgTypes(fn);
  return n > 0 ? n : 0;
}

/* The record type of `var` when it can be a slot's object, else an
 * invalid type. */
static CXType slot_record(CXCursor var)
{
  CXType none = { CXType_Invalid, { 0, 0 } };
  if (clang_getCursorKind(var) != CXCursor_VarDecl || clang_getCursorLinkage(var) != CXLinkage_External ||
      !clang_Cursor_hasVarDeclGlobalStorage(var))
    return none;
  CXType t = clang_getCanonicalType(clang_getCursorType(var));
  if (t.kind != CXType_Record || !clang_isConstQualifiedType(t) || clang_isVolatileQualifiedType(t)) return none;
  return t;
}

/* The slot function "var.member" of this TU, added on first use. */
static uint32_t slot_func(fe_tu *t, CXCursor var, const char *member, int nparams)
{
  CXString vs = clang_getCursorSpelling(var);
  char name[512];
  int len = snprintf(name, sizeof name, "%s.%s", clang_getCString(vs), member);
  clang_disposeString(vs);
  if (len < 0 || (size_t)len >= sizeof name) return UINT32_MAX;
  uint32_t id = strtab_intern(t->sum->strs, name);
  for (size_t i = 0; i < t->sum->funcs.n; i++)
    if ((t->sum->funcs.v[i].flags & SFF_SLOT) && t->sum->funcs.v[i].name == id) return (uint32_t)i;
  sum_func f;
  memset(&f, 0, sizeof f);
  f.name = id;
  f.loc = fe_cursor_loc(t, var);
  f.linkage = SUM_EXTERNAL;
  f.flags = SFF_SLOT | SFF_SYSTEM;
  f.nparams = (uint16_t)nparams;
  f.eff_off = (uint32_t)t->sum->effs.n;
  f.call_off = (uint32_t)t->sum->calls.n;
  f.fnarg_off = (uint32_t)t->sum->fnargs.n;
  f.pcall_off = (uint32_t)t->sum->pcalls.n;
  vec_push(&t->sum->funcs, f);
  return (uint32_t)t->sum->funcs.n - 1;
}

uint32_t fw_slot_target(fw *w, CXCursor var, const char *member)
{
  CXType rec = slot_record(var);
  int np = rec.kind == CXType_Invalid ? -1 : slot_member_params(rec, member);
  return np < 0 ? UINT32_MAX : slot_func(w->t, var, member, np);
}

/* Gives slot "var.member" its body: a call of each target with the slot's
 * parameters, in order. No target: the member is null, and a call
 * through it never happens in a defined program (nothing is called). */
static void slot_body(fe_tu *t, uint32_t si, const fw_u32vec *targets, sum_loc at)
{
  sum_tu *s = t->sum;
  sum_func *f = &s->funcs.v[si];
  if (f->flags & SFF_BODY) return;
  f->flags |= SFF_BODY;
  f->eff_off = (uint32_t)s->effs.n;
  f->neff = 0;
  f->call_off = (uint32_t)s->calls.n;
  f->ncall = (uint32_t)targets->n;
  f->fnarg_off = (uint32_t)s->fnargs.n;
  f->nfnarg = 0;
  f->pcall_off = (uint32_t)s->pcalls.n;
  f->npcall = 0;
  uint32_t np = f->nparams;
  for (size_t i = 0; i < targets->n; i++) {
    sum_call c;
    memset(&c, 0, sizeof c);
    c.callee = targets->v[i];
    c.flags = SCF_TABLE;
    c.arg_off = (uint32_t)s->argmasks.n;
    c.nargs = np;
    c.loc = at;
    for (uint32_t a = 0; a < np; a++) vec_push(&s->argmasks, prov_param(a));
    vec_push(&s->calls, c);
  }
}

typedef struct { fe_tu *t; fw *w; CXCursor var, init; } slot_def;

static enum CXVisitorResult slot_def_field(CXCursor c, CXClientData d)
{
  slot_def *sd = d;
  CXString s = clang_getCursorSpelling(c);
  char member[256];
  snprintf(member, sizeof member, "%s", clang_getCString(s));
  clang_disposeString(s);
  CXType rec = slot_record(sd->var);
  int np = slot_member_params(rec, member);
  if (np < 0 || !member[0]) return CXVisit_Continue;
  fw_u32vec targets = {0};
  if (fw_fntable_member_targets(sd->w, sd->init, member, &targets)) {
    uint32_t si = slot_func(sd->t, sd->var, member, np);
    if (si != UINT32_MAX) slot_body(sd->t, si, &targets, fe_cursor_loc(sd->t, sd->var));
  }
  vec_free(&targets);
  return CXVisit_Continue;
}

void fe_slot_define(fe_tu *t, CXCursor var)
{
  if (!clang_isCursorDefinition(var) || clang_Location_isInSystemHeader(clang_getCursorLocation(var))) return;
  CXType rec = slot_record(var);
  CXCursor init = clang_Cursor_getVarDeclInitializer(var);
  if (rec.kind == CXType_Invalid || clang_Cursor_isNull(init)) return;
  fw w;
  memset(&w, 0, sizeof w);
  w.t = t;
  slot_def sd = { t, &w, var, init };
  clang_Type_visitFields(rec, slot_def_field, &sd);
  vec_free(&w.ks);
}
