/* callsite.c — judging one call site with the callee's class known
 * (see checks.h). The walk recorded the structure (frontend/callsite.c);
 * here the things in between are weighed: for a pure callee any store or
 * impure call between two calls, or in the loop, blocks the merge or the
 * hoist; for a const callee only a change of its arguments does (arguments
 * that read memory change with any store). */
#include "checks/checks.h"
#include "link/c23.h"
#include "report/reason.h"
#include <string.h>

purity checks_known_class(const link_prog *p, const link_func *g)
{
  if (g->declared & SUM_DECL_CONST) return PURITY_CONST;
  if (g->declared & SUM_DECL_PURE) return PURITY_PURE;
  if (g->flags & SFF_BUILTIN_CONST) return PURITY_CONST;
  if (g->flags & SFF_BUILTIN_PURE) return PURITY_PURE;
  const kb_entry *e = link_kb_entry(p, g);
  if (e) return kb_entry_class(e, true);
  return PURITY_NORMAL;
}

purity checks_callee_class(const link_prog *p, const link_func *g)
{
  purity known = checks_known_class(p, g);
  if (known != PURITY_NORMAL || !link_has_body(g)) return known;
  return (purity)g->cls;
}

static bool effect_writes(const sum_effect *e)
{
  switch ((sum_effect_kind)e->kind) {
  case SE_WRITE_GLOBAL: case SE_WRITE_MEM: case SE_WRITE_PARAM: case SE_VOLATILE:
  case SE_ATOMIC: case SE_ASM: case SE_CALL_INDIRECT:
    return true;
  default:
    return false;
  }
}

bool checks_effect_skipped(const sum_effect *e, uint16_t skip)
{
  if (e->kind == SE_CALL_INDIRECT) skip &= (uint16_t)~SEF_SCRATCH;   /* whatever block it hands out */
  return (e->flags & skip) != 0;
}

/* The first store in f's effects [lo, hi) (relative) that has none of the
 * flags `skip` and is not in arm's then-branch (if arm), or -1. */
static int first_store(const link_prog *p, const link_func *f, uint32_t lo, uint32_t hi, uint16_t skip,
                       const link_call *arm)
{
  for (uint32_t i = lo; i < hi && i < f->neff; i++) {
    if (arm && i >= arm->arm_eff_lo && i < arm->arm_eff_hi) continue;
    const sum_effect *e = &p->effs.v[f->eff_off + i];
    if (effect_writes(e) && !checks_effect_skipped(e, skip)) return (int)(f->eff_off + i);
  }
  return -1;
}

/* Does call c only compute an overflow check into the caller's own local
 * (`__builtin_mul_overflow (a, b, &r)`, Emacs's INT_MULTIPLY_WRAPV)? GCC
 * lowers these builtins to an operation whose result lives in registers,
 * so r is no memory and the call no store: GCC 12 -O2 merges a pure call
 * across it. A memcpy into a local array is a store (GCC keeps both
 * calls), and a result stored through a parameter may be what the callee
 * reads. */
static bool callsite_overflow_into_local(const link_prog *p, const link_call *c)
{
  const char *name = strtab_get(p->strs, p->funcs.v[c->callee].name);
  size_t n = strlen(name);
  if (n < 19 || strncmp(name, "__builtin_", 10) || strcmp(name + n - 9, "_overflow")) return false;
  return c->nargs == 3 && p->argmasks.v[c->arg_off + 2] == PROV_LOCAL;
}

/* The first call in f's calls [lo, hi) (relative) that may write memory,
 * not in arm's then-branch (if arm). */
static int first_impure_call(const link_prog *p, const link_func *f, uint32_t lo, uint32_t hi, uint32_t skip,
                             uint16_t skip_flags, const link_call *arm)
{
  for (uint32_t i = lo; i < hi && i < f->ncall; i++) {
    if (i == skip || (arm && i >= arm->arm_call_lo && i < arm->arm_call_hi)) continue;
    const link_call *c = &p->calls.v[f->call_off + i];
    if (c->flags & (SCF_NORETURN | skip_flags)) continue;   /* as for stores */
    if (callsite_overflow_into_local(p, c)) continue;
    if (checks_callee_class(p, &p->funcs.v[c->callee]) == PURITY_NORMAL) return (int)(f->call_off + i);
  }
  return -1;
}

/* callsite_fresh_apart (below) when a block f allocates leaves f: true
 * for strlen alone, given pointers of no unknown provenance (parameters,
 * read-only data). GCC 12's strlen pass keeps the heap object apart from
 * what a parameter points to even after the block escapes; no other call
 * merges there (strnlen, strchr, strcmp, memcmp, a project's pure
 * function: both calls stay in GCC's -O2 assembly), since the escaped
 * block may be what they read. */
static bool callsite_strlen_apart(const link_prog *p, const link_call *c)
{
  const char *name = strtab_get(p->strs, p->funcs.v[c->callee].name);
  if (strcmp(name, "strlen") && strcmp(name, "__builtin_strlen")) return false;
  for (uint32_t k = 0; k < c->nargs; k++)
    if (p->argmasks.v[c->arg_off + k] & (PROV_UNKNOWN | PROV_FRESH | PROV_LOCAL)) return false;
  return true;
}

/* Can no store into a block f allocates (SEF_SCRATCH) change what call c
 * reads? So when no such block leaves f (escaped, returned: GCC's
 * points-to then keeps the heap object apart from everything a callee can
 * reach) and c's arguments neither read memory nor point at fresh or local
 * storage. GCC 12 -O2 merges width(fmt) across `t[0] = '_'` for a block
 * t of a malloc-attributed allocator. When a block leaves f, only strlen
 * merges (findutils' print.c: strlen(fmt) across a store into a block,
 * while another block is kept in a static buffer). */
static bool callsite_fresh_apart(const link_prog *p, const link_func *f, const link_call *c, bool args_mem)
{
  if (args_mem) return false;
  if (f->sflags & (SSF_FRESH_ESCAPES | SSF_FRESH_RETURNED)) return callsite_strlen_apart(p, c);
  for (uint32_t k = 0; k < c->nargs; k++)
    if (p->argmasks.v[c->arg_off + k] & (PROV_FRESH | PROV_LOCAL)) return false;
  return true;
}

/* Sets the blocker fields for the stretch of effects [elo, ehi) and calls
 * [clo, chi) of f (relative), for a callee of class cls whose arguments
 * read memory or not. `leaving`: the stretch runs from one call to a later
 * one that is not itself on a returning branch, so what lies on a branch
 * every path of which returns is on no path between them (GCC merges
 * `if (get(p) == 0) { act(p); return 0; } return get(p);`). `doomed`: the
 * later call (or the loop's iteration) is not on a path that ends in a
 * noreturn call, so what is on such a path (an error report before exit)
 * is never followed by it: the compiler sees that, and it blocks nothing.
 * A call on a doomed path itself is weighed against everything before it,
 * the doomed stores too (they may lie on its own path). `arm`: the later
 * call, whose then-branch (sum_call.arm_*) is on no path between them,
 * or NULL. */
static void cs_blockers(const link_prog *p, const link_func *f, uint32_t elo, uint32_t ehi,
                        uint32_t clo, uint32_t chi, uint32_t self, purity cls, bool args_mem,
                        bool leaving, bool doomed, const link_call *arm, cs_fact *out)
{
  const link_call *c = &p->calls.v[f->call_off + self];
  out->fresh_apart = callsite_fresh_apart(p, f, c, args_mem);
  uint16_t skip = (uint16_t)((leaving ? SEF_LEAVES : 0) | (doomed ? 0 : SEF_DOOMED) |
                             (out->fresh_apart ? SEF_SCRATCH : 0));
  /* Every store between the two calls goes to other fields of the object
   * the arguments read (SCF_FIELDS_APART, frontend/fieldapart.c): a const
   * callee's arguments keep their value; a pure callee may read those
   * fields. Only a repeat's stretch carries the flag's meaning. */
  bool fields_apart = cls == PURITY_CONST && (c->flags & SCF_FIELDS_APART) && c->same_as &&
                      elo == p->calls.v[f->call_off + c->same_as - 1].eff_pos && ehi == c->eff_pos;
  int store = fields_apart ? -1 : first_store(p, f, elo, ehi, skip, arm);
  int call = first_impure_call(p, f, clo, chi, self,
                               (uint16_t)((leaving ? SCF_LEAVES : 0) | (doomed ? 0 : SCF_DOOMED)), arm);
  bool any = store >= 0 || call >= 0;
  out->blocker_eff = store;
  out->blocker_call = call;
  out->blocked = any && (cls == PURITY_PURE || args_mem);
  out->blocked_for_pure = any && cls == PURITY_PURE && !args_mem;
}

/* Builtins that are hints to the compiler, not calls: nothing runs that
 * could be deleted, merged or hoisted (__builtin_expect(x, 0) is x). */
static bool callsite_is_hint(const char *name)
{
  static const char *const hints[] = { "__builtin_expect", "__builtin_expect_with_probability",
                                       "__builtin_constant_p", "__builtin_assume_aligned",
                                       "__builtin_object_size", "__builtin_dynamic_object_size" };
  for (size_t i = 0; i < sizeof hints / sizeof *hints; i++)
    if (!strcmp(name, hints[i])) return true;
  return false;
}

/* errno is (*__errno_location ()) in glibc (h_errno likewise): the
 * program reads a variable, the call only finds its per-thread address,
 * and every compiler merges it. "The compiler merges the two calls" said
 * of two errno reads reads as if the value were reused, which it is not
 * (170 of 200 explain findings on systemd's src/basic), so the accessor
 * has no call-site facts. The <ctype.h> table accessors keep theirs: the
 * table lookup hoisted out of a loop is what happens to toupper. */
static bool callsite_is_errno(const link_prog *p, const link_func *g)
{
  if (link_has_body(g)) return false;
  const char *name = strtab_get(p->strs, g->name);
  return !strcmp(name, "__errno_location") || !strcmp(name, "__h_errno_location");
}

/* A library call whose every argument points to read-only data
 * (strlen("PNGDATA")): GCC computes it while compiling, so there is no
 * call left to delete, merge or hoist. */
static bool callsite_folded(const link_prog *p, const link_func *g, const link_call *c)
{
  if (link_has_body(g) || !link_kb_entry(p, g) || c->nargs == 0) return false;
  for (uint32_t i = 0; i < c->nargs; i++)
    if (p->argmasks.v[c->arg_off + i] != PROV_RODATA) return false;
  return true;
}

/* Does the compiler see a call earlier in the loop's iteration (in the
 * walk's order, on any path) that may write memory, not return, or loop
 * forever: of a function neither declared, known nor a visible static
 * body that is pure or const, a call through a pointer, or a looping one?
 * GCC's loop-invariant motion stops at the first such call: what follows
 * it is not sure to run in every iteration, so it is never hoisted (a
 * check that dies on bad input guards what comes after it). */
static bool callsite_after_opaque_call(const link_prog *p, const link_func *f, const link_call *c, uint32_t rel)
{
  for (uint32_t i = c->loop_call_lo; i < rel && i < f->ncall; i++) {
    const link_call *b = &p->calls.v[f->call_off + i];
    const link_func *h = &p->funcs.v[b->callee];
    if (callsite_is_hint(strtab_get(p->strs, h->name)) || callsite_overflow_into_local(p, b)) continue;
    if (b->flags & (SCF_TABLE | SCF_NORETURN)) return true;
    purity k = checks_known_class(p, h);
    bool visible = link_has_body(h) && h->linkage == SUM_INTERNAL;
    if (k == PURITY_NORMAL && visible) k = (purity)h->cls;
    if (k == PURITY_NORMAL || (link_has_body(h) && h->st.mnr)) return true;
  }
  for (uint32_t i = c->loop_eff_lo; i < c->eff_pos && i < f->neff; i++)
    if (p->effs.v[f->eff_off + i].kind == SE_CALL_INDIRECT) return true;
  return false;
}

/* Is g's body compiled into every TU that calls it: a static function or
 * an inline one? */
static bool callsite_body_everywhere(const link_func *g)
{
  return g->linkage == SUM_INTERNAL || (g->flags & SFF_INLINE);
}

/* Does the TU of f compile g's body? An external function that is not
 * inline has one definition in the program, compiled by one TU (link's
 * `tu`): its body, even one a header holds (a macro expanded in a header
 * that one .c includes), is that TU's; the other files see a prototype.
 * Without TU facts (a function joined from several definitions), the
 * files decide: the same file, or a body in a header. */
bool checks_body_seen(const link_prog *p, const link_func *f, const link_func *g)
{
  if (!link_has_body(g) || (g->flags & (SFF_INTERPOSABLE | SFF_NOIPA))) return false;
  if (callsite_body_everywhere(g)) return true;
  if (f->tu && g->tu) return f->tu == g->tu;
  const char *path = strtab_get(p->strs, g->loc.file);
  size_t n = strlen(path);
  return f->loc.file == g->loc.file || n < 2 || strcmp(path + n - 2, ".c");
}

/* Is the then-branch recorded on call c (sum_call.arm_*) between the
 * earlier call `first` (relative) and c, and so on no path between them?
 * Only when the earlier call comes before that if. */
bool checks_arm_skips(const link_call *c, uint32_t first)
{
  return (c->arm_eff_hi || c->arm_call_hi) && first < c->arm_call_lo;
}

/* Does nothing on f's way of effects [elo, ehi) and calls [clo, chi)
 * (relative) to the call `to` stop GCC's code hoisting of a call of
 * function g: no call that may write memory or not return (one of g
 * itself aside: its class is the one assumed), no indirect call, asm,
 * volatile or atomic access, and where stores_block (a pure g, or
 * arguments that read memory) no store? GCC 12 hoists no call past any of
 * these. */
static bool callsite_way_clean(const link_prog *p, const link_func *f, uint32_t elo, uint32_t ehi,
                               uint32_t clo, uint32_t chi, uint32_t g, bool stores_block, const link_call *to)
{
  if (ehi > f->neff || chi > f->ncall) return false;
  for (uint32_t i = clo; i < chi; i++) {
    if (i >= to->late_lo && i < to->late_hi) continue;   /* GCC runs it after `to` */
    const link_call *b = &p->calls.v[f->call_off + i];
    if (b->flags & (SCF_NORETURN | SCF_TABLE)) return false;
    if (b->callee == g) continue;
    const link_func *h = &p->funcs.v[b->callee];
    if (callsite_is_hint(strtab_get(p->strs, h->name))) continue;
    if (checks_callee_class(p, h) == PURITY_NORMAL || (link_has_body(h) && h->st.mnr)) return false;
  }
  for (uint32_t i = elo; i < ehi; i++) {
    const sum_effect *e = &p->effs.v[f->eff_off + i];
    switch ((sum_effect_kind)e->kind) {
    case SE_CALL_INDIRECT: case SE_ASM: case SE_VOLATILE: case SE_ATOMIC: case SE_GOTO_BACK:
      return false;
    case SE_WRITE_GLOBAL: case SE_WRITE_MEM: case SE_WRITE_PARAM:
      if (stores_block) return false;
      break;
    default:
      break;
    }
  }
  return true;
}

/* Is call rel of f (relative), marked hoisted with an earlier call on the
 * other branch of an if (sum_call.hoist_*), computed once before the
 * branch: both ways clean, and the hoistings it rests on happen too? */
static bool callsite_hoisted(const link_prog *p, const link_func *f, uint32_t rel, purity cls, int depth)
{
  const link_call *c = &p->calls.v[f->call_off + rel];
  uint32_t t = c->hoist_same - 1;
  if (!c->hoist_same || t >= rel || depth > 32 || cls != PURITY_CONST) return false;
  const link_call *tc = &p->calls.v[f->call_off + t];
  if (tc->callee != c->callee || c->hoist_t_call > t || c->hoist_e_call > rel) return false;
  bool stores_block = cls == PURITY_PURE || (c->flags & SCF_ARGS_READ_MEM) || c->hoist_mem;
  if (!callsite_way_clean(p, f, c->hoist_t_eff, tc->eff_pos, c->hoist_t_call, t, c->callee, stores_block, tc) ||
      !callsite_way_clean(p, f, c->hoist_e_eff, c->eff_pos, c->hoist_e_call, rel, c->callee, stores_block, c))
    return false;
  uint32_t deps[2] = { c->hoist_dep_t, c->hoist_dep_e };
  for (int i = 0; i < 2; i++)
    if (deps[i] && (deps[i] - 1 >= f->ncall || !callsite_hoisted(p, f, deps[i] - 1, cls, depth + 1))) return false;
  return true;
}

void checks_callsite(const link_prog *p, const link_func *f, uint32_t ci, purity cls, cs_fact *out)
{
  memset(out, 0, sizeof *out);
  out->blocker_eff = out->blocker_call = -1;
  const link_call *c = &p->calls.v[ci];
  const link_func *g = &p->funcs.v[c->callee];
  /* A call through a read-only table (SCF_TABLE) is indirect to the compiler: no facts.
   * A call on a path that ends in a noreturn call is compiled like any
   * other: GCC merges and deletes it (`if (kind(v) == 3) fail(…);
   * fail("kind", kind(v));` keeps one call of kind); it is never hoisted,
   * since it does not run in every iteration. */
  if (cls == PURITY_NORMAL || (g->flags & SFF_VOID) || (c->flags & (SCF_NORETURN | SCF_TABLE))) return;
  bool doomed = c->flags & SCF_DOOMED;
  if (callsite_is_hint(strtab_get(p->strs, g->name)) || callsite_folded(p, g, c) || callsite_is_errno(p, g))
    return;
  bool mnr = link_has_body(g) ? g->st.mnr : false;
  uint32_t rel = ci - f->call_off;
  bool args_mem = c->flags & SCF_ARGS_READ_MEM;
  /* GCC keeps every call whose result is a struct or union, however small
   * (measured with GCC 12 -O2: two calls of a const function returning a
   * 16-byte or a 4-byte struct stay two, in a loop the call stays in);
   * it deletes a dead one. Clang merges them; the claim follows GCC. */
  bool aggregate = g->flags & SFF_AGGREGATE;
  if (c->use != SCU_USED && !mnr) {
    out->kind = CS_DEAD;
  } else if (aggregate) {
    return;
  } else if (c->same_as && !(c->flags & SCF_TAIL_SHARED)) {
    const link_call *a = &p->calls.v[f->call_off + c->same_as - 1];
    out->kind = CS_REDUNDANT;
    out->first_call = f->call_off + c->same_as - 1;
    cs_blockers(p, f, a->eff_pos, c->eff_pos, c->same_as, rel, rel, cls, args_mem, !(c->flags & SCF_LEAVES),
                doomed, checks_arm_skips(c, c->same_as - 1) ? c : NULL, out);
  } else if (c->hoist_same && !mnr && callsite_hoisted(p, f, rel, cls, 0)) {
    out->kind = CS_REDUNDANT;
    out->hoisted = true;
    out->first_call = f->call_off + c->hoist_same - 1;
  } else if ((c->flags & SCF_IN_LOOP) && (c->flags & SCF_INVARIANT_ARGS) && !mnr && !doomed) {
    out->kind = CS_HOIST;
    cs_blockers(p, f, c->loop_eff_lo, c->loop_eff_hi, c->loop_call_lo, c->loop_call_hi, rel, cls,
                args_mem, false, false, NULL, out);
    out->after_opaque = callsite_after_opaque_call(p, f, c, rel);
    if (out->after_opaque && !out->blocked) out->kind = CS_NONE;   /* not hoisted, and nothing in the way */
  }
}

bool checks_inlined_merge(const link_prog *p, const link_func *f, uint32_t ci, purity cls)
{
  const link_call *c = &p->calls.v[ci];
  if (!c->inl_callee || cls != PURITY_CONST || (c->flags & (SCF_NORETURN | SCF_TABLE))) return false;
  const link_func *g = &p->funcs.v[c->inl_callee - 1], *h = &p->funcs.v[c->callee];
  if (g->flags & (SFF_AGGREGATE | SFF_VOID)) return false;
  if (callsite_is_hint(strtab_get(p->strs, g->name)) || callsite_is_errno(p, g)) return false;
  /* The inlined function must be the body this TU compiles. */
  if (!checks_body_seen(p, f, h) || (h->lflags & LF_JOIN)) return false;
  if (!(c->flags & SCF_INL_HOISTED)) return true;
  /* Code hoisting of the copies that begin both ways out of an if: the
   * two ways clean (the copies' arguments are values: stores do not
   * matter), the other way's call the same inlined function. */
  uint32_t rel = ci - f->call_off, t = c->inl_same - 1;
  if (!c->inl_same || t >= rel || c->hoist_t_call > t || c->hoist_e_call > rel) return false;
  const link_call *tc = &p->calls.v[f->call_off + t];
  if (tc->callee != c->callee) return false;
  return callsite_way_clean(p, f, c->hoist_t_eff, tc->eff_pos, c->hoist_t_call, t, c->inl_callee - 1, false, tc) &&
         callsite_way_clean(p, f, c->hoist_e_eff, c->eff_pos, c->hoist_e_call, rel, c->inl_callee - 1, false, c);
}
