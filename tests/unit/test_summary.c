/* test_summary.c — unit tests of the summary format (src/summary/summary.h,
 * summary_io.c, docs/summary-format.md): round trips compare equal field by
 * field, records concatenate, and damaged or foreign bytes are refused with
 * a message. Every decode reads from a buffer allocated to its exact length,
 * so AddressSanitizer reports any read past `len`. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>
#include "summary/summary.h"
#include <xxhash.h>

enum { HEADER_LEN = 32 };

/* ---- building summaries ---- */

static sum_loc loc(uint32_t file, uint32_t line, uint32_t col)
{
  sum_loc l = { file, line, col };
  return l;
}

static void add_func(sum_tu *tu, uint32_t name, uint32_t keyfile, sum_loc l, uint8_t linkage,
                     uint8_t declared, uint16_t flags, uint16_t nparams)
{
  sum_func f = { name, keyfile, l, linkage, declared, flags, nparams,
                 (uint32_t)tu->effs.n, 0, (uint32_t)tu->calls.n, 0, 0, 0, 0, 0,
                 (uint64_t)nparams << 58 | 1, (uint8_t)((nparams & 3) | (nparams == 1 ? SSF_ERRNO_KEPT : 0)),   /* format 13 */
                 (uint64_t)nparams << 40, (uint64_t)1 << 5, nparams ? PROV_FRESH : 0 };   /* format 18 */
  vec_push(&tu->funcs, f);
}

/* Effects and calls belong to the function added last, in order. */
static void add_effect(sum_tu *tu, uint8_t kind, uint16_t flags, uint8_t obj, uint8_t param,
                       uint32_t name, sum_loc l)
{
  sum_effect e = { .kind = kind, .flags = flags, .obj = obj, .param = param, .name = name,
                   .guard = name, .macro = name, .loc = l };
  vec_push(&tu->effs, e);
  tu->funcs.v[tu->funcs.n - 1].neff++;
}

static void add_call(sum_tu *tu, uint32_t callee, uint16_t flags, sum_loc l,
                     const uint64_t *masks, uint32_t nargs)
{
  sum_call c = { .callee = callee, .flags = flags, .use = (uint8_t)(nargs % 4),
                 .arg_off = (uint32_t)tu->argmasks.n, .nargs = nargs, .guard = 0,
                 .same_as = nargs, .eff_pos = 1, .loop_eff_lo = 2, .loop_eff_hi = 300,
                 .loop_call_lo = 4, .loop_call_hi = 5, .macro = callee ? 1 : 0,
                 .inl_callee = callee + 1, .inl_same = nargs + 2,
                 .arm_eff_lo = nargs, .arm_eff_hi = nargs + 3, .arm_call_lo = 1, .arm_call_hi = callee + 2,
                 .hoist_same = nargs + 1, .hoist_t_eff = 7, .hoist_t_call = callee + 3, .hoist_e_eff = 9,
                 .hoist_e_call = nargs + 4, .hoist_dep_t = callee + 5, .hoist_dep_e = 6,
                 .late_lo = callee + 1, .late_hi = nargs + 2, .hoist_mem = 1,   /* format 13 */
                 .nonnull = nargs ? ((uint64_t)1 << 63) | 1 : 0,   /* nonnull: format 14; use up to 3: 15 */
                 .pte_join = nargs ? (uint64_t)1 << 62 : 0, .pte_group = nargs + 7,   /* format 19 */
                 .spell_macro = callee ? 1 : 0, .loc = l };   /* format 20 */
  for (uint32_t i = 0; i < SUM_CALL_NMASKS(&c); i++) vec_push(&tu->argmasks, masks[i]);
  vec_push(&tu->calls, c);
  tu->funcs.v[tu->funcs.n - 1].ncall++;
}

static void add_decl(sum_tu *tu, uint32_t func, sum_loc l, uint8_t declared, uint8_t is_def)
{
  sum_decl d = { .func = func, .loc = l, .declared = declared, .is_def = is_def };
  vec_push(&tu->decls, d);
}

/* The facts fix needs: an attribute on the last declaration, a macro, a
 * file hash that uses all 64 bits. */
static void add_fix_facts(sum_tu *tu, uint32_t file)
{
  sum_decl *d = &tu->decls.v[tu->decls.n - 1];
  d->dflags = SDF_MACRO_NAME | SDF_KNR | SDF_CONFIG | SDF_CFG_PURE_OK;   /* format 22 */
  d->beg_line = 1; d->beg_col = 1; d->end_line = 3; d->end_col = 200;
  d->macro_pure = strtab_intern(tu->strs, "MY_PURE");
  d->macro_unseq = strtab_intern(tu->strs, "MY_UNSEQ");   /* format 4 */
  d->spelled = strtab_intern(tu->strs, "my_short_name");   /* format 12 */
  d->declared |= SUM_DECL_UNSEQUENCED;
  d->attr_off = (uint32_t)tu->attrs.n;
  d->nattr = 2;
  sum_attr a = { SUM_DECL_PURE, SA_C23, d->macro_pure, 2, 7, 2, 14 };
  vec_push(&tu->attrs, a);
  sum_attr u = { SUM_DECL_UNSEQUENCED, SA_STD, d->macro_unseq, 2, 20, 2, 28 };
  vec_push(&tu->attrs, u);
  sum_macro m = { d->macro_pure, SUM_DECL_PURE, SA_C23, 1, SMO_CMDLINE };
  vec_push(&tu->macros, m);
  sum_macro mu = { d->macro_unseq, SUM_DECL_UNSEQUENCED, SA_STD, 0, SMO_FILE };
  vec_push(&tu->macros, mu);
  sum_file f = { file, 0xfedcba9876543210ull, 1 };
  vec_push(&tu->files, f);
}

/* A small TU that uses every kind of record and values that need
 * multi-byte varints (long string, big line numbers, high provenance bits). */
/* Function-pointer facts (format 4) of function fi: a function and a
 * parameter passed, and a call through parameter 1 (effect 1). */
static void add_fnptr_facts(sum_tu *tu, uint32_t fi, const uint64_t *masks)
{
  sum_func *f = &tu->funcs.v[fi];
  sum_fnarg a1 = { 0, 0, SFA_FUNC, 1 }, a2 = { 1, 2, SFA_PARAM, 1 };
  f->fnarg_off = (uint32_t)tu->fnargs.n;
  vec_push(&tu->fnargs, a1);
  vec_push(&tu->fnargs, a2);
  f->nfnarg = 2;
  sum_pcall c = { 1, 1, (uint32_t)tu->argmasks.n, 3, 17 };   /* moff (format 17): a member at byte 16 */
  for (int i = 0; i < 3; i++) vec_push(&tu->argmasks, masks[i]);
  f->pcall_off = (uint32_t)tu->pcalls.n;
  vec_push(&tu->pcalls, c);
  f->npcall = 1;
}

/* Function-pointer field facts (format 8): a store of each kind and one
 * call through a field, with argument masks (they follow the pcalls'). */
static void add_field_facts(sum_tu *tu, const uint64_t *masks)
{
  uint32_t field = strtab_intern(tu->strs, "c:@S@table@FI@hash");
  sum_fstore s[] = { { field, 1, SFA_FUNC, 1 }, { field, 1, SFA_PARAM, 1 }, { field, 0, SFA_NULL, 0 },
                     { field, 0, SFS_UNKNOWN, 0 }, { 0, 0, SFS_ADDR, 3 }, { 0, 2, SFS_ANY, 1 } };
  for (size_t i = 0; i < sizeof s / sizeof *s; i++) vec_push(&tu->fstores, s[i]);
  sum_fcall c = { 0, 2, field, (uint32_t)tu->argmasks.n, 2 };
  for (int i = 0; i < 2; i++) vec_push(&tu->argmasks, masks[i]);
  vec_push(&tu->fcalls, c);
  /* What a lookup returns (format 17): a function at byte 8, null at 16. */
  sum_rmember r[] = { { 0, 8, SFA_FUNC, 1 }, { 0, 16, SFA_NULL, 0 } };
  for (size_t i = 0; i < sizeof r / sizeof *r; i++) vec_push(&tu->rmembers, r[i]);
}

static sum_tu *sample_tu(void)
{
  sum_tu *tu = summary_new();
  strtab *s = tu->strs;
  uint32_t file = strtab_intern(s, "/src/a.c");
  uint32_t fmain = strtab_intern(s, "main"), fhelp = strtab_intern(s, "helper");
  uint32_t glob = strtab_intern(s, "g_counter"), p = strtab_intern(s, "p");
  uint32_t hdr = strtab_intern(s, "/usr/include/stdio.h"), fprintf_ = strtab_intern(s, "printf");
  char longname[301];
  memset(longname, 'n', 300);
  longname[300] = '\0';
  uint32_t flong = strtab_intern(s, longname);
  strtab_intern(s, "\xc3\xbcnic\xc3\xb6" "de");
  tu->main_file = file;
  tu->flags = STF_NO_MATH_ERRNO;

  uint64_t m1[] = { prov_param(0) | PROV_LOCAL };
  uint64_t m3[] = { PROV_RODATA, PROV_UNKNOWN, (uint64_t)1 << 63 };
  add_func(tu, fmain, 0, loc(file, 10, 5), SUM_EXTERNAL, 0, SFF_BODY, 2);
  add_effect(tu, SE_READ_GLOBAL, 0, SO_GLOBAL, 0, glob, loc(file, 11, 3));
  add_effect(tu, SE_READ_CONST, SEF_FROZEN, SO_FILE_STATIC, 0, glob, loc(file, 11, 9));   /* flag bit 9 (format 7) */
  add_effect(tu, SE_WRITE_PARAM, SEF_DOOMED | SEF_LEAVES, SO_NONE, 1, p, loc(file, 12, 7));
  add_call(tu, 1, 0, loc(file, 13, 3), m1, 1);
  add_call(tu, 2, SCF_DOOMED | SCF_NORETURN | SCF_LEAVES, loc(file, 14, 3), m3, 3);   /* a flag past 8 bits (format 6) */
  /* format 12: an effect through the pointer parameter 1 points to
   * (virtual parameter 2 + 1), and a call carrying pointee masks (its
   * argument masks, then as many pointee masks) */
  add_effect(tu, SE_WRITE_PARAM, SEF_PTE, SO_NONE, 3, p, loc(file, 15, 5));
  uint64_t m2pte[] = { PROV_LOCAL, prov_param(0), PROV_UNKNOWN, PROV_LOCAL | PROV_FRESH };
  add_call(tu, 1, SCF_PTE | SCF_ALLOC | SCF_FIELDS_APART, loc(file, 16, 3), m2pte, 2);
  add_func(tu, fhelp, file, loc(file, 3, 12), SUM_INTERNAL, SUM_DECL_PURE | SUM_DECL_CONST,
           SFF_BODY | SFF_VOID | SFF_INLINE | SFF_BUILTIN_CONST, 1);
  add_effect(tu, SE_LOOP, 0, SO_NONE, 0, 0, loc(file, 4, 1));
  add_func(tu, fprintf_, 0, loc(hdr, 300000, 1), SUM_EXTERNAL, 0, SFF_SYSTEM | SFF_VARIADIC, 1);
  add_func(tu, flong, 0, loc(file, 200, 130), SUM_EXTERNAL, SUM_DECL_PURE,
           SFF_BODY | SFF_WEAK | SFF_NORETURN | SFF_BUILTIN_PURE, 0);
  add_effect(tu, SE_ASM, 0, SO_NONE, 0, 0, loc(file, 201, 3));
  add_call(tu, 3, 0, loc(file, 202, 3), NULL, 0);
  add_decl(tu, 1, loc(file, 3, 12), SUM_DECL_PURE | SUM_DECL_CONST, 1);
  add_decl(tu, 0, loc(file, 10, 5), 0, 1);
  add_decl(tu, 3, loc(file, 1, 1), SUM_DECL_PURE, 0);
  add_fix_facts(tu, file);
  add_fnptr_facts(tu, 0, m3);   /* last: the reader puts their argument masks after the calls' */
  add_field_facts(tu, m3);
  return tu;
}

/* ---- comparing summaries ---- */

static void assert_loc_equal(sum_loc a, sum_loc b)
{
  assert_int_equal(a.file, b.file);
  assert_int_equal(a.line, b.line);
  assert_int_equal(a.col, b.col);
}

static void assert_strings_equal(const sum_tu *a, const sum_tu *b)
{
  assert_int_equal(strtab_count(a->strs), strtab_count(b->strs));
  for (uint32_t i = 0; i < strtab_count(a->strs); i++) {
    assert_int_equal(strtab_len(a->strs, i), strtab_len(b->strs, i));
    assert_memory_equal(strtab_get(a->strs, i), strtab_get(b->strs, i), strtab_len(a->strs, i) + 1);
  }
}

static void assert_funcs_equal(const sum_tu *a, const sum_tu *b)
{
  assert_int_equal(a->funcs.n, b->funcs.n);
  for (size_t i = 0; i < a->funcs.n; i++) {
    const sum_func *x = &a->funcs.v[i], *y = &b->funcs.v[i];
    assert_int_equal(x->name, y->name);
    assert_int_equal(x->keyfile, y->keyfile);
    assert_loc_equal(x->loc, y->loc);
    assert_int_equal(x->linkage, y->linkage);
    assert_int_equal(x->declared, y->declared);
    assert_int_equal(x->flags, y->flags);
    assert_int_equal(x->nparams, y->nparams);
    assert_true(x->captures == y->captures);
    assert_int_equal(x->sflags, y->sflags);
    assert_true(x->pinto == y->pinto && x->pstores == y->pstores && x->ownc == y->ownc);
    assert_int_equal(x->eff_off, y->eff_off);
    assert_int_equal(x->neff, y->neff);
    assert_int_equal(x->call_off, y->call_off);
    assert_int_equal(x->ncall, y->ncall);
  }
}

static void assert_effects_equal(const sum_tu *a, const sum_tu *b)
{
  assert_int_equal(a->effs.n, b->effs.n);
  for (size_t i = 0; i < a->effs.n; i++) {
    const sum_effect *x = &a->effs.v[i], *y = &b->effs.v[i];
    assert_int_equal(x->kind, y->kind);
    assert_int_equal(x->flags, y->flags);
    assert_int_equal(x->obj, y->obj);
    assert_int_equal(x->param, y->param);
    assert_int_equal(x->name, y->name);
    assert_int_equal(x->guard, y->guard);
    assert_loc_equal(x->loc, y->loc);
  }
}

static void assert_calls_equal(const sum_tu *a, const sum_tu *b)
{
  assert_int_equal(a->calls.n, b->calls.n);
  for (size_t i = 0; i < a->calls.n; i++) {
    const sum_call *x = &a->calls.v[i], *y = &b->calls.v[i];
    assert_int_equal(x->callee, y->callee);
    assert_int_equal(x->flags, y->flags);
    assert_int_equal(x->arg_off, y->arg_off);
    assert_int_equal(x->nargs, y->nargs);
    assert_int_equal(x->use, y->use);
    assert_int_equal(x->guard, y->guard);
    assert_int_equal(x->same_as, y->same_as);
    assert_int_equal(x->eff_pos, y->eff_pos);
    assert_int_equal(x->loop_eff_lo, y->loop_eff_lo);
    assert_int_equal(x->loop_eff_hi, y->loop_eff_hi);
    assert_int_equal(x->loop_call_lo, y->loop_call_lo);
    assert_int_equal(x->loop_call_hi, y->loop_call_hi);
    assert_int_equal(x->inl_callee, y->inl_callee);
    assert_int_equal(x->inl_same, y->inl_same);
    assert_int_equal(x->arm_eff_lo, y->arm_eff_lo); assert_int_equal(x->arm_eff_hi, y->arm_eff_hi);
    assert_int_equal(x->arm_call_lo, y->arm_call_lo); assert_int_equal(x->arm_call_hi, y->arm_call_hi);
    assert_int_equal(x->hoist_same, y->hoist_same);
    assert_int_equal(x->hoist_t_eff, y->hoist_t_eff); assert_int_equal(x->hoist_t_call, y->hoist_t_call);
    assert_int_equal(x->hoist_e_eff, y->hoist_e_eff); assert_int_equal(x->hoist_e_call, y->hoist_e_call);
    assert_int_equal(x->hoist_dep_t, y->hoist_dep_t); assert_int_equal(x->hoist_dep_e, y->hoist_dep_e);
    assert_int_equal(x->late_lo, y->late_lo); assert_int_equal(x->late_hi, y->late_hi);
    assert_int_equal(x->hoist_mem, y->hoist_mem);
    assert_true(x->nonnull == y->nonnull);
    assert_true(x->pte_join == y->pte_join);
    assert_true(x->pte_group == y->pte_group);
    assert_loc_equal(x->loc, y->loc);
  }
  assert_int_equal(a->argmasks.n, b->argmasks.n);
  for (size_t i = 0; i < a->argmasks.n; i++) assert_int_equal(a->argmasks.v[i], b->argmasks.v[i]);
}

static void assert_decls_equal(const sum_tu *a, const sum_tu *b)
{
  assert_int_equal(a->decls.n, b->decls.n);
  for (size_t i = 0; i < a->decls.n; i++) {
    const sum_decl *x = &a->decls.v[i], *y = &b->decls.v[i];
    assert_int_equal(x->func, y->func);
    assert_loc_equal(x->loc, y->loc);
    assert_int_equal(x->declared, y->declared);
    assert_int_equal(x->is_def, y->is_def);
    assert_int_equal(x->dflags, y->dflags);
    assert_int_equal(x->beg_line, y->beg_line); assert_int_equal(x->beg_col, y->beg_col);
    assert_int_equal(x->end_line, y->end_line); assert_int_equal(x->end_col, y->end_col);
    assert_int_equal(x->attr_off, y->attr_off); assert_int_equal(x->nattr, y->nattr);
    assert_int_equal(x->macro_pure, y->macro_pure); assert_int_equal(x->macro_const, y->macro_const);
    assert_int_equal(x->macro_repro, y->macro_repro); assert_int_equal(x->macro_unseq, y->macro_unseq);
    assert_int_equal(x->spelled, y->spelled);
  }
  assert_int_equal(a->attrs.n, b->attrs.n);
  for (size_t i = 0; i < a->attrs.n; i++) {
    const sum_attr *x = &a->attrs.v[i], *y = &b->attrs.v[i];
    assert_int_equal(x->kind, y->kind); assert_int_equal(x->form, y->form); assert_int_equal(x->macro, y->macro);
    assert_int_equal(x->beg_line, y->beg_line); assert_int_equal(x->beg_col, y->beg_col);
    assert_int_equal(x->end_line, y->end_line); assert_int_equal(x->end_col, y->end_col);
  }
  assert_int_equal(a->macros.n, b->macros.n);
  for (size_t i = 0; i < a->macros.n; i++) {
    const sum_macro *x = &a->macros.v[i], *y = &b->macros.v[i];
    assert_int_equal(x->name, y->name); assert_int_equal(x->kind, y->kind);
    assert_int_equal(x->form, y->form); assert_int_equal(x->system, y->system);
    assert_int_equal(x->origin, y->origin);
  }
  assert_int_equal(a->files.n, b->files.n);
  for (size_t i = 0; i < a->files.n; i++) {
    assert_int_equal(a->files.v[i].file, b->files.v[i].file);
    assert_true(a->files.v[i].hash == b->files.v[i].hash);
    assert_int_equal(a->files.v[i].generated, b->files.v[i].generated);
  }
}

static void assert_fnptr_equal(const sum_tu *a, const sum_tu *b)
{
  for (size_t f = 0; f < a->funcs.n; f++) {
    const sum_func *fa = &a->funcs.v[f], *fb = &b->funcs.v[f];
    assert_int_equal(fa->nfnarg, fb->nfnarg);
    assert_int_equal(fa->npcall, fb->npcall);
    for (uint32_t i = 0; i < fa->nfnarg; i++) {
      const sum_fnarg *x = &a->fnargs.v[fa->fnarg_off + i], *y = &b->fnargs.v[fb->fnarg_off + i];
      assert_int_equal(x->call, y->call);
      assert_int_equal(x->arg, y->arg);
      assert_int_equal(x->kind, y->kind);
      assert_int_equal(x->value, y->value);
    }
    for (uint32_t i = 0; i < fa->npcall; i++) {
      const sum_pcall *x = &a->pcalls.v[fa->pcall_off + i], *y = &b->pcalls.v[fb->pcall_off + i];
      assert_int_equal(x->eff, y->eff);
      assert_int_equal(x->param, y->param);
      assert_int_equal(x->nargs, y->nargs);
      assert_int_equal(x->moff, y->moff);
      for (uint32_t k = 0; k < x->nargs; k++)
        assert_int_equal(a->argmasks.v[x->arg_off + k], b->argmasks.v[y->arg_off + k]);
    }
  }
}

static void assert_fields_equal(const sum_tu *a, const sum_tu *b)
{
  assert_int_equal(a->fstores.n, b->fstores.n);
  for (size_t i = 0; i < a->fstores.n; i++) {
    const sum_fstore *x = &a->fstores.v[i], *y = &b->fstores.v[i];
    assert_int_equal(x->field, y->field);
    assert_int_equal(x->func, y->func);
    assert_int_equal(x->kind, y->kind);
    assert_int_equal(x->value, y->value);
  }
  assert_int_equal(a->fcalls.n, b->fcalls.n);
  for (size_t i = 0; i < a->fcalls.n; i++) {
    const sum_fcall *x = &a->fcalls.v[i], *y = &b->fcalls.v[i];
    assert_int_equal(x->func, y->func);
    assert_int_equal(x->eff, y->eff);
    assert_int_equal(x->field, y->field);
    assert_int_equal(x->nargs, y->nargs);
    for (uint32_t k = 0; k < x->nargs; k++)
      assert_int_equal(a->argmasks.v[x->arg_off + k], b->argmasks.v[y->arg_off + k]);
  }
  assert_int_equal(a->rmembers.n, b->rmembers.n);
  for (size_t i = 0; i < a->rmembers.n; i++) {
    const sum_rmember *x = &a->rmembers.v[i], *y = &b->rmembers.v[i];
    assert_int_equal(x->func, y->func);
    assert_int_equal(x->moff, y->moff);
    assert_int_equal(x->kind, y->kind);
    assert_int_equal(x->value, y->value);
  }
}

static void assert_tu_equal(const sum_tu *a, const sum_tu *b)
{
  assert_int_equal(a->main_file, b->main_file);
  assert_int_equal(a->flags, b->flags);
  assert_strings_equal(a, b);
  assert_funcs_equal(a, b);
  assert_effects_equal(a, b);
  assert_calls_equal(a, b);
  assert_decls_equal(a, b);
  assert_fnptr_equal(a, b);
  assert_fields_equal(a, b);
}

/* ---- decoding helpers ---- */

/* Decodes one record from an exact-size copy of buf[0..len) starting at 0.
 * Returns the summary or NULL; on NULL, *err is the message. */
static sum_tu *decode_copy(const unsigned char *buf, size_t len, size_t *pos, char **err)
{
  unsigned char *copy = malloc(len ? len : 1);
  if (len) memcpy(copy, buf, len);
  *err = NULL;
  sum_tu *tu = summary_decode(copy, len, pos, err);
  free(copy);
  return tu;
}

/* Asserts that buf[0..len) is refused with a non-empty message and that the
 * position is not advanced. */
static void assert_refused(const unsigned char *buf, size_t len)
{
  size_t pos = 0;
  char *err = NULL;
  sum_tu *tu = decode_copy(buf, len, &pos, &err);
  assert_null(tu);
  assert_non_null(err);
  assert_true(err[0] != '\0');
  assert_int_equal(pos, 0);
  free(err);
}

/* Encodes tu, decodes it again and checks the two are equal; returns the
 * encoded length. */
static size_t round_trip(const sum_tu *tu)
{
  size_t len, pos = 0;
  unsigned char *buf = summary_encode(tu, &len);
  char *err = NULL;
  sum_tu *back = decode_copy(buf, len, &pos, &err);
  if (!back) fail_msg("decode refused its own encoding: %s", err);
  assert_int_equal(pos, len);
  assert_tu_equal(tu, back);
  summary_free(back);
  free(buf);
  return len;
}

/* ---- format 5: packed records, pruning ---- */

/* A packed record (header flag 1, zstd) decodes to the same summary and is
 * smaller than the plain one for a summary with repeated text. */
static void test_packed_round_trip(void **state)
{
  sum_tu *tu = sample_tu();
  size_t len, plain, pos = 0;
  unsigned char *buf = summary_encode_packed(tu, &len);
  free(summary_encode(tu, &plain));
  assert_memory_equal(buf + 8, "\26\0\0\0\1\0\0\0", 8);
  assert_true(len < plain);
  char *err = NULL;
  sum_tu *back = decode_copy(buf, len, &pos, &err);
  if (!back) fail_msg("decode refused its own packed encoding: %s", err);
  assert_int_equal(pos, len);
  assert_tu_equal(tu, back);
  summary_free(back);
  free(buf);
  summary_free(tu);
}

/* Rewrites the checksum after an edit, so the decoder gets past it. */
static void reseal(unsigned char *buf, size_t len)
{
  uint64_t h = XXH64(buf + HEADER_LEN, len - HEADER_LEN, 0);
  for (int i = 0; i < 8; i++) buf[24 + i] = (unsigned char)(h >> (8 * i));
}

/* A packed payload that is not a zstd frame, or whose frame is damaged
 * behind a valid checksum, or a header flag this purist does not know:
 * refused with a message, never read as garbage. */
static void test_packed_damage_refused(void **state)
{
  sum_tu *tu = sample_tu();
  size_t len;
  unsigned char *buf = summary_encode_packed(tu, &len);
  for (size_t at = HEADER_LEN; at < len; at++) {
    unsigned char *c = malloc(len);
    memcpy(c, buf, len);
    c[at] ^= 0x5a;
    reseal(c, len);
    size_t pos = 0;
    char *err = NULL;
    sum_tu *back = decode_copy(c, len, &pos, &err);
    if (back) summary_free(back);   /* a flip zstd cannot see may still decode: never a crash */
    else assert_non_null(err);
    free(err);
    free(c);
  }
  buf[12] = 2;
  size_t pos = 0;
  char *err = NULL;
  assert_null(decode_copy(buf, len, &pos, &err));
  assert_non_null(strstr(err, "unknown flags"));
  free(err);
  unsigned char *plain = summary_encode(tu, &len);
  plain[12] = 1;   /* flagged packed, but plain varints */
  pos = 0;
  assert_null(decode_copy(plain, len, &pos, &err));
  assert_non_null(err);
  free(err);
  free(plain);
  free(buf);
  summary_free(tu);
}

/* Pruning keeps what is defined, called, attributed or weak, renumbers the
 * calls and declarations, and drops the strings only the rest named. */
static void test_prune_keeps_what_links(void **state)
{
  sum_tu *tu = sample_tu();
  uint32_t unused = strtab_intern(tu->strs, "never_called");
  add_func(tu, unused, 0, loc(strtab_intern(tu->strs, "/src/unused.h"), 7, 5), SUM_EXTERNAL, 0, 0, 1);
  add_decl(tu, (uint32_t)tu->funcs.n - 1, loc(strtab_find(tu->strs, "/src/unused.h"), 7, 5), 0, 0);
  size_t nf = tu->funcs.n, nd = tu->decls.n;
  summary_prune(tu);
  assert_int_equal(tu->funcs.n, nf - 1);
  assert_int_equal(tu->decls.n, nd - 1);
  assert_true(tu->flags & STF_PRUNED);
  assert_int_equal(strtab_find(tu->strs, "never_called"), UINT32_MAX);
  assert_int_equal(strtab_find(tu->strs, "/src/unused.h"), UINT32_MAX);
  assert_int_equal(strtab_find(tu->strs, "\xc3\xbcnic\xc3\xb6" "de"), UINT32_MAX);
  /* printf, declared in a system header, stays: main calls it. */
  uint32_t pf = strtab_find(tu->strs, "printf");
  assert_int_not_equal(pf, UINT32_MAX);
  assert_int_equal(tu->funcs.v[tu->calls.v[1].callee].name, pf);
  assert_string_equal(strtab_get(tu->strs, tu->funcs.v[0].name), "main");
  assert_string_equal(strtab_get(tu->strs, tu->main_file), "/src/a.c");
  round_trip(tu);
  summary_free(tu);
}

/* ---- tests: round trips ---- */

/* A hand-built summary with functions, effects, calls with argument masks,
 * declarations and strings decodes to the same content, field by field. */
static void test_round_trip_sample(void **state)
{
  sum_tu *tu = sample_tu();
  round_trip(tu);
  summary_free(tu);
}

/* An empty summary (no functions, only the implicit "" string) round-trips. */
static void test_round_trip_empty(void **state)
{
  sum_tu *tu = summary_new();
  size_t len = round_trip(tu);
  assert_true(len > HEADER_LEN);
  summary_free(tu);
}

/* The record header is the documented one: magic "PURIST\0S", the version,
 * flags 0 (not packed), the payload length, and the total length matches. */
static void test_header_layout(void **state)
{
  sum_tu *tu = sample_tu();
  size_t len;
  unsigned char *buf = summary_encode(tu, &len);
  assert_memory_equal(buf, "PURIST\0S", 8);
  assert_memory_equal(buf + 8, "\26\0\0\0", 4);
  assert_memory_equal(buf + 12, "\0\0\0\0", 4);
  uint64_t plen = 0;
  for (int i = 0; i < 8; i++) plen |= (uint64_t)buf[16 + i] << (8 * i);
  assert_int_equal(plen, len - HEADER_LEN);
  free(buf);
  summary_free(tu);
}

/* A function with many calls to a zero-argument function on short lines
 * (each call takes 6 payload bytes) must round-trip: a valid summary of an
 * ordinary small file is never refused. */
static void test_round_trip_many_zero_arg_calls(void **state)
{
  sum_tu *tu = summary_new();
  uint32_t file = strtab_intern(tu->strs, "/src/t.c");
  tu->main_file = file;
  add_func(tu, strtab_intern(tu->strs, "tick"), 0, loc(file, 1, 6), SUM_EXTERNAL, 0, 0, 0);
  add_func(tu, strtab_intern(tu->strs, "run"), 0, loc(file, 2, 6), SUM_EXTERNAL, 0, SFF_BODY, 0);
  for (uint32_t i = 0; i < 40; i++) add_call(tu, 0, 0, loc(file, 3 + i, 3), NULL, 0);
  round_trip(tu);
  summary_free(tu);
}

/* A larger summary (thousands of functions, effects and calls, a thousand
 * strings) round-trips. */
static void test_round_trip_large(void **state)
{
  sum_tu *tu = summary_new();
  char name[32];
  uint32_t file = strtab_intern(tu->strs, "/src/big.c");
  tu->main_file = file;
  for (uint32_t i = 0; i < 1000; i++) {
    snprintf(name, sizeof name, "f%u", i);
    uint32_t id = strtab_intern(tu->strs, name);
    add_func(tu, id, 0, loc(file, 10 * i + 1, 1), SUM_EXTERNAL, 0, SFF_BODY, (uint16_t)(i % 5));
    add_effect(tu, (uint8_t)(i % SE_KIND_COUNT), 0, SO_NONE, (uint8_t)(i % 4), id, loc(file, 10 * i + 2, 9));
    uint64_t masks[2] = { prov_param(i % 70), PROV_LOCAL };
    add_call(tu, (i * 7) % 1000, 0, loc(file, 10 * i + 3, 5), masks, i % 3);
    add_decl(tu, i, loc(file, 10 * i + 1, 1), 0, 1);
  }
  round_trip(tu);
  summary_free(tu);
}

/* Several records concatenated decode one after another, each advancing the
 * position to the start of the next, ending exactly at the end. */
static void test_concatenated_records(void **state)
{
  sum_tu *a = sample_tu(), *b = summary_new(), *c = sample_tu();
  c->flags = STF_PARSE_FAILED;
  const sum_tu *in[3] = { a, b, c };
  unsigned char *all = NULL;
  size_t total = 0, ends[3];
  for (int i = 0; i < 3; i++) {
    size_t len;
    unsigned char *buf = summary_encode(in[i], &len);
    all = realloc(all, total + len);
    memcpy(all + total, buf, len);
    total += len;
    ends[i] = total;
    free(buf);
  }
  unsigned char *exact = malloc(total);
  memcpy(exact, all, total);
  size_t pos = 0;
  for (int i = 0; i < 3; i++) {
    char *err = NULL;
    sum_tu *back = summary_decode(exact, total, &pos, &err);
    if (!back) fail_msg("record %d refused: %s", i, err);
    assert_int_equal(pos, ends[i]);
    assert_tu_equal(in[i], back);
    summary_free(back);
  }
  free(exact);
  free(all);
  summary_free(a); summary_free(b); summary_free(c);
}

/* summary_write appends records to a FILE; reading the file back yields the
 * same bytes summary_encode produces, twice over. */
static void test_write_appends_records(void **state)
{
  sum_tu *tu = sample_tu();
  FILE *f = tmpfile();
  assert_non_null(f);
  assert_int_equal(summary_write(tu, f), 0);
  assert_int_equal(summary_write(tu, f), 0);
  size_t len;
  unsigned char *buf = summary_encode(tu, &len);
  long size = ftell(f);
  assert_int_equal(size, 2 * len);
  unsigned char *got = malloc(2 * len);
  rewind(f);
  assert_int_equal(fread(got, 1, 2 * len, f), 2 * len);
  assert_memory_equal(got, buf, len);
  assert_memory_equal(got + len, buf, len);
  fclose(f);
  free(got);
  free(buf);
  summary_free(tu);
}

/* ---- tests: refusing damaged input ---- */

/* Flipping any bit of any byte of a record (header or payload, including
 * magic, version, reserved field, length and checksum), or all bits of it,
 * makes decode refuse the record with a message. A decode that accepts must
 * at least return unchanged content; the test names every offset accepted. */
static void test_every_byte_corruption_refused(void **state)
{
  sum_tu *tu = sample_tu();
  size_t len;
  unsigned char *buf = summary_encode(tu, &len);
  static const unsigned char masks[] = { 0x01, 0x02, 0x04, 0x08, 0x10, 0x20, 0x40, 0x80, 0xff };
  int accepted = 0;
  for (size_t i = 0; i < len; i++) {
    int here = 0;
    for (size_t m = 0; m < sizeof masks; m++) {
      buf[i] ^= masks[m];
      size_t pos = 0;
      char *err = NULL;
      sum_tu *back = decode_copy(buf, len, &pos, &err);
      buf[i] ^= masks[m];
      if (back) {
        here++;
        assert_tu_equal(tu, back);   /* at the very least the content is intact */
        summary_free(back);
      } else {
        assert_non_null(err);
        assert_true(err[0] != '\0');
        assert_int_equal(pos, 0);
        free(err);
      }
    }
    if (here) print_error("byte %zu of %zu: %d of %zu flips accepted\n", i, len, here, sizeof masks);
    accepted += here;
  }
  free(buf);
  summary_free(tu);
  if (accepted) fail_msg("%d corrupted records were accepted", accepted);
}

/* A record cut short at any length (including inside the header) is refused
 * with a message and without reading past the end. */
static void test_truncation_refused(void **state)
{
  sum_tu *tu = sample_tu();
  size_t len;
  unsigned char *buf = summary_encode(tu, &len);
  for (size_t cut = 0; cut < len; cut++) assert_refused(buf, cut);
  free(buf);
  summary_free(tu);
}

/* Junk after the last record (here: text) is refused as not a summary. */
static void test_trailing_junk_refused(void **state)
{
  static const unsigned char junk[] = "this is not a purist summary, just text";
  assert_refused(junk, sizeof junk - 1);
}

/* A record of another format version is refused with a message naming both
 * the version found and the version this purist reads. */
static void test_wrong_version_names_both(void **state)
{
  sum_tu *tu = sample_tu();
  size_t len, pos = 0;
  unsigned char *buf = summary_encode(tu, &len);
  buf[8] = 21;
  char *err = NULL;
  sum_tu *back = decode_copy(buf, len, &pos, &err);
  assert_null(back);
  assert_non_null(err);
  if (!strstr(err, "version 21") || !strstr(err, "version 22"))
    fail_msg("message does not name versions 21 and 22: %s", err);
  free(err);
  free(buf);
  summary_free(tu);
}

/* A payload whose checksum matches but whose indexes point outside their
 * tables is refused: each case below is encoded faithfully by
 * summary_encode, so only the decoder's own checks can catch it. */
static void assert_encoding_refused(sum_tu *tu, const char *what)
{
  size_t len, pos = 0;
  unsigned char *buf = summary_encode(tu, &len);
  char *err = NULL;
  sum_tu *back = decode_copy(buf, len, &pos, &err);
  free(buf);
  if (back) {
    summary_free(back);
    summary_free(tu);
    fail_msg("accepted a summary with %s", what);
  }
  assert_non_null(err);
  free(err);
  summary_free(tu);
}

/* Out-of-range indexes with a valid checksum: callee, names, files, kinds,
 * declaration targets, main file. */
static void test_bad_indexes_refused(void **state)
{
  sum_tu *tu;
  tu = sample_tu(); tu->calls.v[0].callee = (uint32_t)tu->funcs.n;
  assert_encoding_refused(tu, "a callee past the function table");
  tu = sample_tu(); tu->funcs.v[0].name = strtab_count(tu->strs);
  assert_encoding_refused(tu, "a function name past the string table");
  tu = sample_tu(); tu->effs.v[0].loc.file = strtab_count(tu->strs) + 5;
  assert_encoding_refused(tu, "an effect file past the string table");
  tu = sample_tu(); tu->effs.v[0].kind = SE_KIND_COUNT;
  assert_encoding_refused(tu, "an unknown effect kind");
  tu = sample_tu(); tu->decls.v[0].func = 1000;
  assert_encoding_refused(tu, "a declaration of a function past the table");
  tu = sample_tu(); tu->funcs.v[0].linkage = 2;
  assert_encoding_refused(tu, "an unknown linkage");
  tu = sample_tu(); tu->decls.v[tu->decls.n - 1].nattr = 5;
  assert_encoding_refused(tu, "a declaration's attributes past the table");
  tu = sample_tu(); tu->attrs.v[0].kind = 3;
  assert_encoding_refused(tu, "an attribute neither pure nor const");
  tu = sample_tu(); tu->macros.v[0].name = strtab_count(tu->strs);
  assert_encoding_refused(tu, "a macro name past the string table");
  tu = sample_tu(); tu->macros.v[0].origin = SMO_INCLUDE + 1;
  assert_encoding_refused(tu, "an unknown macro origin");
  tu = sample_tu(); tu->files.v[0].generated = 2;
  assert_encoding_refused(tu, "a file's generated mark neither 0 nor 1");
  tu = sample_tu(); tu->files.v[0].file = strtab_count(tu->strs) + 1;
  assert_encoding_refused(tu, "a hashed file past the string table");
  tu = sample_tu(); tu->fnargs.v[0].call = tu->funcs.v[0].ncall;
  assert_encoding_refused(tu, "a function argument of a call past the function's calls");
  tu = sample_tu(); tu->fnargs.v[0].value = (uint32_t)tu->funcs.n;
  assert_encoding_refused(tu, "a function argument naming a function past the table");
  tu = sample_tu(); tu->pcalls.v[0].eff = tu->funcs.v[0].neff;
  assert_encoding_refused(tu, "a call through a parameter past the function's effects");
}

/* main_file is a string index like the others (docs/summary-format.md:
 * "every count and index in the payload is checked ... a record that fails
 * any check is refused whole"). */
static void test_bad_main_file_refused(void **state)
{
  sum_tu *tu = sample_tu();
  tu->main_file = strtab_count(tu->strs) + 3;
  assert_encoding_refused(tu, "a main file past the string table");
}


/* Decoding at the end of a buffer (pos == len, the loop's last step in a
 * careless reader) is refused, not a crash. */
static void test_decode_at_end_refused(void **state)
{
  sum_tu *tu = summary_new();
  size_t len, pos;
  unsigned char *buf = summary_encode(tu, &len);
  pos = len;
  char *err = NULL;
  sum_tu *back = summary_decode(buf, len, &pos, &err);
  assert_null(back);
  assert_non_null(err);
  assert_int_equal(pos, len);
  free(err);
  free(buf);
  summary_free(tu);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_round_trip_sample),
    cmocka_unit_test(test_round_trip_empty),
    cmocka_unit_test(test_header_layout),
    cmocka_unit_test(test_round_trip_many_zero_arg_calls),
    cmocka_unit_test(test_round_trip_large),
    cmocka_unit_test(test_concatenated_records),
    cmocka_unit_test(test_write_appends_records),
    cmocka_unit_test(test_every_byte_corruption_refused),
    cmocka_unit_test(test_truncation_refused),
    cmocka_unit_test(test_trailing_junk_refused),
    cmocka_unit_test(test_wrong_version_names_both),
    cmocka_unit_test(test_bad_indexes_refused),
    cmocka_unit_test(test_bad_main_file_refused),
    cmocka_unit_test(test_decode_at_end_refused),
    cmocka_unit_test(test_packed_round_trip),
    cmocka_unit_test(test_packed_damage_refused),
    cmocka_unit_test(test_prune_keeps_what_links),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
