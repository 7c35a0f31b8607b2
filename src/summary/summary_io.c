/* summary_io.c — the binary summary format (docs/summary-format.md).
 *
 * A record is a fixed 32-byte header (magic, format version, payload
 * length, XXH64 of the payload) followed by the payload: LEB128 varints
 * only, so it is compact and has no alignment or endianness concerns.
 * The checksum is verified before a single payload byte is interpreted,
 * and every read is bounds-checked, so a damaged file is refused with a
 * message instead of being read as garbage. */
#include "summary/summary.h"
#include "util/bytes.h"
#include <errno.h>
#include <string.h>
#include <xxhash.h>
#include <zstd.h>

/* ZSTD_ZLEVEL: level 9 packs a summary about as tight as 19 at a fraction
 * of the time (Lua's records: 3 ms per TU). ZSTD_MAX_PAYLOAD: a frame
 * claiming more is refused before anything is allocated for it (the
 * largest real TU's payload is well under 1 MiB). */
enum { HEADER_LEN = 32, ZSTD_ZLEVEL = 9 };
#define ZSTD_MAX_PAYLOAD ((unsigned long long)256 << 20)

/* ---- encoding ---- */

static void put_loc(bytes *b, sum_loc l)
{
  bytes_uleb(b, l.file); bytes_uleb(b, l.line); bytes_uleb(b, l.col);
}

static void encode_effect(bytes *b, const sum_effect *e)
{
  bytes_uleb(b, e->kind); bytes_uleb(b, e->flags); bytes_uleb(b, e->obj); bytes_uleb(b, e->param);
  bytes_uleb(b, e->name); bytes_uleb(b, e->guard); bytes_uleb(b, e->call); bytes_uleb(b, e->macro);
  bytes_uleb(b, e->cond);
  put_loc(b, e->loc);
}

static void encode_call(bytes *b, const sum_tu *tu, const sum_call *c)
{
  bytes_uleb(b, c->callee); bytes_uleb(b, c->flags); bytes_uleb(b, c->use); put_loc(b, c->loc);
  bytes_uleb(b, c->guard); bytes_uleb(b, c->same_as); bytes_uleb(b, c->eff_pos);
  bytes_uleb(b, c->loop_eff_lo); bytes_uleb(b, c->loop_eff_hi);
  bytes_uleb(b, c->loop_call_lo); bytes_uleb(b, c->loop_call_hi);
  bytes_uleb(b, c->macro);
  bytes_uleb(b, c->inl_callee); bytes_uleb(b, c->inl_same);
  bytes_uleb(b, c->arm_eff_lo); bytes_uleb(b, c->arm_eff_hi);
  bytes_uleb(b, c->arm_call_lo); bytes_uleb(b, c->arm_call_hi);
  bytes_uleb(b, c->hoist_same); bytes_uleb(b, c->hoist_t_eff); bytes_uleb(b, c->hoist_t_call);
  bytes_uleb(b, c->hoist_e_eff); bytes_uleb(b, c->hoist_e_call);
  bytes_uleb(b, c->hoist_dep_t); bytes_uleb(b, c->hoist_dep_e);
  bytes_uleb(b, c->late_lo); bytes_uleb(b, c->late_hi); bytes_uleb(b, c->hoist_mem);
  bytes_uleb(b, c->nonnull);
  bytes_uleb(b, c->pte_join);
  bytes_uleb(b, c->pte_group);
  bytes_uleb(b, c->spell_macro);
  bytes_uleb(b, c->nargs);
  for (uint32_t a = 0; a < SUM_CALL_NMASKS(c); a++) bytes_uleb(b, tu->argmasks.v[c->arg_off + a]);
}

/* What fix needs beyond the declarations: attributes, macros, file hashes. */
static void encode_fix_facts(const sum_tu *tu, bytes *b)
{
  bytes_uleb(b, tu->attrs.n);
  for (size_t i = 0; i < tu->attrs.n; i++) {
    const sum_attr *a = &tu->attrs.v[i];
    bytes_uleb(b, a->kind); bytes_uleb(b, a->form); bytes_uleb(b, a->macro);
    bytes_uleb(b, a->beg_line); bytes_uleb(b, a->beg_col); bytes_uleb(b, a->end_line); bytes_uleb(b, a->end_col);
  }
  bytes_uleb(b, tu->macros.n);
  for (size_t i = 0; i < tu->macros.n; i++) {
    const sum_macro *m = &tu->macros.v[i];
    bytes_uleb(b, m->name); bytes_uleb(b, m->kind); bytes_uleb(b, m->form); bytes_uleb(b, m->system);
    bytes_uleb(b, m->origin);
  }
  bytes_uleb(b, tu->files.n);
  for (size_t i = 0; i < tu->files.n; i++) {
    bytes_uleb(b, tu->files.v[i].file);
    bytes_le(b, tu->files.v[i].hash, 8);
    bytes_uleb(b, tu->files.v[i].generated);
  }
}

/* Function-pointer facts (format 4), per function in function order. */
static void encode_fnptr_facts(const sum_tu *tu, bytes *b)
{
  for (size_t f = 0; f < tu->funcs.n; f++) {
    const sum_func *fn = &tu->funcs.v[f];
    bytes_uleb(b, fn->nfnarg);
    for (uint32_t i = 0; i < fn->nfnarg; i++) {
      const sum_fnarg *a = &tu->fnargs.v[fn->fnarg_off + i];
      bytes_uleb(b, a->call); bytes_uleb(b, a->arg); bytes_uleb(b, a->kind); bytes_uleb(b, a->value);
    }
    bytes_uleb(b, fn->npcall);
    for (uint32_t i = 0; i < fn->npcall; i++) {
      const sum_pcall *c = &tu->pcalls.v[fn->pcall_off + i];
      bytes_uleb(b, c->eff); bytes_uleb(b, c->param); bytes_uleb(b, c->nargs);
      for (uint32_t a = 0; a < c->nargs; a++) bytes_uleb(b, tu->argmasks.v[c->arg_off + a]);
      bytes_uleb(b, c->moff);
    }
  }
}

/* Function-pointer fields (format 8). */
static void encode_field_facts(const sum_tu *tu, bytes *b)
{
  bytes_uleb(b, tu->fstores.n);
  for (size_t i = 0; i < tu->fstores.n; i++) {
    const sum_fstore *s = &tu->fstores.v[i];
    bytes_uleb(b, s->field); bytes_uleb(b, s->func); bytes_uleb(b, s->kind); bytes_uleb(b, s->value);
  }
  bytes_uleb(b, tu->fcalls.n);
  for (size_t i = 0; i < tu->fcalls.n; i++) {
    const sum_fcall *c = &tu->fcalls.v[i];
    bytes_uleb(b, c->func); bytes_uleb(b, c->eff); bytes_uleb(b, c->field); bytes_uleb(b, c->nargs);
    for (uint32_t a = 0; a < c->nargs; a++) bytes_uleb(b, tu->argmasks.v[c->arg_off + a]);
  }
}

/* What lookups return (format 17). */
static void encode_rmembers(const sum_tu *tu, bytes *b)
{
  bytes_uleb(b, tu->rmembers.n);
  for (size_t i = 0; i < tu->rmembers.n; i++) {
    const sum_rmember *m = &tu->rmembers.v[i];
    bytes_uleb(b, m->func); bytes_uleb(b, m->moff); bytes_uleb(b, m->kind); bytes_uleb(b, m->value);
  }
}

static void encode_payload(const sum_tu *tu, bytes *b)
{
  bytes_uleb(b, tu->flags);
  bytes_uleb(b, tu->main_file);
  uint32_t ns = strtab_count(tu->strs);
  bytes_uleb(b, ns);
  for (uint32_t i = 1; i < ns; i++) {   /* id 0 is always "" */
    size_t len = strtab_len(tu->strs, i);
    bytes_uleb(b, len);
    vec_reserve(b, b->n + len);
    memcpy(b->v + b->n, strtab_get(tu->strs, i), len);
    b->n += len;
  }
  bytes_uleb(b, tu->funcs.n);
  for (size_t i = 0; i < tu->funcs.n; i++) {
    const sum_func *f = &tu->funcs.v[i];
    bytes_uleb(b, f->name); bytes_uleb(b, f->keyfile); put_loc(b, f->loc);
    bytes_uleb(b, f->linkage); bytes_uleb(b, f->declared); bytes_uleb(b, f->flags);
    bytes_uleb(b, f->nparams); bytes_uleb(b, f->neff); bytes_uleb(b, f->ncall);
    bytes_uleb(b, f->captures); bytes_uleb(b, f->sflags);
    bytes_uleb(b, f->pinto); bytes_uleb(b, f->pstores); bytes_uleb(b, f->ownc);
  }
  /* Bodies in function order: the reader assigns offsets that way. (The
   * front end appends them in the order it walks, which differs whenever a
   * function is declared before an earlier one's body is walked.) */
  for (size_t f = 0; f < tu->funcs.n; f++) {
    const sum_func *fn = &tu->funcs.v[f];
    for (uint32_t i = 0; i < fn->neff; i++) encode_effect(b, &tu->effs.v[fn->eff_off + i]);
  }
  for (size_t f = 0; f < tu->funcs.n; f++) {
    const sum_func *fn = &tu->funcs.v[f];
    for (uint32_t i = 0; i < fn->ncall; i++) encode_call(b, tu, &tu->calls.v[fn->call_off + i]);
  }
  bytes_uleb(b, tu->decls.n);
  for (size_t i = 0; i < tu->decls.n; i++) {
    const sum_decl *d = &tu->decls.v[i];
    bytes_uleb(b, d->func); put_loc(b, d->loc); bytes_uleb(b, d->declared); bytes_uleb(b, d->is_def);
    bytes_uleb(b, d->dflags); bytes_uleb(b, d->beg_line); bytes_uleb(b, d->beg_col);
    bytes_uleb(b, d->end_line); bytes_uleb(b, d->end_col); bytes_uleb(b, d->attr_off); bytes_uleb(b, d->nattr);
    bytes_uleb(b, d->macro_pure); bytes_uleb(b, d->macro_const);
    bytes_uleb(b, d->macro_repro); bytes_uleb(b, d->macro_unseq);
    bytes_uleb(b, d->spelled);
  }
  encode_fix_facts(tu, b);
  encode_fnptr_facts(tu, b);
  encode_field_facts(tu, b);
  encode_rmembers(tu, b);
}

/* Fills in the header of the record b holds (payload after HEADER_LEN). */
static void encode_header(bytes *b, uint32_t flags)
{
  size_t plen = b->n - HEADER_LEN;
  bytes h = {0};
  for (int i = 0; i < 8; i++) vec_push(&h, (unsigned char)SUMMARY_MAGIC[i]);
  bytes_le(&h, SUMMARY_FORMAT, 4);
  bytes_le(&h, flags, 4);
  bytes_le(&h, plen, 8);
  bytes_le(&h, XXH64(b->v + HEADER_LEN, plen, 0), 8);
  memcpy(b->v, h.v, HEADER_LEN);
  vec_free(&h);
}

unsigned char *summary_encode(const sum_tu *tu, size_t *len)
{
  bytes b = {0};
  vec_reserve(&b, HEADER_LEN + 4096);
  b.n = HEADER_LEN;
  encode_payload(tu, &b);
  encode_header(&b, 0);
  *len = b.n;
  return b.v;
}

unsigned char *summary_encode_packed(const sum_tu *tu, size_t *len)
{
  bytes raw = {0};
  encode_payload(tu, &raw);
  size_t cap = ZSTD_compressBound(raw.n);
  bytes b = {0};
  vec_reserve(&b, HEADER_LEN + cap);
  size_t z = ZSTD_compress(b.v + HEADER_LEN, cap, raw.v, raw.n, ZSTD_ZLEVEL);
  if (ZSTD_isError(z)) {   /* cannot happen with a bound-sized buffer; stay readable anyway */
    vec_free(&raw);
    vec_free(&b);
    return summary_encode(tu, len);
  }
  vec_free(&raw);
  b.n = HEADER_LEN + z;
  encode_header(&b, SUMMARY_ZSTD);
  *len = b.n;
  return b.v;
}

int summary_write(const sum_tu *tu, FILE *f)
{
  size_t len;
  unsigned char *buf = summary_encode(tu, &len);
  size_t w = fwrite(buf, 1, len, f);
  free(buf);
  if (w != len) { if (!errno) errno = EIO; return -1; }
  return 0;
}

/* ---- decoding ---- */

typedef bytes_reader reader;

/* A varint that must be below `limit` (an index or a small enum). */
static uint32_t get_idx(reader *r, uint64_t limit)
{
  uint64_t x = bytes_get_uleb(r);
  if (x >= limit) { r->bad = 1; return 0; }
  return (uint32_t)x;
}

static uint64_t get_le(const unsigned char *p, int n)
{
  uint64_t x = 0;
  for (int i = 0; i < n; i++) x |= (uint64_t)p[i] << (8 * i);
  return x;
}

static sum_loc get_loc(reader *r, uint32_t nstr)
{
  sum_loc l;
  l.file = get_idx(r, nstr);
  l.line = get_idx(r, UINT32_MAX);
  l.col = get_idx(r, UINT32_MAX);
  return l;
}

static void decode_strings(reader *r, sum_tu *tu, uint32_t ns)
{
  for (uint32_t i = 1; i < ns && !r->bad; i++) {
    uint64_t len = bytes_get_uleb(r);
    if (len > (uint64_t)(r->end - r->p)) { r->bad = 1; return; }
    uint32_t id = strtab_intern_n(tu->strs, (const char *)r->p, len);
    if (id != i) { r->bad = 1; return; }   /* duplicate string: not our encoder */
    r->p += len;
  }
}

static void decode_funcs(reader *r, sum_tu *tu, uint32_t ns, uint64_t nf)
{
  uint64_t eoff = 0, coff = 0;
  /* A function takes at least 16 bytes: a count past that is refused
   * before anything is allocated for it. */
  if (nf > (uint64_t)(r->end - r->p) / 16) { r->bad = 1; return; }
  vec_reserve(&tu->funcs, (size_t)nf);
  for (uint64_t i = 0; i < nf && !r->bad; i++) {
    sum_func f;
    f.name = get_idx(r, ns); f.keyfile = get_idx(r, ns); f.loc = get_loc(r, ns);
    f.linkage = (uint8_t)get_idx(r, 2); f.declared = (uint8_t)get_idx(r, SUM_DECL_MASK + 1);
    f.flags = (uint16_t)get_idx(r, 1 << 16); f.nparams = (uint16_t)get_idx(r, 1 << 16);
    f.neff = get_idx(r, UINT32_MAX); f.ncall = get_idx(r, UINT32_MAX);
    f.captures = bytes_get_uleb(r); f.sflags = (uint8_t)get_idx(r, 256);
    f.pinto = bytes_get_uleb(r); f.pstores = bytes_get_uleb(r); f.ownc = bytes_get_uleb(r);
    f.eff_off = (uint32_t)eoff; f.call_off = (uint32_t)coff;
    f.fnarg_off = f.nfnarg = f.pcall_off = f.npcall = 0;   /* decode_fnptr_facts */
    eoff += f.neff; coff += f.ncall;
    if (eoff >= UINT32_MAX || coff >= UINT32_MAX) r->bad = 1;
    vec_push(&tu->funcs, f);
  }
}

static void decode_bodies(reader *r, sum_tu *tu, uint32_t ns)
{
  uint64_t neff = 0, ncall = 0;
  for (size_t i = 0; i < tu->funcs.n; i++) {
    neff += tu->funcs.v[i].neff;
    ncall += tu->funcs.v[i].ncall;
  }
  /* An effect takes at least 11 bytes, a call at least 15: refuse counts the
   * payload cannot hold before allocating for them. */
  uint64_t room = (uint64_t)(r->end - r->p);
  if (neff > room / 11 || ncall > room / 15 || neff * 11 + ncall * 15 > room) { r->bad = 1; return; }
  vec_reserve(&tu->effs, (size_t)neff);
  vec_reserve(&tu->calls, (size_t)ncall);
  for (uint64_t i = 0; i < neff && !r->bad; i++) {
    sum_effect e;
    e.kind = (uint8_t)get_idx(r, SE_KIND_COUNT); e.flags = (uint16_t)get_idx(r, 32768);
    e.obj = (uint8_t)get_idx(r, 256); e.param = (uint8_t)get_idx(r, 256);
    e.name = get_idx(r, ns); e.guard = get_idx(r, ns);
    e.call = get_idx(r, UINT32_MAX); e.macro = get_idx(r, ns); e.cond = get_idx(r, ns); e.loc = get_loc(r, ns);
    vec_push(&tu->effs, e);
  }
  for (uint64_t i = 0; i < ncall && !r->bad; i++) {
    sum_call c;
    c.callee = get_idx(r, tu->funcs.n); c.flags = (uint16_t)get_idx(r, 65536);
    c.use = (uint8_t)get_idx(r, 4); c.loc = get_loc(r, ns);
    c.guard = get_idx(r, ns); c.same_as = get_idx(r, UINT32_MAX); c.eff_pos = get_idx(r, UINT32_MAX);
    c.loop_eff_lo = get_idx(r, UINT32_MAX); c.loop_eff_hi = get_idx(r, UINT32_MAX);
    c.loop_call_lo = get_idx(r, UINT32_MAX); c.loop_call_hi = get_idx(r, UINT32_MAX);
    c.macro = get_idx(r, ns);
    c.inl_callee = get_idx(r, (uint32_t)tu->funcs.n + 1); c.inl_same = get_idx(r, UINT32_MAX);
    c.arm_eff_lo = get_idx(r, UINT32_MAX); c.arm_eff_hi = get_idx(r, UINT32_MAX);
    c.arm_call_lo = get_idx(r, UINT32_MAX); c.arm_call_hi = get_idx(r, UINT32_MAX);
    c.hoist_same = get_idx(r, UINT32_MAX); c.hoist_t_eff = get_idx(r, UINT32_MAX);
    c.hoist_t_call = get_idx(r, UINT32_MAX); c.hoist_e_eff = get_idx(r, UINT32_MAX);
    c.hoist_e_call = get_idx(r, UINT32_MAX); c.hoist_dep_t = get_idx(r, UINT32_MAX);
    c.hoist_dep_e = get_idx(r, UINT32_MAX);
    c.late_lo = get_idx(r, UINT32_MAX); c.late_hi = get_idx(r, UINT32_MAX); c.hoist_mem = get_idx(r, 2);
    c.nonnull = bytes_get_uleb(r);
    c.pte_join = bytes_get_uleb(r);
    c.pte_group = get_idx(r, UINT32_MAX);
    c.spell_macro = get_idx(r, ns);
    c.nargs = get_idx(r, 1 << 16);
    c.arg_off = (uint32_t)tu->argmasks.n;
    for (uint32_t a = 0; a < SUM_CALL_NMASKS(&c) && !r->bad; a++) vec_push(&tu->argmasks, bytes_get_uleb(r));
    vec_push(&tu->calls, c);
  }
}

static void decode_decls(reader *r, sum_tu *tu, uint32_t ns)
{
  uint64_t nd = bytes_get_uleb(r);
  /* A declaration takes at least 17 bytes. */
  if (nd > (uint64_t)(r->end - r->p) / 17) { r->bad = 1; return; }
  vec_reserve(&tu->decls, (size_t)nd);
  for (uint64_t i = 0; i < nd && !r->bad; i++) {
    sum_decl d;
    d.func = get_idx(r, tu->funcs.n); d.loc = get_loc(r, ns);
    d.declared = (uint8_t)get_idx(r, SUM_DECL_MASK + 1); d.is_def = (uint8_t)get_idx(r, 2);
    d.dflags = (uint8_t)get_idx(r, 256);
    d.beg_line = get_idx(r, UINT32_MAX); d.beg_col = get_idx(r, UINT32_MAX);
    d.end_line = get_idx(r, UINT32_MAX); d.end_col = get_idx(r, UINT32_MAX);
    d.attr_off = get_idx(r, UINT32_MAX); d.nattr = get_idx(r, UINT32_MAX);
    d.macro_pure = get_idx(r, ns); d.macro_const = get_idx(r, ns);
    d.macro_repro = get_idx(r, ns); d.macro_unseq = get_idx(r, ns);
    d.spelled = get_idx(r, ns);
    vec_push(&tu->decls, d);
  }
}

static bool is_attr_kind(uint8_t k)
{
  return k == SUM_DECL_PURE || k == SUM_DECL_CONST || k == SUM_DECL_REPRODUCIBLE || k == SUM_DECL_UNSEQUENCED;
}

static void decode_attrs(reader *r, sum_tu *tu, uint32_t ns)
{
  uint64_t na = bytes_get_uleb(r);
  if (na > (uint64_t)(r->end - r->p)) { r->bad = 1; return; }
  for (uint64_t i = 0; i < na && !r->bad; i++) {
    sum_attr a;
    a.kind = (uint8_t)get_idx(r, 256); a.form = (uint8_t)get_idx(r, 3); a.macro = get_idx(r, ns);
    a.beg_line = get_idx(r, UINT32_MAX); a.beg_col = get_idx(r, UINT32_MAX);
    a.end_line = get_idx(r, UINT32_MAX); a.end_col = get_idx(r, UINT32_MAX);
    if (!is_attr_kind(a.kind)) r->bad = 1;
    vec_push(&tu->attrs, a);
  }
  /* Every declaration's attributes lie within the table. */
  for (size_t i = 0; i < tu->decls.n && !r->bad; i++)
    if ((uint64_t)tu->decls.v[i].attr_off + tu->decls.v[i].nattr > tu->attrs.n) r->bad = 1;
}

static void decode_macros_files(reader *r, sum_tu *tu, uint32_t ns)
{
  uint64_t nm = bytes_get_uleb(r);
  if (nm > (uint64_t)(r->end - r->p)) { r->bad = 1; return; }
  for (uint64_t i = 0; i < nm && !r->bad; i++) {
    sum_macro m;
    m.name = get_idx(r, ns); m.kind = (uint8_t)get_idx(r, 256);
    m.form = (uint8_t)get_idx(r, 3); m.system = (uint8_t)get_idx(r, 2);
    m.origin = (uint8_t)get_idx(r, SMO_INCLUDE + 1);
    if (!is_attr_kind(m.kind)) r->bad = 1;
    vec_push(&tu->macros, m);
  }
  uint64_t nfiles = bytes_get_uleb(r);
  if (nfiles > (uint64_t)(r->end - r->p) / 10) { r->bad = 1; return; }
  for (uint64_t i = 0; i < nfiles && !r->bad; i++) {
    sum_file f;
    f.file = get_idx(r, ns);
    f.hash = bytes_get_le(r, 8);
    f.generated = (uint8_t)get_idx(r, 2);
    vec_push(&tu->files, f);
  }
}

/* Each fact must name a call, effect or function that exists. */
static void decode_fnptr_facts(reader *r, sum_tu *tu)
{
  for (size_t f = 0; f < tu->funcs.n && !r->bad; f++) {
    sum_func *fn = &tu->funcs.v[f];
    uint64_t na = bytes_get_uleb(r);
    if (na > (uint64_t)(r->end - r->p) / 4) { r->bad = 1; return; }
    fn->fnarg_off = (uint32_t)tu->fnargs.n;
    fn->nfnarg = (uint32_t)na;
    for (uint64_t i = 0; i < na && !r->bad; i++) {
      sum_fnarg a;
      a.call = get_idx(r, fn->ncall); a.arg = get_idx(r, 1 << 16); a.kind = (uint8_t)get_idx(r, SFA_NULL + 1);
      a.value = get_idx(r, a.kind == SFA_FUNC ? tu->funcs.n : a.kind == SFA_PARAM ? PROV_MAX_PARAMS : 1);
      vec_push(&tu->fnargs, a);
    }
    uint64_t np = bytes_get_uleb(r);
    if (np > (uint64_t)(r->end - r->p) / 3) { r->bad = 1; return; }
    fn->pcall_off = (uint32_t)tu->pcalls.n;
    fn->npcall = (uint32_t)np;
    for (uint64_t i = 0; i < np && !r->bad; i++) {
      sum_pcall c;
      c.eff = get_idx(r, fn->neff); c.param = get_idx(r, PROV_MAX_PARAMS); c.nargs = get_idx(r, 1 << 16);
      c.arg_off = (uint32_t)tu->argmasks.n;
      if (c.nargs > (uint64_t)(r->end - r->p)) { r->bad = 1; return; }
      for (uint32_t a = 0; a < c.nargs && !r->bad; a++) vec_push(&tu->argmasks, bytes_get_uleb(r));
      c.moff = get_idx(r, UINT32_MAX);
      vec_push(&tu->pcalls, c);
    }
  }
}

/* Each store and call must name a function, effect and string that exist. */
static void decode_field_facts(reader *r, sum_tu *tu, uint32_t ns)
{
  uint64_t n = bytes_get_uleb(r);
  if (n > (uint64_t)(r->end - r->p) / 4) { r->bad = 1; return; }
  for (uint64_t i = 0; i < n && !r->bad; i++) {
    sum_fstore s;
    s.field = get_idx(r, ns); s.func = get_idx(r, tu->funcs.n + 1); s.kind = (uint8_t)get_idx(r, SFS_ESCAPE + 1);
    bool fn = sum_fstore_names_func(&s);
    s.value = get_idx(r, fn ? tu->funcs.n : s.kind == SFA_PARAM ? PROV_MAX_PARAMS : 1);
    if (s.kind == SFA_PARAM && !s.func) r->bad = 1;
    vec_push(&tu->fstores, s);
  }
  n = bytes_get_uleb(r);
  if (n > (uint64_t)(r->end - r->p) / 4) { r->bad = 1; return; }
  for (uint64_t i = 0; i < n && !r->bad; i++) {
    sum_fcall c;
    c.func = get_idx(r, tu->funcs.n);
    c.eff = get_idx(r, r->bad ? 1 : tu->funcs.v[c.func].neff);
    c.field = get_idx(r, ns); c.nargs = get_idx(r, 1 << 16);
    c.arg_off = (uint32_t)tu->argmasks.n;
    if (c.nargs > (uint64_t)(r->end - r->p)) { r->bad = 1; return; }
    for (uint32_t a = 0; a < c.nargs && !r->bad; a++) vec_push(&tu->argmasks, bytes_get_uleb(r));
    vec_push(&tu->fcalls, c);
  }
}

/* Each record names a function that exists, twice. */
static void decode_rmembers(reader *r, sum_tu *tu)
{
  uint64_t n = bytes_get_uleb(r);
  if (n > (uint64_t)(r->end - r->p) / 4) { r->bad = 1; return; }
  for (uint64_t i = 0; i < n && !r->bad; i++) {
    sum_rmember m;
    m.func = get_idx(r, tu->funcs.n); m.moff = get_idx(r, UINT32_MAX); m.kind = (uint8_t)get_idx(r, SFA_NULL + 1);
    m.value = get_idx(r, m.kind == SFA_FUNC ? tu->funcs.n : 1);
    if (m.kind != SFA_FUNC && m.kind != SFA_NULL) r->bad = 1;
    vec_push(&tu->rmembers, m);
  }
}

/* Decodes a payload (uncompressed); NULL if it is malformed. */
static sum_tu *decode_payload(const unsigned char *payload, uint64_t plen)
{
  reader r = { payload, payload + plen, 0 };
  sum_tu *tu = summary_new();
  tu->flags = (uint32_t)bytes_get_uleb(&r);
  uint64_t main_file = bytes_get_uleb(&r);
  uint64_t ns = bytes_get_uleb(&r);
  if (ns == 0 || ns > plen + 1 || main_file >= ns) r.bad = 1;
  if (!r.bad) {   /* sized once: the count is known, the strings lie within the payload */
    strtab_free(tu->strs);
    tu->strs = strtab_new_sized((size_t)ns - 1, (size_t)(r.end - r.p));
    decode_strings(&r, tu, (uint32_t)ns);
  }
  tu->main_file = r.bad ? 0 : (uint32_t)main_file;
  uint64_t nf = r.bad ? 0 : bytes_get_uleb(&r);
  if (nf > plen) r.bad = 1;
  if (!r.bad) decode_funcs(&r, tu, (uint32_t)ns, nf);
  if (!r.bad) decode_bodies(&r, tu, (uint32_t)ns);
  if (!r.bad) decode_decls(&r, tu, (uint32_t)ns);
  if (!r.bad) decode_attrs(&r, tu, (uint32_t)ns);
  if (!r.bad) decode_macros_files(&r, tu, (uint32_t)ns);
  if (!r.bad) decode_fnptr_facts(&r, tu);
  if (!r.bad) decode_field_facts(&r, tu, (uint32_t)ns);
  if (!r.bad) decode_rmembers(&r, tu);
  if (r.bad || r.p != r.end) {
    summary_free(tu);
    return NULL;
  }
  return tu;
}

/* Decodes a SUMMARY_ZSTD payload: one frame that states its size. */
static sum_tu *decode_packed(const unsigned char *z, uint64_t zlen, char **err)
{
  unsigned long long n = ZSTD_getFrameContentSize(z, zlen);
  if (n == ZSTD_CONTENTSIZE_ERROR || n == ZSTD_CONTENTSIZE_UNKNOWN || n == 0 || n > ZSTD_MAX_PAYLOAD) {
    *err = xstrdup("malformed summary payload (not a zstd frame of a known size)");
    return NULL;
  }
  unsigned char *raw = xmalloc((size_t)n);
  size_t got = ZSTD_decompress(raw, (size_t)n, z, zlen);
  sum_tu *tu = !ZSTD_isError(got) && got == n ? decode_payload(raw, n) : NULL;
  free(raw);
  if (!tu) *err = xstrdup(ZSTD_isError(got) ? "malformed summary payload (zstd cannot unpack it)"
                                            : "malformed summary payload");
  return tu;
}

/* summary_decode; verify: compute the payload's checksum. */
static sum_tu *summary_decode_at(const unsigned char *buf, size_t len, size_t *pos, char **err, bool verify)
{
  size_t at = *pos;
  if (at > len || len - at < HEADER_LEN || memcmp(buf + at, SUMMARY_MAGIC, 8) != 0) {
    *err = xstrdup("not a purist summary (bad magic)");
    return NULL;
  }
  const unsigned char *h = buf + at;
  uint64_t ver = get_le(h + 8, 4), plen = get_le(h + 16, 8), sum = get_le(h + 24, 8);
  if (ver != SUMMARY_FORMAT) {
    *err = xasprintf("summary format version %llu, this purist reads version %d",
                     (unsigned long long)ver, SUMMARY_FORMAT);
    return NULL;
  }
  uint64_t flags = get_le(h + 12, 4);
  if (flags & ~(uint64_t)SUMMARY_ZSTD) { *err = xstrdup("bad header: unknown flags"); return NULL; }
  if (plen > len - at - HEADER_LEN) { *err = xstrdup("truncated summary"); return NULL; }
  const unsigned char *payload = h + HEADER_LEN;
  if (verify && XXH64(payload, plen, 0) != sum) { *err = xstrdup("bad checksum: the summary is damaged"); return NULL; }
  sum_tu *tu;
  if (flags & SUMMARY_ZSTD) tu = decode_packed(payload, plen, err);
  else if (!(tu = decode_payload(payload, plen))) *err = xstrdup("malformed summary payload");
  if (tu) *pos = at + HEADER_LEN + plen;
  return tu;
}

sum_tu *summary_decode(const unsigned char *buf, size_t len, size_t *pos, char **err)
{
  return summary_decode_at(buf, len, pos, err, true);
}

sum_tu *summary_decode_verified(const unsigned char *buf, size_t len, size_t *pos, char **err)
{
  return summary_decode_at(buf, len, pos, err, false);
}

int summary_peek_flags(const unsigned char *buf, size_t len, uint32_t *flags)
{
  if (len < HEADER_LEN || memcmp(buf, SUMMARY_MAGIC, 8) != 0) return -1;
  if (get_le(buf + 8, 4) != SUMMARY_FORMAT || get_le(buf + 12, 4) != 0) return -1;   /* packed: decode */
  uint64_t plen = get_le(buf + 16, 8);
  if (plen > len - HEADER_LEN) return -1;
  reader r = { buf + HEADER_LEN, buf + HEADER_LEN + plen, 0 };
  uint64_t f = bytes_get_uleb(&r);
  if (r.bad || f > UINT32_MAX) return -1;
  *flags = (uint32_t)f;
  return 0;
}
