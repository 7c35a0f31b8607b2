/* link.c — merging TU summaries into one program (see link.h). */
#include "link/link.h"
#include "link/fields.h"
#include "util/ptrmap.h"
#include <assert.h>
#include <string.h>
#define XXH_STATIC_LINKING_ONLY   /* XXH64_state_t on the stack */
#include <xxhash.h>

struct link_index {
  VEC(uint32_t) strmap;      /* during link_add: TU string id → program id + 1 (0: not yet) */
  ptrmap syms;               /* (keyfile << 32 | name) + 1 → function */
  VEC(uint64_t) body_hash;   /* per function: hash of the body facts it got */
  ptrmap decls_seen;         /* declarations already recorded (headers repeat) → index + 1 */
  ptrmap macros_seen;        /* macro name id + 1 → index in macros */
  ptrmap files_seen;         /* file id + 1 → index in files */
  uint32_t ntu;              /* TUs added so far */
};

link_prog *link_new(const kb *kb, bool strict)
{
  link_prog *p = xcalloc(1, sizeof *p);
  p->strs = strtab_new();
  p->index = xcalloc(1, sizeof *p->index);
  p->kb = kb;
  p->strict = strict;
  return p;
}

void link_free(link_prog *p)
{
  if (!p) return;
  strtab_free(p->strs);
  vec_free(&p->funcs);
  vec_free(&p->effs);
  vec_free(&p->calls);
  vec_free(&p->argmasks);
  vec_free(&p->fnargs);
  vec_free(&p->pcalls);
  vec_free(&p->fstores);
  vec_free(&p->fcalls);
  vec_free(&p->rmembers);
  vec_free(&p->fnret_edges);
  free(p->fnret_edge_start);
  vec_free(&p->decls);
  vec_free(&p->attrs);
  vec_free(&p->macros);
  vec_free(&p->files);
  free(p->call_cls);
  free(p->c23);
  free(p->decl_start);
  free(p->decl_order);
  free(p->other_def);
  free(p->kb_names);
  for (size_t i = 0; i < p->db_files.n; i++) free(p->db_files.v[i]);
  vec_free(&p->db_files);
  for (size_t i = 0; i < p->warnings.n; i++) free(p->warnings.v[i]);
  vec_free(&p->warnings);
  vec_free(&p->conflicts);
  ptrmap_free(&p->index->syms);
  vec_free(&p->index->strmap);
  ptrmap_free(&p->index->decls_seen);
  ptrmap_free(&p->index->macros_seen);
  ptrmap_free(&p->index->files_seen);
  vec_free(&p->index->body_hash);
  free(p->index);
  free(p);
}

/* The program's id for a TU string; each TU string is interned once. */
static uint32_t link_str(link_prog *p, const sum_tu *tu, uint32_t id)
{
  if (!id) return 0;
  uint32_t *m = &p->index->strmap.v[id];
  if (!*m) *m = strtab_intern_from(p->strs, tu->strs, id) + 1;   /* the TU's table knows its hash */
  return *m - 1;
}

uint32_t link_tu_str(link_prog *p, const sum_tu *tu, uint32_t id) { return link_str(p, tu, id); }

static sum_loc link_loc(link_prog *p, const sum_tu *tu, sum_loc l)
{
  l.file = link_str(p, tu, l.file);
  return l;
}

static uint64_t link_key(uint32_t keyfile, uint32_t name)
{
  return (((uint64_t)keyfile << 32) | name) + 1;
}

/* The program's function under symbol key `key`, created from TU function
 * sf (named name, in keyfile) if new. */
static uint32_t link_symbol_at(link_prog *p, const sum_tu *tu, const sum_func *sf, uint64_t key, uint32_t name,
                               uint32_t keyfile)
{
  uint32_t *hit = ptrmap_get(&p->index->syms, key);
  if (hit) return *hit;
  link_func f;
  memset(&f, 0, sizeof f);
  f.name = name;
  f.keyfile = keyfile;
  f.loc = link_loc(p, tu, sf->loc);
  f.linkage = sf->linkage;
  f.nparams = sf->nparams;
  vec_push(&p->funcs, f);
  vec_push(&p->index->body_hash, 0);
  uint32_t gi = (uint32_t)p->funcs.n - 1;
  ptrmap_put(&p->index->syms, key, gi);
  return gi;
}

/* The program's function for TU function `sf`, created if new. */
static uint32_t link_symbol(link_prog *p, const sum_tu *tu, const sum_func *sf)
{
  uint32_t name = link_str(p, tu, sf->name), keyfile = link_str(p, tu, sf->keyfile);
  return link_symbol_at(p, tu, sf, link_key(keyfile, name), name, keyfile);
}

/* Is sf a second definition of external function gi, in another place
 * (another TU's file: a database of many programs)? A header's inline
 * function seen again is the same function; the same file compiled twice
 * is the same place. */
static bool link_other_def(link_prog *p, const sum_tu *tu, const sum_func *sf, uint32_t gi)
{
  const link_func *gf = &p->funcs.v[gi];
  if (!(sf->flags & SFF_BODY) || !(gf->flags & SFF_BODY) || sf->linkage != SUM_EXTERNAL) return false;
  if ((sf->flags & SFF_INLINE) || (gf->flags & SFF_INLINE)) return false;
  return !(gf->loc.file == link_str(p, tu, sf->loc.file) && gf->loc.line == sf->loc.line);
}

/* The LF_ALT function for sf, another definition of external function gi:
 * keyed by its file, chained after gi (link_dups_resolve finishes). */
static uint32_t link_alt(link_prog *p, const sum_tu *tu, const sum_func *sf, uint32_t gi)
{
  uint32_t name = p->funcs.v[gi].name, file = link_str(p, tu, sf->loc.file);
  uint64_t key = link_key(file | 0x80000000u, name);   /* a namespace of its own */
  uint32_t *hit = ptrmap_get(&p->index->syms, key);
  if (hit) return *hit;
  link_func f;
  memset(&f, 0, sizeof f);
  f.name = name;
  f.loc = link_loc(p, tu, sf->loc);
  f.linkage = sf->linkage;
  f.nparams = sf->nparams;
  f.lflags = LF_ALT;
  f.alt_next = p->funcs.v[gi].alt_next;
  vec_push(&p->funcs, f);
  vec_push(&p->index->body_hash, 0);
  uint32_t ai = (uint32_t)p->funcs.n - 1;
  ptrmap_put(&p->index->syms, key, ai);
  link_func *g = &p->funcs.v[gi];
  g->alt_next = ai + 1;
  if (!(g->lflags & LF_CONFLICT)) g->def_file2 = file;
  g->lflags |= LF_CONFLICT;
  return ai;
}

/* Is sf a static function whose definition stands at another place of the
 * same file than gi's (the two arms of an `#if` in a template file that
 * several TUs include with different macros: FFmpeg's fft_template.c)?
 * Each TU sees one of them, and only that TU can call it. gi is the
 * name's own function (link_symbol), never one of these. */
static bool link_other_place(link_prog *p, const sum_tu *tu, const sum_func *sf, uint32_t gi)
{
  const link_func *gf = &p->funcs.v[gi];
  if (!(sf->flags & SFF_BODY) || !(gf->flags & SFF_BODY) || sf->linkage != SUM_INTERNAL) return false;
  return !(gf->loc.file == link_str(p, tu, sf->loc.file) && gf->loc.line == sf->loc.line &&
           gf->loc.col == sf->loc.col);
}

/* The function of static sf's own place (link_other_place), created if
 * new: keyed by the name, file, line and column of its definition, so that
 * a TU that sees the same arm again shares it and no TU sees the other
 * arm's body. Not an LF_ALT: no other TU calls a static by name. */
static uint32_t link_place_alt(link_prog *p, const sum_tu *tu, const sum_func *sf, uint32_t gi)
{
  uint32_t k[5] = { 0x504c4143u, p->funcs.v[gi].name, link_str(p, tu, sf->keyfile), sf->loc.line, sf->loc.col };
  uint64_t key = XXH64(k, sizeof k, 0) | ((uint64_t)1 << 63);
  return link_symbol_at(p, tu, sf, key, p->funcs.v[gi].name, p->funcs.v[gi].keyfile);
}

/* A hash of a body's facts, to tell a header's inline function seen again
 * (skip it) from a different body under the same symbol (merge both). */
static uint64_t link_body_hash(const sum_tu *tu, const sum_func *sf)
{
  XXH64_state_t st, *h = &st;   /* on the stack: one body hashed per definition seen */
  XXH64_reset(h, 0);
  for (uint32_t i = 0; i < sf->neff; i++) {
    const sum_effect *e = &tu->effs.v[sf->eff_off + i];
    uint32_t v[6] = { e->kind, e->flags, e->param, e->loc.line, e->loc.col,
                      (uint32_t)XXH32(strtab_get(tu->strs, e->name), strtab_len(tu->strs, e->name), 0) };
    XXH64_update(h, v, sizeof v);
  }
  for (uint32_t i = 0; i < sf->ncall; i++) {
    const sum_call *c = &tu->calls.v[sf->call_off + i];
    uint32_t cn = tu->funcs.v[c->callee].name;
    uint32_t v[5] = { c->flags, c->loc.line, c->loc.col, c->nargs,
                      (uint32_t)XXH32(strtab_get(tu->strs, cn), strtab_len(tu->strs, cn), 0) };
    XXH64_update(h, v, sizeof v);
    if (c->nargs)   /* a TU whose calls take no arguments has no argmasks (NULL) */
      XXH64_update(h, tu->argmasks.v + c->arg_off, SUM_CALL_NMASKS(c) * sizeof(uint64_t));
  }
  /* The functions passed (a header's inline helper given a different
   * callback per configuration is a different body). */
  for (uint32_t i = 0; i < sf->nfnarg; i++) {
    const sum_fnarg *a = &tu->fnargs.v[sf->fnarg_off + i];
    uint32_t fn = a->kind == SFA_FUNC ? tu->funcs.v[a->value].name : 0;
    uint32_t v[4] = { a->call, a->arg, a->kind,
                      a->kind == SFA_FUNC ? (uint32_t)XXH32(strtab_get(tu->strs, fn), strtab_len(tu->strs, fn), 0)
                                          : a->value };
    XXH64_update(h, v, sizeof v);
  }
  /* What a lookup returns (a header's lookup reading another table per
   * configuration is a different body). */
  for (size_t i = 0; i < tu->rmembers.n; i++) {
    const sum_rmember *m = &tu->rmembers.v[i];
    if (m->func != (uint32_t)(sf - tu->funcs.v)) continue;
    uint32_t fn = m->kind == SFA_FUNC ? tu->funcs.v[m->value].name : 0;
    uint32_t v[3] = { m->moff, m->kind, fn ? (uint32_t)XXH32(strtab_get(tu->strs, fn), strtab_len(tu->strs, fn), 0) : 0 };
    XXH64_update(h, v, sizeof v);
  }
  uint64_t d = XXH64_digest(h);
  return d | 1;   /* never 0, which means "no body yet" */
}

/* Appends sf's function-pointer facts to gf's (before gf's effect and call
 * counts grow: sf's land after them), keeping gf's in one run as
 * link_append_body does. */
static void link_append_fnptr(link_prog *p, const sum_tu *tu, const sum_func *sf, link_func *gf,
                              const uint32_t *map)
{
  if (gf->nfnarg && gf->fnarg_off + gf->nfnarg != p->fnargs.n) {
    size_t off = p->fnargs.n;
    for (uint32_t i = 0; i < gf->nfnarg; i++) vec_push(&p->fnargs, p->fnargs.v[gf->fnarg_off + i]);
    gf->fnarg_off = (uint32_t)off;
  }
  if (gf->npcall && gf->pcall_off + gf->npcall != p->pcalls.n) {
    size_t off = p->pcalls.n;
    for (uint32_t i = 0; i < gf->npcall; i++) vec_push(&p->pcalls, p->pcalls.v[gf->pcall_off + i]);
    gf->pcall_off = (uint32_t)off;
  }
  if (!gf->nfnarg) gf->fnarg_off = (uint32_t)p->fnargs.n;
  if (!gf->npcall) gf->pcall_off = (uint32_t)p->pcalls.n;
  for (uint32_t i = 0; i < sf->nfnarg; i++) {
    sum_fnarg a = tu->fnargs.v[sf->fnarg_off + i];
    a.call += gf->ncall;
    if (a.kind == SFA_FUNC) a.value = map[a.value];
    vec_push(&p->fnargs, a);
  }
  for (uint32_t i = 0; i < sf->npcall; i++) {
    sum_pcall c = tu->pcalls.v[sf->pcall_off + i];
    c.eff += gf->neff;
    c.arg_off = (uint32_t)p->argmasks.n;
    for (uint32_t a = 0; a < c.nargs; a++) vec_push(&p->argmasks, tu->argmasks.v[tu->pcalls.v[sf->pcall_off + i].arg_off + a]);
    vec_push(&p->pcalls, c);
  }
  gf->nfnarg += sf->nfnarg;
  gf->npcall += sf->npcall;
}

/* Appends the body of sf (effects, calls) to gf's facts. A function whose
 * facts are split over several bodies keeps them in one run: bodies are
 * appended only while gf's run is the last one, else copied to the end. */
static void link_append_body(link_prog *p, const sum_tu *tu, const sum_func *sf,
                             uint32_t gi, const uint32_t *map)
{
  link_func *gf = &p->funcs.v[gi];
  if (gf->neff && gf->eff_off + gf->neff != p->effs.n) {
    size_t off = p->effs.n;
    for (uint32_t i = 0; i < gf->neff; i++) vec_push(&p->effs, p->effs.v[gf->eff_off + i]);
    gf->eff_off = (uint32_t)off;
  }
  if (gf->ncall && gf->call_off + gf->ncall != p->calls.n) {
    size_t off = p->calls.n;
    for (uint32_t i = 0; i < gf->ncall; i++) vec_push(&p->calls, p->calls.v[gf->call_off + i]);
    gf->call_off = (uint32_t)off;
  }
  if (!gf->neff) gf->eff_off = (uint32_t)p->effs.n;
  if (!gf->ncall) gf->call_off = (uint32_t)p->calls.n;
  for (uint32_t i = 0; i < sf->neff; i++) {
    sum_effect e = tu->effs.v[sf->eff_off + i];
    e.name = link_str(p, tu, e.name);
    e.guard = link_str(p, tu, e.guard);
    e.macro = link_str(p, tu, e.macro);
    e.cond = link_str(p, tu, e.cond);
    if (e.call) e.call += gf->ncall;   /* sf's calls land after gf's */
    e.loc = link_loc(p, tu, e.loc);
    vec_push(&p->effs, e);
  }
  for (uint32_t i = 0; i < sf->ncall; i++) {
    const sum_call *c = &tu->calls.v[sf->call_off + i];
    link_call lc = *c;
    lc.callee = map[c->callee];
    lc.inl_callee = c->inl_callee ? map[c->inl_callee - 1] + 1 : 0;
    lc.arg_off = (uint32_t)p->argmasks.n;
    lc.guard = link_str(p, tu, c->guard);
    lc.macro = link_str(p, tu, c->macro);
    lc.spell_macro = link_str(p, tu, c->spell_macro);
    lc.loc = link_loc(p, tu, c->loc);
    for (uint32_t a = 0; a < SUM_CALL_NMASKS(c); a++) vec_push(&p->argmasks, tu->argmasks.v[c->arg_off + a]);
    vec_push(&p->calls, lc);
  }
  link_append_fnptr(p, tu, sf, gf, map);
  link_fields_add_body(p, tu, (uint32_t)(sf - tu->funcs.v), gi, gf->neff);
  link_fnret_add_body(p, tu, (uint32_t)(sf - tu->funcs.v), gi, map);
  gf->neff += sf->neff;
  gf->ncall += sf->ncall;
}

static void link_conflict(link_prog *p, uint32_t gi, const sum_tu *tu, const sum_func *sf)
{
  link_func *gf = &p->funcs.v[gi];
  if (gf->lflags & LF_CONFLICT) return;
  gf->lflags |= LF_CONFLICT;
  gf->def_file2 = link_str(p, tu, sf->loc.file);
  link_conflict_rec c = { gi, gf->def_file2, sf->loc.line };   /* printed relative to the root (cli) */
  vec_push(&p->conflicts, c);
}

static void link_add_body(link_prog *p, const sum_tu *tu, const sum_func *sf,
                          uint32_t gi, const uint32_t *map)
{
  link_func *gf = &p->funcs.v[gi];
  uint64_t h = link_body_hash(tu, sf);
  uint64_t *have = &p->index->body_hash.v[gi];
  bool first = !(gf->flags & SFF_BODY);
  if (first) {
    gf->loc = link_loc(p, tu, sf->loc);     /* report at the definition */
    gf->tuflags = tu->flags;
    gf->tu = p->index->ntu;
  } else {
    int same_place = gf->loc.file == link_str(p, tu, sf->loc.file) && gf->loc.line == sf->loc.line;
    if (!same_place && !(sf->flags & SFF_INLINE) && !(gf->flags & SFF_INLINE)) {
      link_conflict(p, gi, tu, sf);
      return;
    }
    if (*have == h) return;                  /* the same header function again */
    gf->lflags |= LF_DUPLICATE_BODY;         /* differing bodies: keep the union */
  }
  *have = h;
  link_append_body(p, tu, sf, gi, map);
  gf->captures |= sf->captures;
  gf->pinto |= sf->pinto;
  gf->pstores |= sf->pstores;
  gf->ownc |= sf->ownc;
  /* errno is kept only if every body of the union keeps it. */
  uint8_t kept = (first ? sf->sflags : gf->sflags & sf->sflags) & SSF_ERRNO_KEPT;
  gf->sflags = (uint8_t)(((gf->sflags | sf->sflags) & ~SSF_ERRNO_KEPT) | kept);
}

/* The function whose chain holds alternate definition ai: the name's. */
static uint32_t link_alt_owner(const link_prog *p, uint32_t ai)
{
  uint32_t *hit = ptrmap_get(&p->index->syms, link_key(0, p->funcs.v[ai].name));
  return hit ? *hit : ai;
}

/* A header's declaration seen again from another TU: an attribute macro
 * is usable there only if every TU had the same one defined before it.
 * (link_decl_pruned) A pruned record (STF_PRUNED, from `purist cc`) lacks
 * the header declarations of the functions its TU does not use, so no
 * record says what the TUs that include the header without using them
 * define: its header declarations offer no macro, and fix spells the
 * attribute out, which compiles in every TU. */
static void link_decl_again(link_prog *p, sum_decl *have, const sum_decl *d)
{
  if (have->macro_pure != d->macro_pure) have->macro_pure = 0;
  if (have->macro_const != d->macro_const) have->macro_const = 0;
  if (have->macro_repro != d->macro_repro) have->macro_repro = 0;
  if (have->macro_unseq != d->macro_unseq) have->macro_unseq = 0;
  if (have->spelled != d->spelled) have->spelled = 0;
}

/* Copies the attributes written on d into the program's table. */
static void link_decl_attrs(link_prog *p, const sum_tu *tu, sum_decl *d)
{
  uint32_t off = (uint32_t)p->attrs.n;
  for (uint32_t a = 0; a < d->nattr; a++) {
    sum_attr at = tu->attrs.v[d->attr_off + a];
    at.macro = link_str(p, tu, at.macro);
    vec_push(&p->attrs, at);
  }
  d->attr_off = off;
}

/* Attribute macros by name, file hashes by file: a macro defined as
 * different attributes, or a file parsed with different contents (edited
 * while the analysis ran), is marked unusable. */
static void link_add_macros_files(link_prog *p, const sum_tu *tu)
{
  for (size_t i = 0; i < tu->macros.n; i++) {
    sum_macro m = tu->macros.v[i];
    m.name = link_str(p, tu, m.name);
    uint32_t *j = ptrmap_get(&p->index->macros_seen, (uint64_t)m.name + 1);
    if (!j) {
      ptrmap_put(&p->index->macros_seen, (uint64_t)m.name + 1, (uint32_t)p->macros.n);
      vec_push(&p->macros, m);
    } else if (p->macros.v[*j].kind != m.kind || p->macros.v[*j].form != m.form) {
      p->macros.v[*j].kind = 0;
    } else if (m.origin != SMO_FILE) {
      p->macros.v[*j].origin = m.origin;   /* a file's text in some TUs only: not one to rely on */
    }
  }
  for (size_t i = 0; i < tu->files.n; i++) {
    sum_file f = tu->files.v[i];
    f.file = link_str(p, tu, f.file);
    uint32_t *j = ptrmap_get(&p->index->files_seen, (uint64_t)f.file + 1);
    if (!j) {
      ptrmap_put(&p->index->files_seen, (uint64_t)f.file + 1, (uint32_t)p->files.n);
      vec_push(&p->files, f);
    } else {
      if (p->files.v[*j].hash != f.hash) p->files.v[*j].hash = 0;
      p->files.v[*j].generated |= f.generated;   /* any TU's build calls it generated */
    }
  }
}

void link_add(link_prog *p, const sum_tu *tu)
{
  uint32_t nstr = strtab_count(tu->strs);
  vec_reserve(&p->index->strmap, nstr);
  memset(p->index->strmap.v, 0, nstr * sizeof *p->index->strmap.v);
  p->index->strmap.n = nstr;
  uint32_t *map = xmalloc((tu->funcs.n ? tu->funcs.n : 1) * sizeof *map);
  p->index->ntu++;
  for (size_t i = 0; i < tu->funcs.n; i++) {
    const sum_func *sf = &tu->funcs.v[i];
    uint32_t gi = link_symbol(p, tu, sf);
    if (link_other_def(p, tu, sf, gi)) gi = link_alt(p, tu, sf, gi);   /* this TU's calls go to it */
    else if (link_other_place(p, tu, sf, gi)) gi = link_place_alt(p, tu, sf, gi);
    map[i] = gi;
    link_func *gf = &p->funcs.v[gi];
    gf->declared |= sf->declared;
    gf->flags |= sf->flags & ~SFF_BODY;
    if (sf->nparams > gf->nparams) gf->nparams = sf->nparams;
  }
  for (size_t i = 0; i < tu->funcs.n; i++)
    if (tu->funcs.v[i].flags & SFF_BODY) {
      link_add_body(p, tu, &tu->funcs.v[i], map[i], map);
      p->funcs.v[map[i]].flags |= SFF_BODY;
    }
  for (size_t i = 0; i < tu->decls.n; i++) {
    sum_decl d = tu->decls.v[i];
    d.func = map[d.func];
    if ((p->funcs.v[d.func].lflags & LF_ALT) && !d.is_def)   /* a prototype is the name's, shared */
      d.func = link_alt_owner(p, d.func);
    d.loc = link_loc(p, tu, d.loc);
    d.macro_pure = link_str(p, tu, d.macro_pure);
    d.macro_const = link_str(p, tu, d.macro_const);
    d.macro_repro = link_str(p, tu, d.macro_repro);
    d.macro_unseq = link_str(p, tu, d.macro_unseq);
    d.spelled = link_str(p, tu, d.spelled);
    if ((tu->flags & STF_PRUNED) && tu->decls.v[i].loc.file != tu->main_file)
      d.macro_pure = d.macro_const = d.macro_repro = d.macro_unseq = 0;   /* link_decl_pruned */
    uint32_t k[4] = { d.func, d.loc.file, d.loc.line, d.loc.col };
    uint64_t key = XXH64(k, sizeof k, 0) | 1;
    uint32_t *seen = ptrmap_get(&p->index->decls_seen, key);
    if (seen) {
      link_decl_again(p, &p->decls.v[*seen - 1], &d);
      continue;
    }
    ptrmap_put(&p->index->decls_seen, key, (uint32_t)p->decls.n + 1);
    link_decl_attrs(p, tu, &d);
    vec_push(&p->decls, d);
  }
  link_add_macros_files(p, tu);
  link_fields_add(p, tu, map);
  free(map);
}

bool link_is_whole_program(const link_prog *p, bool opt)
{
  /* A database of many programs (tests and examples each defining main)
   * is a whole program too: each of them is. A main defined twice is
   * the join of its definitions (link/dup.c), and still defined. */
  long m = link_find(p, "main");
  return opt || (m >= 0 && ((p->funcs.v[m].flags & SFF_BODY) || (p->funcs.v[m].lflags & LF_JOIN)));
}

/* What kb_names holds for a name the knowledge base does not list. */
static const kb_entry link_kb_none;

void link_kb_index(link_prog *p)
{
  free(p->kb_names);
  p->kb_names_n = strtab_count(p->strs);
  p->kb_names = xcalloc(p->kb_names_n ? p->kb_names_n : 1, sizeof *p->kb_names);
  for (size_t i = 0; i < p->funcs.n; i++) {
    uint32_t id = p->funcs.v[i].name;
    if (p->kb_names[id]) continue;
    const kb_entry *e = kb_lookup(p->kb, strtab_get(p->strs, id));
    p->kb_names[id] = e ? e : &link_kb_none;
  }
}

const kb_entry *link_kb_entry(const link_prog *p, const link_func *f)
{
  if (f->linkage != SUM_EXTERNAL || link_has_body(f)) return NULL;
  /* looked up once per name (link_kb_index): the solve and the checks ask
   * at every call site */
  const kb_entry *e = f->name < p->kb_names_n ? p->kb_names[f->name] : NULL;
  if (e) return e == &link_kb_none ? NULL : e;
  return kb_lookup(p->kb, strtab_get(p->strs, f->name));
}

uint64_t link_obj_key(uint32_t fi, const sum_effect *e)
{
  uint64_t scope = 0;
  if (e->obj == SO_STATIC_LOCAL) scope = 0x80000000u | fi;
  else if (e->obj == SO_FILE_STATIC) scope = e->loc.file & 0x7fffffffu;
  return ((scope << 32) | e->name) + 1;
}

void link_obj_writers(const link_prog *p, ptrmap *out)
{
  for (uint32_t fi = 0; fi < p->funcs.n; fi++) {
    const link_func *f = &p->funcs.v[fi];
    for (uint32_t i = 0; i < f->neff; i++) {
      const sum_effect *e = &p->effs.v[f->eff_off + i];
      if (e->kind != SE_WRITE_GLOBAL && e->kind != SE_ADDR_GLOBAL) continue;
      uint64_t key = link_obj_key(fi, e);
      uint32_t *v = ptrmap_get(out, key);
      if (!v) ptrmap_put(out, key, fi + 1);
      else if (*v != fi + 1) *v = LINK_MANY_WRITERS;
    }
  }
}

long link_find(const link_prog *p, const char *name)
{
  uint32_t id = strtab_find(p->strs, name);
  if (id == UINT32_MAX) return -1;
  uint32_t *hit = ptrmap_get(&p->index->syms, link_key(0, id));
  if (hit) return (long)*hit;
  for (size_t i = 0; i < p->funcs.n; i++)
    if (p->funcs.v[i].name == id && (p->funcs.v[i].flags & SFF_BODY)) return (long)i;
  return -1;
}

/* A counting sort by function: each function's declarations keep their
 * link order, so reports list them as before. */
void link_index_decls(link_prog *p)
{
  size_t nf = p->funcs.n, nd = p->decls.n;
  free(p->decl_start);
  free(p->decl_order);
  p->decl_start = xcalloc(nf + 1, sizeof *p->decl_start);
  p->decl_order = xcalloc(nd ? nd : 1, sizeof *p->decl_order);
  for (size_t i = 0; i < nd; i++) p->decl_start[p->decls.v[i].func + 1]++;
  for (size_t f = 0; f < nf; f++) p->decl_start[f + 1] += p->decl_start[f];
  uint32_t *fill = xmalloc((nf ? nf : 1) * sizeof *fill);
  memcpy(fill, p->decl_start, nf * sizeof *fill);
  for (size_t i = 0; i < nd; i++) p->decl_order[fill[p->decls.v[i].func]++] = (uint32_t)i;
  free(fill);
}

const uint32_t *link_decls_of(const link_prog *p, uint32_t fi, uint32_t *n)
{
  assert(p->decl_start && "link_solve builds the declaration index");
  *n = p->decl_start[fi + 1] - p->decl_start[fi];
  return p->decl_order + p->decl_start[fi];
}
