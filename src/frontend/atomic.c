/* atomic.c — atomic builtins, judged by what they access (DESIGN.md §2).
 *
 * An atomic load is a read of its object, an atomic store or
 * read-modify-write a write: `__atomic_load_n(&g, …)` makes a function at
 * best pure, `__sync_fetch_and_add(&local, 1)` nothing. The effects carry
 * SEF_ATOMIC and name the atomic's object (`g`, or the pointer it goes
 * through), so a witness says what is shared rather than "an atomic
 * operation", and a once-guard's cache is visible to `check`.
 *
 * The C API does not expose AtomicExpr (the __atomic_* and __c11_atomic_*
 * builtins, which <stdatomic.h>'s macros expand to): it is an
 * UnexposedExpr whose first token, in the macro definition when it comes
 * from one, is the builtin's name. The __sync_* builtins (and a few
 * __atomic_* ones, such as __atomic_clear) are calls of implicitly
 * declared functions, the __sync_* ones with a size suffix
 * (__sync_fetch_and_add_4). Fences stay calls: the knowledge base knows
 * them. */
#include "frontend/walk.h"
#include <string.h>

static int fa_in(const char *name, const char *const *list)
{
  for (int i = 0; list[i]; i++)
    if (!strcmp(name, list[i])) return 1;
  return 0;
}

static int fa_prefix(const char *name, const char *p)
{
  return strncmp(name, p, strlen(p)) == 0;
}

/* "__sync_fetch_and_add_4" → "__sync_fetch_and_add" into buf. */
static const char *fa_base(const char *name, char *buf, size_t n)
{
  size_t len = strlen(name);
  if (!fa_prefix(name, "__sync_") || len >= n) return name;
  memcpy(buf, name, len + 1);
  char *u = strrchr(buf, '_');
  if (u && u[1] >= '0' && u[1] <= '9' && strspn(u + 1, "0123456789") == strlen(u + 1)) *u = '\0';
  return buf;
}

fa_kind fw_atomic_kind(const char *builtin)
{
  static const char *const loads[] = {
    "__atomic_load_n", "__atomic_load", "__c11_atomic_load", "__scoped_atomic_load_n",
    "__scoped_atomic_load", NULL };
  static const char *const stores[] = {
    "__atomic_store_n", "__atomic_store", "__c11_atomic_store", "__c11_atomic_init", "__atomic_clear",
    "__sync_lock_release", "__scoped_atomic_store_n", "__scoped_atomic_store", NULL };
  char buf[96];
  const char *name = fa_base(builtin, buf, sizeof buf);
  if (!fa_prefix(name, "__atomic_") && !fa_prefix(name, "__c11_atomic_") && !fa_prefix(name, "__sync_") &&
      !fa_prefix(name, "__scoped_atomic_"))
    return FA_NONE;
  /* Fences and lock-free queries access no object: the knowledge base's. */
  if (strstr(name, "fence") || strstr(name, "lock_free") || !strcmp(name, "__sync_synchronize")) return FA_NONE;
  if (fa_in(name, loads)) return FA_LOAD;
  if (fa_in(name, stores)) return FA_STORE;
  return FA_RMW;   /* exchange, compare-exchange, fetch-op, op-fetch, test-and-set */
}

/* The generic forms pass values through pointers: `__atomic_load(p, &ret,
 * o)`; every compare-exchange passes `expected` so (and writes it back). */
static int fa_operand_through(const char *name, unsigned i)
{
  static const char *const generic[] = {
    "__atomic_load", "__atomic_store", "__atomic_exchange", "__atomic_compare_exchange",
    "__scoped_atomic_load", "__scoped_atomic_store", "__scoped_atomic_exchange",
    "__scoped_atomic_compare_exchange", NULL };
  if (fa_in(name, generic)) return 1;
  return i == 2 && strstr(name, "compare_exchange") != NULL;   /* ptr, order, expected, … */
}

/* Does ptr point to an arithmetic object (no pointer can be stored in it)? */
static int fa_scalar_target(CXCursor ptr)
{
  CXType t = clang_getCanonicalType(clang_getPointeeType(fe_canon_type(ptr)));
  return (t.kind >= CXType_Bool && t.kind <= CXType_LongDouble) || t.kind == CXType_Enum;
}

/* The accesses of an atomic whose object is *kids[0]; the other operands
 * are values, or (fa_operand_through) pointers read and written through. */
static void fa_record(fw *w, CXCursor at, const char *name, fa_kind kind, const CXCursor *kids, unsigned n)
{
  lv_t obj;
  fw_deref(w, kids[0], &obj);
  uint16_t flags0 = w->eff_flags;
  w->eff_flags |= SEF_ATOMIC;
  fw_access(w, at, &obj, kind != FA_STORE, kind != FA_LOAD);
  w->eff_flags = flags0;
  /* A pointer stored so goes where ptrblock.c cannot follow it. */
  int ptrs = !fa_scalar_target(kids[0]);
  if (kind != FA_LOAD && ptrs) fw_pb_stored(w, &obj, clang_getNullCursor(), PROV_UNKNOWN);
  for (unsigned i = 1; i < n; i++) {
    if (fa_operand_through(name, i) && fe_expr_is_pointer(kids[i])) {
      lv_t o;
      fw_deref(w, kids[i], &o);
      fw_access(w, kids[i], &o, 1, 1);
      if (ptrs) fw_pb_stored(w, &o, clang_getNullCursor(), PROV_UNKNOWN);
    } else {
      fw_expr(w, kids[i], ACC_VALUE);
    }
  }
}

enum { FA_MAX_OPERANDS = 8 };

int fw_atomic_expr(fw *w, CXCursor c, uint64_t *result)
{
  char name[96];
  if (!fe_spelled_ident(w->t, clang_getRangeStart(clang_getCursorExtent(c)), name, sizeof name)) return 0;
  fa_kind kind = fw_atomic_kind(name);
  if (kind == FA_NONE) return 0;
  size_t k = fw_kids(w, c);
  unsigned n = (unsigned)(w->ks.n - k);
  CXCursor kids[FA_MAX_OPERANDS];
  int ok = n >= 2 && n <= FA_MAX_OPERANDS && fe_expr_is_pointer(FW_KID(w, k, 0));
  for (unsigned i = 0; ok && i < n; i++) kids[i] = FW_KID(w, k, i);
  w->ks.n = k;
  if (!ok) return 0;
  fa_record(w, c, name, kind, kids, n);
  *result = fe_expr_is_pointer(c) ? PROV_UNKNOWN : 0;   /* loaded from shared memory */
  return 1;
}

int fw_atomic_call(fw *w, CXCursor call, const char *name, uint64_t *result)
{
  char buf[96];
  fa_kind kind = fw_atomic_kind(name);
  int n = clang_Cursor_getNumArguments(call);
  if (kind == FA_NONE || n < 1 || n > FA_MAX_OPERANDS) return 0;
  CXCursor kids[FA_MAX_OPERANDS];
  for (int i = 0; i < n; i++) kids[i] = clang_Cursor_getArgument(call, (unsigned)i);
  if (!fe_expr_is_pointer(kids[0])) return 0;
  w->ncalls++;
  fw_pf_clobber(w);
  fa_record(w, call, fa_base(name, buf, sizeof buf), kind, kids, (unsigned)n);
  *result = fe_expr_is_pointer(call) ? PROV_UNKNOWN : 0;
  return 1;
}
