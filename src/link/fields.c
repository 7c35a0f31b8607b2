/* fields.c — calls through function-pointer fields, resolved over the whole
 * program (issue 30, item 5; frontend/fieldfn.c records the facts).
 *
 * A field holds what some code stored there. When the analysed code is the
 * whole program and every TU of it was read, the set of functions ever
 * stored into a field is known — unless one store is unknown (a loaded
 * pointer, the field's address taken), or a stored parameter comes from a
 * caller the link cannot see (the storing function's address is taken, so
 * anything may call it) or passes something else. Then each call through
 * the field becomes what a call through a read-only table is: one
 * SCF_TABLE call per possible function, with the call's arguments, joined
 * (the solve, the reasons and the C23 classes take them as any call), and
 * the SE_CALL_INDIRECT effect contributes nothing more (LINK_EF_RESOLVED).
 * Anything less than certain leaves the call unknown (normal), as before.
 *
 * A static variable of function-pointer type (SUM_STATIC_FNVAR) is stored
 * into by its own TU only, so its values are known whether or not the
 * program is whole: in a library too, when a TU failed, whatever other
 * fields hold. Only a parameter stored there needs every caller, so it
 * needs the whole program.
 *
 * A union whose members are all pointers (SUM_UNION_FNFIELD) is one field:
 * its members overlay, so a call through one reaches what any of them
 * holds; a data address stored there is nothing to call. Its address
 * handed to a function without a body here (SFS_ESCAPE), or an unknown data
 * pointer in an initializer's unsaid member (SUM_UNION_ANY), leaves it
 * unknown. */
#include "link/fields.h"
#include "link/solve_int.h"
#include <stdlib.h>
#include <string.h>

/* ---- merging the TUs' facts (link_add) ---- */

void link_fields_add(link_prog *p, const sum_tu *tu, const uint32_t *map)
{
  if (tu->flags & STF_PARSE_FAILED) p->fields_incomplete = true;   /* its bodies' stores are unknown */
  for (size_t i = 0; i < tu->fstores.n; i++) {
    sum_fstore s = tu->fstores.v[i];
    s.field = link_tu_str(p, tu, s.field);
    if (s.func) s.func = map[s.func - 1] + 1;
    if (sum_fstore_names_func(&s)) s.value = map[s.value];
    vec_push(&p->fstores, s);
  }
}

void link_fields_add_body(link_prog *p, const sum_tu *tu, uint32_t sfi, uint32_t gi, uint32_t eff_before)
{
  for (size_t i = 0; i < tu->fcalls.n; i++) {
    const sum_fcall *c = &tu->fcalls.v[i];
    if (c->func != sfi) continue;
    sum_fcall lc = { gi, c->eff + eff_before, link_tu_str(p, tu, c->field), (uint32_t)p->argmasks.n, c->nargs };
    for (uint32_t a = 0; a < c->nargs; a++) vec_push(&p->argmasks, tu->argmasks.v[c->arg_off + a]);
    vec_push(&p->fcalls, lc);
  }
}

/* ---- what each field may hold ---- */

typedef struct {
  bool unknown;
  bool is_static;                  /* a static variable (SUM_STATIC_FNVAR) */
  bool is_union;                   /* a union of pointers (SUM_UNION_FNFIELD) */
  VEC(uint32_t) fns;
} fld_set;

typedef struct {
  link_prog *p;
  ptrmap fields;                   /* field string id + 1 → 1 + index into sets */
  VEC(fld_set) sets;
  bool poisoned;                   /* some value went to a field no one can say */
  bool union_poisoned;             /* some data pointer went to a member no one can say */
  fld_set any;                     /* functions stored in some field (SFS_ANY) */
  unsigned char *addr;             /* per function: its address is taken */
  uint32_t *caller_start;          /* calls by callee: callers.v[caller_start[g] .. [g+1]) */
  VEC(uint32_t) callers;           /* call indices */
  uint32_t *owner;                 /* per call: the calling function */
  ptrmap visiting;                 /* (function, parameter) pairs being resolved */
  bool closed;                     /* the whole program, every TU read, no library API */
} fld_ctx;

static fld_set *fld_of(fld_ctx *x, uint32_t field)
{
  uint32_t *hit = ptrmap_get(&x->fields, (uint64_t)field + 1);
  if (hit) return &x->sets.v[*hit - 1];
  const char *key = strtab_get(x->p->strs, field);
  fld_set s = { false, !strncmp(key, SUM_STATIC_FNVAR, strlen(SUM_STATIC_FNVAR)),
                !strncmp(key, SUM_UNION_FNFIELD, strlen(SUM_UNION_FNFIELD)), { 0 } };
  vec_push(&x->sets, s);
  ptrmap_put(&x->fields, (uint64_t)field + 1, (uint32_t)x->sets.n);
  return &x->sets.v[x->sets.n - 1];
}

static void fld_add(fld_set *s, uint32_t fn)
{
  for (size_t i = 0; i < s->fns.n; i++) if (s->fns.v[i] == fn) return;
  vec_push(&s->fns, fn);
}

/* Calls indexed by callee, and each call's caller. */
static void fld_index_calls(fld_ctx *x)
{
  const link_prog *p = x->p;
  size_t n = p->funcs.n;
  x->caller_start = xcalloc(n + 1, sizeof *x->caller_start);
  x->owner = xmalloc((p->calls.n ? p->calls.n : 1) * sizeof *x->owner);
  for (uint32_t f = 0; f < n; f++)
    for (uint32_t i = 0; i < p->funcs.v[f].ncall; i++) {
      x->owner[p->funcs.v[f].call_off + i] = f;
      x->caller_start[p->calls.v[p->funcs.v[f].call_off + i].callee + 1]++;
    }
  for (size_t g = 0; g < n; g++) x->caller_start[g + 1] += x->caller_start[g];
  vec_reserve(&x->callers, x->caller_start[n]);
  x->callers.n = x->caller_start[n];
  uint32_t *fill = xmalloc((n ? n : 1) * sizeof *fill);
  memcpy(fill, x->caller_start, n * sizeof *fill);
  for (uint32_t f = 0; f < n; f++)
    for (uint32_t i = 0; i < p->funcs.v[f].ncall; i++) {
      uint32_t ci = p->funcs.v[f].call_off + i;
      x->callers.v[fill[p->calls.v[ci].callee]++] = ci;
    }
  free(fill);
}

typedef VEC(uint64_t) fld_work;

/* Queues (fn, param) unless it was queued before. */
static void fld_queue(fld_ctx *x, fld_work *work, uint32_t fn, uint32_t param)
{
  uint64_t key = ((uint64_t)fn << 8 | param) + 1;
  if (ptrmap_get(&x->visiting, key)) return;
  ptrmap_put(&x->visiting, key, 1);
  vec_push(work, key - 1);
}

/* What call ci passes as argument `arg` (a function pointer): the
 * functions added to `into`, parameters of the caller queued; false when
 * that is not known. */
static bool fld_passed(fld_ctx *x, fld_work *work, uint32_t ci, uint32_t arg, fld_set *into)
{
  const link_prog *p = x->p;
  uint32_t f = x->owner[ci];
  const link_func *caller = &p->funcs.v[f];
  uint32_t rel = ci - caller->call_off;
  bool found = false;
  /* Several facts about one argument (`c ? f : g`): it is any of them. */
  for (uint32_t i = 0; i < caller->nfnarg; i++) {
    const sum_fnarg *a = &p->fnargs.v[caller->fnarg_off + i];
    if (a->call != rel || a->arg != arg) continue;
    if (a->kind == SFA_FUNC) fld_add(into, a->value);
    else if (a->kind == SFA_PARAM) fld_queue(x, work, f, a->value);
    found = true;   /* SFA_NULL: nothing is called through it */
  }
  return found;   /* none: anything else passed, not known */
}

/* What parameter `param` of fn may hold, from every call of it and on up
 * through the callers' own parameters passed on (a worklist: no depth of
 * C recursion), into `into`; false when not known: a function whose
 * address is taken may be called from where the link cannot see. */
static bool fld_param(fld_ctx *x, uint32_t fn, uint32_t param, fld_set *into)
{
  fld_work work = {0};
  ptrmap_free(&x->visiting);
  memset(&x->visiting, 0, sizeof x->visiting);
  fld_queue(x, &work, fn, param);
  bool known = true;
  while (known && work.n) {
    uint64_t item = work.v[--work.n];
    uint32_t g = (uint32_t)(item >> 8), k = (uint32_t)(item & 0xff);
    if (x->addr[g] || k >= PROV_MAX_PARAMS) { known = false; break; }
    for (uint32_t c = x->caller_start[g]; known && c < x->caller_start[g + 1]; c++)
      known = fld_passed(x, &work, x->callers.v[c], k, into);
  }
  vec_free(&work);
  return known;
}

static void fld_collect(fld_ctx *x)
{
  link_prog *p = x->p;
  for (size_t i = 0; i < p->fstores.n; i++)
    if (p->fstores.v[i].kind == SFS_ADDR) x->addr[p->fstores.v[i].value] = 1;
  for (size_t i = 0; i < p->fstores.n; i++) {
    const sum_fstore *s = &p->fstores.v[i];
    if (s->kind == SFS_ADDR) continue;
    if (s->kind == SFS_ANY) { fld_add(&x->any, s->value); continue; }
    if (!s->field) { x->poisoned = true; continue; }
    fld_set *set = fld_of(x, s->field);
    if (set->unknown) continue;
    if (s->kind == SFA_FUNC) fld_add(set, s->value);
    else if (s->kind == SFS_ESCAPE) {   /* handed to code: known if the program has its body */
      const link_func *g = &p->funcs.v[s->value];
      if (!(g->flags & SFF_BODY) || (g->lflags & LF_KB_BODY)) set->unknown = true;
    } else if (s->kind == SFA_PARAM) {
      if (!x->closed || !fld_param(x, s->func - 1, s->value, set)) set->unknown = true;
    } else if (s->kind != SFA_NULL) set->unknown = true;
    if (set->unknown && !strcmp(strtab_get(p->strs, s->field), SUM_UNION_ANY)) x->union_poisoned = true;
  }
}

/* ---- turning calls through resolved fields into table calls ---- */

static int fld_by_func(const void *a, const void *b)
{
  const sum_fcall *x = a, *y = b;
  return x->func < y->func ? -1 : x->func > y->func;
}

/* Moves f's calls to the end of the calls, so that more can follow them. */
static void fld_calls_last(link_prog *p, link_func *f)
{
  if (f->ncall && f->call_off + f->ncall == p->calls.n) return;
  size_t off = p->calls.n;
  for (uint32_t i = 0; i < f->ncall; i++) vec_push(&p->calls, p->calls.v[f->call_off + i]);
  f->call_off = (uint32_t)off;
}

static void fld_rewrite(fld_ctx *x, const sum_fcall *c, const fld_set *set)
{
  link_prog *p = x->p;
  link_func *f = &p->funcs.v[c->func];
  sum_effect *e = &p->effs.v[f->eff_off + c->eff];
  if (e->kind != SE_CALL_INDIRECT) return;   /* not the effect recorded: leave it unknown */
  fld_calls_last(p, f);
  for (int part = 0; part < (set->is_static ? 1 : 2); part++) {   /* SFS_ANY: record fields only */
    const fld_set *s = part ? &x->any : set;
    for (size_t i = 0; i < s->fns.n; i++) {
      link_call lc;
      memset(&lc, 0, sizeof lc);
      lc.callee = s->fns.v[i];
      lc.flags = SCF_TABLE | LINK_CF_FIELD | (set->is_static ? LINK_CF_STATIC : 0) | ((e->flags & SEF_DOOMED) ? SCF_DOOMED : 0) | ((e->flags & SEF_LEAVES) ? SCF_LEAVES : 0);
      lc.arg_off = c->arg_off;
      lc.nargs = c->nargs;
      lc.guard = e->guard;
      lc.eff_pos = c->eff;
      lc.loc = e->loc;
      lc.macro = e->macro;
      vec_push(&p->calls, lc);
      f->ncall++;
    }
  }
  e->flags |= LINK_EF_RESOLVED;
}

/* Does the program hold a library's public API (--library, or a -fPIC
 * export)? Its users, which are not analysed, may store anything in the
 * fields of the structs it hands them. */
static bool fld_has_library(const link_prog *p)
{
  if (p->has_library) return true;
  for (size_t i = 0; i < p->funcs.n; i++)
    if ((p->funcs.v[i].flags & (SFF_EXPORTED | SFF_BODY)) == (SFF_EXPORTED | SFF_BODY)) return true;
  return false;
}

void link_fields_resolve(link_prog *p)
{
  if (!p->fcalls.n) return;
  fld_ctx x;
  memset(&x, 0, sizeof x);
  x.p = p;
  x.closed = !p->fields_incomplete && link_is_whole_program(p, p->whole_program) && !fld_has_library(p);
  x.addr = xcalloc(p->funcs.n ? p->funcs.n : 1, 1);
  fld_index_calls(&x);
  fld_collect(&x);
  qsort(p->fcalls.v, p->fcalls.n, sizeof *p->fcalls.v, fld_by_func);
  for (size_t i = 0; i < p->fcalls.n; i++) {
    const uint32_t *hit = ptrmap_get(&x.fields, (uint64_t)p->fcalls.v[i].field + 1);
    const fld_set *set = hit ? &x.sets.v[*hit - 1] : NULL;
    /* A record's field: only in a closed program where no value went to
     * a field no one can say. */
    if (set && !set->unknown && (set->is_static || (x.closed && !x.poisoned && !(set->is_union && x.union_poisoned))))
      fld_rewrite(&x, &p->fcalls.v[i], set);
  }
  for (size_t i = 0; i < x.sets.n; i++) vec_free(&x.sets.v[i].fns);
  vec_free(&x.sets);
  vec_free(&x.any.fns);
  vec_free(&x.callers);
  ptrmap_free(&x.fields);
  ptrmap_free(&x.visiting);
  free(x.addr);
  free(x.caller_start);
  free(x.owner);
}
