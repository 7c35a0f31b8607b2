/* reason.c — turns link_why records into sentences (see reason.h). */
#include "report/reason.h"
#include <string.h>

static const char *S(const link_prog *p, uint32_t id) { return strtab_get(p->strs, id); }

void reason_path(strbuf *b, const link_prog *p, uint32_t file, const char *root)
{
  const char *path = S(p, file);
  size_t rl = root ? strlen(root) : 0;
  if (rl > 1 && strncmp(path, root, rl) == 0 && path[rl] == '/') path += rl + 1;
  sb_puts(b, *path ? path : "<unknown>");
}

static void reason_loc(strbuf *b, const link_prog *p, sum_loc l, const char *root)
{
  reason_path(b, p, l.file, root);
  sb_printf(b, ":%u:%u", l.line, l.col);
}

bool reason_is_assert_fail(const char *name)
{
  static const char *const names[] = { "__assert_fail", "__assert_perror_fail", "__assert_rtn",
                                       "__assert", "__assert2", "_assert", "_wassert" };
  for (size_t i = 0; i < sizeof names / sizeof *names; i++)
    if (!strcmp(name, names[i])) return true;
  return false;
}

bool reason_is_internal(const char *name)
{
  return name[0] == '_' && (name[1] == '_' || (name[1] >= 'A' && name[1] <= 'Z'));
}

/* The accessors errno expands to (as frontend/walk_expr.c knows them). */
static bool reason_is_errno_accessor(const char *name)
{
  static const char *const names[] = { "__errno_location", "__error", "__errno", "___errno", "_errno" };
  for (size_t i = 0; i < sizeof names / sizeof *names; i++)
    if (!strcmp(name, names[i])) return true;
  return false;
}

void reason_callee(strbuf *b, const link_prog *p, const link_call *c, bool quote)
{
  const char *name = S(p, p->funcs.v[c->callee].name), *q = quote ? "'" : "";
  if (reason_is_internal(name) && c->macro)
    sb_printf(b, "%s%s%s (its expansion calls %s)", q, S(p, c->macro), q, name);
  else if (reason_is_errno_accessor(name))
    sb_printf(b, "%serrno%s (read through %s)", q, q, name);
  else
    sb_printf(b, "%s%s%s", q, name, q);
}

void reason_macro(strbuf *b, const link_prog *p, uint32_t macro)
{
  if (macro) sb_printf(b, ", in expansion of macro '%s'", S(p, macro));
}

/* The noreturn call that ends the path of f's effect (eff_rel: index among
 * f's effects) or call (call_rel, eff_rel < 0): the first one recorded
 * after it. NULL if none is found. */
static const link_call *reason_doom_end(const link_prog *p, const link_func *f, long eff_rel, uint32_t call_rel)
{
  for (uint32_t i = eff_rel >= 0 ? 0 : call_rel; i < f->ncall; i++) {
    const link_call *c = &p->calls.v[f->call_off + i];
    if (!(c->flags & SCF_NORETURN)) continue;
    if (eff_rel >= 0 && c->eff_pos <= (uint32_t)eff_rel) continue;
    return c;
  }
  return NULL;
}

/* The loop no path leaves (SEF_ENDLESS) recorded at or after f's effect
 * index `from`, or NULL. */
static const sum_effect *reason_doom_loop(const link_prog *p, const link_func *f, uint32_t from)
{
  for (uint32_t i = from; i < f->neff; i++) {
    const sum_effect *e = &p->effs.v[f->eff_off + i];
    if (e->kind == SE_LOOP && (e->flags & SEF_ENDLESS)) return e;
  }
  return NULL;
}

/* " on a path that ends in a failed assertion (x.c:3:5)", "… in a call
 * to 'die' (…)" or "… in a loop no path leaves (…)": what a doomed cause
 * is part of (issue 14, item 6). */
static void reason_doom_words(strbuf *b, const link_prog *p, const link_func *f, long eff_rel, uint32_t call_rel,
                              const char *root)
{
  const link_call *end = f ? reason_doom_end(p, f, eff_rel, call_rel) : NULL;
  uint32_t from = eff_rel >= 0 ? (uint32_t)eff_rel + 1 : call_rel < (f ? f->ncall : 0) ? p->calls.v[f->call_off + call_rel].eff_pos : 0;
  const sum_effect *loop = f ? reason_doom_loop(p, f, from) : NULL;
  if (loop && (!end || end->eff_pos > (uint32_t)(loop - &p->effs.v[f->eff_off]))) {
    sb_puts(b, " on a path that ends in a loop no path leaves (");
    reason_path(b, p, loop->loc.file, root);
    sb_printf(b, ":%u:%u)", loop->loc.line, loop->loc.col);
    return;
  }
  if (!end) { sb_puts(b, " on a path that ends in a noreturn call"); return; }
  const char *g = S(p, p->funcs.v[end->callee].name);
  if (reason_is_assert_fail(g)) sb_puts(b, " on a failed-assertion path (");
  else sb_printf(b, " on a path that ends in a call to '%s' (", g);
  reason_path(b, p, end->loc.file, root);
  sb_printf(b, ":%u:%u)", end->loc.line, end->loc.col);
}

static const char *obj_word(uint8_t obj)
{
  switch (obj) {
  case SO_FILE_STATIC: case SO_STATIC_LOCAL: return "static";
  case SO_THREAD_LOCAL: return "thread-local";
  default: return "global";
  }
}

/* Is name a function's (a lookup's read, frontend/rotable.c), not a
 * table's? Tables are objects: no function of the program bears their name. */
static bool reason_names_function(const link_prog *p, uint32_t name)
{
  for (size_t i = 0; i < p->funcs.n; i++)
    if (p->funcs.v[i].name == name) return true;
  return false;
}

static void reason_effect(strbuf *b, const link_prog *p, const sum_effect *e)
{
  const char *name = S(p, e->name);
  if (e->flags & SEF_ATOMIC) sb_puts(b, "atomically ");
  switch ((sum_effect_kind)e->kind) {
  case SE_READ_GLOBAL: sb_printf(b, "reads %s '%s'", obj_word(e->obj), name); break;
  case SE_WRITE_GLOBAL: sb_printf(b, "writes %s '%s'", obj_word(e->obj), name); break;
  case SE_READ_MEM:
  case SE_WRITE_MEM:
    /* `*__errno_location ()`, named so by the front end (fw_ptr_name). */
    if (!strcmp(name, "errno")) {
      sb_puts(b, e->kind == SE_READ_MEM ? "reads errno" : "writes errno");
      break;
    }
    if ((e->flags & SEF_RO_TABLE) && reason_names_function(p, e->name)) {
      sb_printf(b, "reads what '%s' returns (its body is not seen to return only read-only data)", name);
      break;
    }
    if (e->flags & SEF_RO_TABLE) {
      sb_printf(b, "reads what '%s' points to (a read-only table defined in another file, not seen to point "
                   "to read-only data only)", name);
      break;
    }
    sb_puts(b, e->kind == SE_READ_MEM ? "reads memory through " : "writes memory through ");
    if (*name) sb_printf(b, "'%s'", name); else sb_puts(b, "a pointer");
    break;
  case SE_READ_PARAM: case SE_WRITE_PARAM:
    /* `buf = *inbuf; *buf = 0`: what the pointer the parameter points to
     * points to (frontend/slot.c), named "*inbuf"; through a pointer
     * member of the struct a parameter points to, named as the pointer
     * (`s->buf`, frontend/ptrblock.c). */
    if ((e->flags & SEF_PTE) && *name != '*') {
      sb_puts(b, e->kind == SE_READ_PARAM ? "reads memory through " : "writes memory through ");
      if (*name) sb_printf(b, "'%s'", name); else sb_puts(b, "a pointer");
    } else if (e->flags & SEF_PTE)
      sb_printf(b, "%s memory through '%s' (the pointer parameter '%s' points to)",
                e->kind == SE_READ_PARAM ? "reads" : "writes", name, name + (*name == '*'));
    else
      sb_printf(b, "%s through parameter '%s'", e->kind == SE_READ_PARAM ? "reads" : "writes", name);
    break;
  case SE_VOLATILE: sb_puts(b, "accesses volatile memory"); break;
  case SE_ATOMIC: sb_puts(b, "performs an atomic operation"); break;
  case SE_ASM:
    if (e->param == SA_ASM_VOLATILE) sb_puts(b, "contains volatile inline assembly (it may read a clock or do I/O)");
    else if (e->param == SA_ASM_MEMORY) sb_puts(b, "contains inline assembly that clobbers memory");
    else if (e->param == SA_ASM_UNREAD) sb_puts(b, "contains inline assembly purist cannot read (assumed to do anything)");
    else if (e->param == SA_ASM_MOVE)
      sb_puts(b, "contains volatile inline assembly (only a move between its operands, which the compiler keeps "
                 "as a side effect)");
    else if (e->param == SA_ASM_BARRIER)
      sb_puts(b, "contains a compiler barrier (inline assembly with no instruction, volatile or clobbering memory: "
                 "it orders the memory accesses around it)");
    else sb_puts(b, "contains inline assembly");
    break;
  case SE_CALL_INDIRECT:
    if (!strcmp(name, "cleanup")) sb_puts(b, "runs a handler of the 'cleanup' attribute");
    else if (*name) sb_printf(b, "calls through function pointer '%s'", name);
    else sb_puts(b, "calls through a function pointer");
    break;
  case SE_LOOP: sb_printf(b, "%s loop not provably finite", name); break;
  case SE_GOTO_BACK: sb_puts(b, "jumps backward with goto"); break;
  case SE_READ_CONST:
    if (e->flags & SEF_FROZEN) sb_printf(b, "reads %s '%s', which no code writes", obj_word(e->obj), name);
    else sb_printf(b, "reads only read-only data such as '%s'", name);
    break;
  case SE_ADDR_GLOBAL: sb_printf(b, "takes the address of %s '%s'", obj_word(e->obj), name); break;
  case SE_KIND_COUNT: break;
  }
  if (e->flags & SEF_ASM) sb_puts(b, " as an operand of inline assembly");
}

static int reason_str_cmp(const void *a, const void *b)
{
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* "defined in N files (a.c, b.c): the join of them", its files sorted so
 * that the text does not depend on the order of the inputs. */
static void reason_join(strbuf *b, const link_prog *p, const link_func *g, const char *root)
{
  uint32_t *defs, n = link_dup_defs(p, (uint32_t)(g - p->funcs.v), &defs);
  char **paths = xmalloc((n ? n : 1) * sizeof *paths);
  for (uint32_t k = 0; k < n; k++) {
    strbuf t = {0};
    reason_path(&t, p, p->funcs.v[defs[k]].loc.file, root);
    paths[k] = xstrdup(sb_str(&t));
    sb_free(&t);
  }
  qsort(paths, n, sizeof *paths, reason_str_cmp);
  sb_printf(b, "defined in %u files (", n);
  for (uint32_t k = 0; k < n; k++) {
    sb_printf(b, "%s%s", k ? ", " : "", paths[k]);
    free(paths[k]);
  }
  sb_puts(b, "): the join of them");
  free(paths);
  free(defs);
}

/* A knowledge-base entry's reason; with state_given, for an entry whose
 * class depends on a null pointer (`nullN`), without its clause after the
 * first "; " (libc.kb: that clause says what the null pointer does), since
 * the call's pointer there is known not to be null. */
static void reason_kb(strbuf *b, const kb_entry *e, bool state_given)
{
  const char *cut = state_given && e->null_hidden ? strstr(e->reason, "; ") : NULL;
  if (cut) sb_printf(b, "%.*s", (int)(cut - e->reason), e->reason);
  else sb_puts(b, e->reason);
}

/* What is known of a function without a usable body. */
static void reason_external(strbuf *b, const link_prog *p, const link_func *g, const char *root)
{
  const kb_entry *e = link_kb_entry(p, g);
  if (e) { reason_kb(b, e, false); return; }
  switch (g->why.kind) {
  case WHY_WEAK: sb_puts(b, "weak definition: may be replaced at link time"); return;
  case WHY_CONFLICT:
    if (g->lflags & LF_JOIN) { reason_join(b, p, g, root); return; }
    sb_puts(b, "defined more than once (");
    reason_path(b, p, g->loc.file, root);
    sb_puts(b, " and ");
    reason_path(b, p, g->def_file2, root);
    sb_puts(b, ")");
    return;
  default: break;
  }
  if ((g->declared & SUM_DECL_CONST) || (g->flags & SFF_BUILTIN_CONST)) sb_puts(b, "declared const");
  else if ((g->declared & SUM_DECL_PURE) || (g->flags & SFF_BUILTIN_PURE)) sb_puts(b, "declared pure");
  else sb_puts(b, "not defined in the analysed code");
}

static void reason_call_head(strbuf *b, const link_prog *p, const link_call *c, const char *root)
{
  const link_func *g = &p->funcs.v[c->callee];
  sb_printf(b, "%s ", (c->flags & LINK_CF_STATIC) ? "may call, through a static function pointer,"
                     : (c->flags & LINK_CF_FIELD) ? "may call, through a function-pointer field,"
                     : (c->flags & SCF_TABLE) ? "may call, through a read-only table," : "calls");
  reason_callee(b, p, c, false);
  if (!link_has_body(g)) {
    sb_puts(b, ", ");
    reason_external(b, p, g, root);
  }
}

void reason_effect_text(strbuf *b, const link_prog *p, const sum_effect *e)
{
  reason_effect(b, p, e);
}

void reason_call_text(strbuf *b, const link_prog *p, const link_call *c, const char *root)
{
  reason_call_head(b, p, c, root);
}

void reason_call_state_given(strbuf *b, const link_prog *p, const link_call *c)
{
  const link_func *g = &p->funcs.v[c->callee];
  const kb_entry *e = link_kb_entry(p, g);
  sb_puts(b, "calls ");
  reason_callee(b, p, c, false);
  sb_puts(b, ", ");
  reason_kb(b, e, true);
}

static bool has_calls(const link_prog *p, const link_func *f)
{
  for (uint32_t i = 0; i < f->ncall; i++)
    if (!(p->calls.v[f->call_off + i].flags & (SCF_NORETURN | SCF_DOOMED))) return true;
  return false;
}

static void reason_clean(strbuf *b, const link_prog *p, const link_func *f)
{
  if (f->cls == PURITY_CONST)
    sb_puts(b, has_calls(p, f) ? "uses only its arguments, locals and const functions"
                               : "uses only its arguments and locals");
  else
    sb_puts(b, "reads memory only");
}

/* Is f's effect at index (its why) on a path into a noreturn call and, said
 * alone, of a kind f's class forbids (a store or a volatile access for
 * pure, any memory access for const)? A read a pure function may do needs
 * no path named. */
static bool reason_doomed_against(const link_prog *p, const link_func *f, uint32_t index)
{
  if (p->strict || index < f->eff_off || index >= f->eff_off + f->neff) return false;
  const sum_effect *e = &p->effs.v[index];
  if (!(e->flags & SEF_DOOMED) || e->kind == SE_READ_CONST) return false;
  bool read = e->kind == SE_READ_GLOBAL || e->kind == SE_READ_MEM || e->kind == SE_READ_PARAM;
  return f->cls == PURITY_CONST || !read;
}

void reason_head(strbuf *b, const link_prog *p, const link_func *f, const char *root)
{
  reason_head_why(b, p, f, f->why, root);
}

void reason_head_why(strbuf *b, const link_prog *p, const link_func *f, link_why why, const char *root)
{
  /* An alias's body is the front end's one call of its target (SFF_ALIAS):
   * the target's reason is the alias's. */
  if ((f->flags & (SFF_ALIAS | SFF_WEAK)) == SFF_ALIAS && f->ncall == 1) {
    const link_func *g = &p->funcs.v[p->calls.v[f->call_off].callee];
    sb_printf(b, "aliases '%s'", S(p, g->name));
    if (g == f || (g->flags & SFF_ALIAS)) return;
    if (link_has_body(g)) {
      sb_puts(b, ", which ");
      reason_head(b, p, g, root);
    } else {
      sb_puts(b, " (");
      reason_external(b, p, g, root);
      sb_puts(b, ")");
    }
    return;
  }
  switch (why.kind) {
  case WHY_EFFECT:
    reason_effect(b, p, &p->effs.v[why.index]);
    /* Said alone, a doomed volatile access or store reads as the very
     * thing that forbids the class (dpkg's must_alloc: "can be declared
     * pure: it accesses volatile memory"): name the path it lies on. */
    if (reason_doomed_against(p, f, why.index)) reason_doom_words(b, p, f, (long)(why.index - f->eff_off), 0, root);
    break;
  case WHY_CALL: reason_call_head(b, p, &p->calls.v[why.index], root); break;
  case WHY_NONE: reason_clean(b, p, f); break;
  default: reason_external(b, p, f, root); break;
  }
}

/* Notes that effects were set aside because they end in noreturn calls. */
static void reason_doomed_note(strbuf *b, const link_prog *p, const link_func *f)
{
  if (p->strict || f->cls == PURITY_NORMAL) return;
  for (uint32_t i = 0; i < f->neff; i++) {
    const sum_effect *e = &p->effs.v[f->eff_off + i];
    if ((e->flags & SEF_DOOMED) && e->kind != SE_READ_CONST && e->kind != SE_LOOP) {
      sb_puts(b, "; effects on paths that end in a noreturn call count only as reads");
      return;
    }
  }
  for (uint32_t i = 0; i < f->ncall; i++)
    if ((p->calls.v[f->call_off + i].flags & (SCF_DOOMED | SCF_NORETURN)) == SCF_DOOMED) {
      sb_puts(b, "; effects on paths that end in a noreturn call count only as reads");
      return;
    }
}

/* The functions call c of f passes to parameters its callee calls through
 * (link/indirect.c resolves those calls to them): " with 'twice'". */
static bool reason_passed(strbuf *b, const link_prog *p, const link_func *f, const link_call *c)
{
  const link_func *g = &p->funcs.v[c->callee];
  uint64_t through = link_calls_through(p, g);
  uint32_t rel = (uint32_t)(c - p->calls.v) - f->call_off;
  int n = 0;
  for (uint32_t i = 0; i < f->nfnarg; i++) {
    const sum_fnarg *a = &p->fnargs.v[f->fnarg_off + i];
    if (a->call != rel || a->kind != SFA_FUNC || a->arg >= 64 || !(through >> a->arg & 1)) continue;
    sb_printf(b, "%s'%s'", n++ ? ", " : " with ", S(p, p->funcs.v[a->value].name));
  }
  return n > 0;
}

/* Does e read or write through a parameter of its function that call c
 * points only to its caller's locals? */
static bool reason_local_param(const link_prog *p, const link_call *c, const sum_effect *e)
{
  if ((e->kind != SE_WRITE_PARAM && e->kind != SE_READ_PARAM) || e->param >= c->nargs) return false;
  return p->argmasks.v[c->arg_off + e->param] == PROV_LOCAL;
}

/* g's cause as call c sees it. When g's own reason is an access through
 * a parameter that here points to the caller's locals, that access is not
 * what makes the call as impure as it is (xz's lz_encoder_prepare writing
 * the caller's local `mf`, whose lzma_free is the cause): the first of g's
 * other causes of its class, in source order — an effect not through a
 * parameter, or a call that is so without its parameters; none on a path
 * that ends in a noreturn call (they count as reads). */
static link_why reason_why_at(const link_prog *p, const link_call *c, const link_func *g, purity cls)
{
  if (g->why.kind != WHY_EFFECT || !reason_local_param(p, c, &p->effs.v[g->why.index])) return g->why;
  link_why best = g->why;
  sum_loc at = { 0, UINT32_MAX, UINT32_MAX };
  for (uint32_t i = 0; i < g->neff; i++) {
    const sum_effect *e = &p->effs.v[g->eff_off + i];
    if (e->kind == SE_WRITE_PARAM || e->kind == SE_READ_PARAM || (e->flags & SEF_DOOMED) ||
        link_effect_contrib(p, e) != cls)
      continue;
    if (sum_loc_before(e->loc, at)) {
      best = (link_why){ WHY_EFFECT, g->eff_off + i };
      at = e->loc;
    }
  }
  for (uint32_t i = 0; i < g->ncall; i++) {
    const link_call *gc = &p->calls.v[g->call_off + i];
    if (gc->callee == c->callee || (gc->flags & (SCF_DOOMED | SCF_NORETURN)) || link_call_own(p, g, gc) != cls)
      continue;
    if (sum_loc_before(gc->loc, at)) {
      best = (link_why){ WHY_CALL, g->call_off + i };
      at = gc->loc;
    }
  }
  return best;
}

/* Does g call through a member of what one of its function-pointer
 * parameters returns (link/fnret.c)? */
static bool reason_member_calls(const link_prog *p, const link_func *g)
{
  for (uint32_t i = 0; i < g->npcall; i++)
    if (p->pcalls.v[g->pcall_off + i].moff) return true;
  return false;
}

/* The call that makes f what it is, and what that callee contributes. */
static void reason_call(strbuf *b, const link_prog *p, const link_func *f, const link_call *c, const char *root)
{
  const link_func *g = &p->funcs.v[c->callee];
  purity here = p->call_cls ? (purity)p->call_cls[f->why.index] : (purity)g->cls;
  strbuf with = {0};
  if (reason_passed(&with, p, f, c)) {
    /* A call through a function pointer the call site fixes: what the
     * callee does with the functions passed here. */
    bool plural = strchr(sb_str(&with), ',') != NULL;
    sb_printf(b, "calls %s%s (%s at this call: its calls through function pointers go to the "
                 "function%s passed here%s)", S(p, g->name), sb_str(&with), purity_name(here), plural ? "s" : "",
              reason_member_calls(p, g) ? (plural ? " and to the tables they return" : " and to the table it returns")
                                        : "");
    sb_free(&with);
    return;
  }
  sb_free(&with);
  if (c->flags & SCF_NORETURN && !p->strict && reason_is_assert_fail(S(p, g->name))) {
    sb_printf(b, "has a failed-assertion path: calls %s, which does not return and may read memory on its "
                 "way out (", S(p, g->name));
  } else if (c->flags & SCF_NORETURN && !p->strict) {
    sb_puts(b, "calls ");
    reason_callee(b, p, c, false);
    sb_puts(b, ", which does not return and may read memory on its way out (");
  } else if (c->flags & SCF_DOOMED && !p->strict) {
    sb_puts(b, "calls ");
    reason_callee(b, p, c, false);
    reason_doom_words(b, p, f, -1, (uint32_t)(c - p->calls.v) - f->call_off, root);
    sb_printf(b, ", which counts as a read (%s: ", purity_name((purity)g->cls));
  } else if (here < g->cls) {
    /* Worse on its own than at this call: its writes go through pointers
     * that here point to the caller's locals. */
    sb_printf(b, "calls %s (%s at this call: its writes through pointer arguments land in "
                 "this function's locals)", S(p, g->name), purity_name(here));
    return;
  } else if (c->flags & LINK_CF_FIELD) {
    const sum_effect *e = c->eff_pos < f->neff ? &p->effs.v[f->eff_off + c->eff_pos] : NULL;
    sb_printf(b, "may call %s through function pointer '%s', %s (%s: ", S(p, g->name), e ? S(p, e->name) : "?",
              (c->flags & LINK_CF_STATIC) ? "a static variable its file stores only known functions in"
                                          : "a field the program stores only known functions in",
              purity_name((purity)g->cls));
  } else if (c->flags & SCF_TABLE) {
    sb_printf(b, "may call %s through a read-only table of function pointers (%s: ", S(p, g->name),
              purity_name((purity)g->cls));
  } else {
    sb_puts(b, "calls ");
    reason_callee(b, p, c, false);
    sb_printf(b, " (%s: ", purity_name((purity)g->cls));
  }
  if (link_has_body(g)) reason_head_why(b, p, g, reason_why_at(p, c, g, (purity)g->cls), root);
  else reason_external(b, p, g, root);
  sb_puts(b, ")");
}

void reason_class(strbuf *b, const link_prog *p, const link_func *f, const char *root)
{
  if ((f->flags & (SFF_ALIAS | SFF_WEAK)) == SFF_ALIAS) {   /* the target's reason (reason_head_why) */
    reason_head(b, p, f, root);
    return;
  }
  if (f->why.kind == WHY_EFFECT) {
    const sum_effect *e = &p->effs.v[f->why.index];
    reason_effect(b, p, e);
    if ((e->flags & SEF_DOOMED) && !p->strict) {
      reason_doom_words(b, p, f, (long)(f->why.index - f->eff_off), 0, root);
      sb_puts(b, ", which counts as a read");
    }
    if (e->kind != SE_READ_CONST) {
      sb_puts(b, " (");
      reason_loc(b, p, e->loc, root);
      reason_macro(b, p, e->macro);
      sb_puts(b, ")");
    }
  } else if (f->why.kind == WHY_CALL) {
    reason_call(b, p, f, &p->calls.v[f->why.index], root);
  } else {
    reason_head(b, p, f, root);
  }
  bool said = (f->why.kind == WHY_EFFECT && (p->effs.v[f->why.index].flags & SEF_DOOMED)) ||
              (f->why.kind == WHY_CALL && (p->calls.v[f->why.index].flags & (SCF_DOOMED | SCF_NORETURN)));
  if (!said) reason_doomed_note(b, p, f);
}

/* Why g, which has no body purist analysed, may not return: it is known
 * never to return (knowledge base, or declared noreturn), or nothing is
 * known of it (not defined, weak, defined twice). */
static void reason_mnr_external(strbuf *b, const link_prog *p, const link_func *g, const char *root)
{
  const kb_entry *e = link_kb_entry(p, g);
  if ((e && e->noreturn) || (g->flags & SFF_NORETURN)) sb_puts(b, "does not return");
  else reason_external(b, p, g, root);
}

void reason_mnr(strbuf *b, const link_prog *p, const link_func *f, const char *root)
{
  switch (f->why_mnr.kind) {
  case WHY_EFFECT: {
    const sum_effect *e = &p->effs.v[f->why_mnr.index];
    reason_effect(b, p, e);
    if ((e->flags & SEF_UNLESS_PURE_CALL) && e->call && e->call <= f->ncall)
      sb_printf(b, ": its bound calls '%s', which is not pure or const",
                S(p, p->funcs.v[p->calls.v[f->call_off + e->call - 1].callee].name));
    sb_puts(b, " at ");
    reason_loc(b, p, e->loc, root);
    break;
  }
  case WHY_CALL: {
    const link_call *c = &p->calls.v[f->why_mnr.index];
    sb_puts(b, "calls ");
    reason_callee(b, p, c, false);
    sb_puts(b, (c->flags & SCF_NORETURN) ? ", which does not return" : ", which may not return");
    break;
  }
  case WHY_RECURSION: sb_puts(b, "recursive"); break;
  default:
    /* A function without a usable body (the report lists library
     * functions too): what is known of it, rather than "unknown". */
    if (!link_has_body(f)) reason_mnr_external(b, p, f, root);
    else sb_puts(b, "unknown");
    break;
  }
}

const link_func *reason_step(strbuf *b, const link_prog *p, const link_func *f, const char *root)
{
  if (f->why.kind != WHY_CALL) {
    reason_class(b, p, f, root);
    return NULL;
  }
  const link_call *c = &p->calls.v[f->why.index];
  const link_func *next = &p->funcs.v[c->callee];
  sb_puts(b, "calls ");
  reason_callee(b, p, c, false);
  sb_puts(b, " at ");
  reason_loc(b, p, c->loc, root);
  if (link_has_body(next)) return next;
  sb_puts(b, ": ");
  reason_external(b, p, next, root);
  return NULL;
}

void reason_chain(strbuf *b, const link_prog *p, const link_func *f, const char *root)
{
  /* Each step follows the first cause into the callee; a function seen
   * twice (recursion) ends the chain. */
  VEC(const link_func *) seen = {0};
  while (f) {
    for (size_t i = 0; i < seen.n; i++) if (seen.v[i] == f) { f = NULL; break; }
    if (!f) break;
    vec_push(&seen, f);
    reason_path(b, p, f->loc.file, root);
    sb_printf(b, ":%u:%u: %s: %s — ", f->loc.line, f->loc.col, S(p, f->name), purity_name((purity)f->cls));
    const link_func *next = reason_step(b, p, f, root);
    sb_puts(b, "\n");
    f = next;
  }
  vec_free(&seen);
}
