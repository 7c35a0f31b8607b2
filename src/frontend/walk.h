/* walk.h — state of the function-body walk, shared by walk_expr.c,
 * walk_stmt.c and loop.c. See walk_expr.c for the model.
 *
 * walk_expr.c and walk_stmt.c call each other, and that stays: C nests
 * statements in expressions (a GNU statement expression `({ … })`) and
 * expressions in statements, so the walk of either recurses into the
 * other. Everything else in the front end calls them, never the reverse
 * (text.c, attrtext.c, decl.c and the fact files are called by the walk). */
#ifndef PURIST_WALK_H
#define PURIST_WALK_H
#include "frontend/fe_internal.h"

/* Part of a local pointer's value that holds only where every literal
 * does (flow.c): literal = variable index << 1 | (1: nonzero, 0: zero). */
#define FW_PART_LITS 4
#define FW_PARTS 4
/* A call lending a local struct `&v` (ptrblock.c). */
struct fw_pb_lend { uint32_t call, arg, var; };

typedef struct { uint64_t bits; uint32_t lit[FW_PART_LITS]; uint8_t nlit; } fw_part;
/* What a local pointer may hold at a point of the walk: base everywhere,
 * each part where its literals hold. */
typedef struct { uint64_t base; fw_part part[FW_PARTS]; uint8_t n; } fw_fstate;

/* A local variable or parameter of the function being walked. */
typedef struct {
  uint64_t mask;        /* pointer provenance (PROV_*), if a pointer: everything it is
                           ever assigned in the function */
  fw_fstate fs;         /* what of mask it may hold at this point of the walk (flow.c) */
  uint32_t name;        /* string id */
  uint32_t last_write;  /* fw.seq at its last write in this walk */
  int16_t param;        /* parameter index, or -1 */
  uint8_t is_ptr;
  uint8_t array_param;  /* a parameter declared as an array: a pointer */
  uint8_t ptr_union;    /* a parameter of a union of pointers only: a pointer, read and
                           written through any member */
  uint8_t read;         /* its value was used in this walk */
  uint8_t topped;       /* flow.c took its union in this walk: a later growth needs
                           another walk, as a read does */
  uint8_t addr_taken;   /* &v appears somewhere (sticky across walks) */
  uint8_t addr_plain;   /* … other than as an allocator's marker argument, or an array
                           of it decays to a pointer (scratch.c) */
  uint8_t holds_fresh;  /* not a pointer: a member or element holds a fresh block (scratch.c) */
  uint8_t used;         /* its value is read somewhere in this walk */
  uint8_t guard_bad;    /* not fixed for the whole call: no condition on it is a literal
                           (guardvar.c) */
  uint8_t pointee_n;    /* a pointer: 0 nothing stored yet, 1 only addresses within the
                           global `pointee`, 2 anything else (sticky, as mask) */
  CXCursor pointee;     /* its VarDecl when pointee_n == 1: `*p` then names that object */
  uint64_t agg;         /* a local struct or array: provenance of everything stored in it
                           (aggfield.c; sticky, as mask) */
  uint8_t agg_off;      /* not such a local, or a union inside: loads from it are unknown */
  uint8_t agg_param;    /* a struct parameter: loads from it also hold its virtual bit */
  uint8_t agg_read;     /* a pointer was loaded from it in this walk */
  uint16_t addr_n;      /* its address (or a part's) taken in this walk: `&`, a decay */
  uint16_t addr_lent;   /* … of which `&v` lent to a direct call (ptrblock.c) */
  uint8_t reassigned;   /* assigned, incremented or addressed anywhere in the body (guardvar.c) */
  uint16_t naddr;       /* how many `&v` the body spells (guardvar.c) */
  uint8_t zero_seen;    /* a write of the literal 0 (initialiser or `v = 0`) (guardvar.c) */
  uint8_t zero_off;     /* some write is not one, or v is addressed, a parameter, an
                           aggregate, volatile, or asm may write it (guardvar.c) */
  uint64_t mw_sure;     /* maywrite.c: parameter bits some assignment gave outside any input test */
  uint64_t mw_cond;     /* … and bits an assignment gave under one (tests: mw_test) */
  uint16_t mw_test[4];  /* indices into fw.mw_tests of those tests (FW_MW_TESTS) */
  uint8_t mw_n;
  uint64_t inexact;     /* a pointer: bits of mask some value of which was not a plain copy
                           of what owns the bit (`p = q + 1`, `p++`): `p != q` excludes
                           only the exact bits (ptrneq.c; sticky, as mask) */
} fw_var;

/* An lvalue: where an access goes. */
typedef enum { LV_TEMP, LV_LOCAL, LV_GLOBAL, LV_MEM } lv_kind;
typedef struct {
  lv_kind kind;
  int whole;           /* the whole named variable, not a member or element */
  uint32_t var;        /* LV_LOCAL: index into fw.vars */
  CXCursor decl;       /* LV_GLOBAL: its VarDecl */
  uint64_t mask;       /* LV_MEM: where the pointer may point */
  CXCursor ptr;        /* LV_MEM: the pointer expression, or a null cursor */
} lv_t;

/* Marks in the summary's vectors, to doom what a statement recorded. */
typedef struct { size_t eff, call; } fw_mark;
/* A then-branch's effects [eff_lo, eff_hi) and calls [call_lo, call_hi),
 * relative to the function (sum_call.arm_*). */
typedef struct { uint32_t eff_lo, eff_hi, call_lo, call_hi; } fw_arms;
/* The innermost switch whose cases are being walked (walk_stmt.c): its
 * body, what was available after its condition (avail entries below mark,
 * above floor), where its body began, and the arm outside it. */
typedef struct {
  CXCursor body;
  size_t mark, floor;
  fw_mark body0;
  fw_arms outer;
  int active;
} fw_switch;

/* A loop proven finite on the condition that these variables are never
 * address-taken (which is only known once the whole body is walked), and
 * that the calls fw.pending_calls[coff..+nc) (relative indices) in its
 * bound turn out pure or const at link. */
typedef struct { sum_loc loc; uint32_t name; size_t off, n, coff, nc; } fw_pending;

/* What a call's arguments are made of, for redundancy and invariance. */
typedef struct {
  uint64_t fp;          /* fingerprint of callee and argument expressions */
  uint32_t vars_off;    /* local variables the arguments read: fw.cvars[off..+n) */
  uint32_t nvars;
  uint8_t stable;       /* no side effects, no calls, no local memory */
  uint8_t reads_mem;    /* reads globals or memory through parameters */
  uint8_t skippable;    /* some iteration of its loop may not run it (fw.iter_cond, iter_left) */
  uint8_t npar;         /* FW_INL_ARGS + 1: an argument is no parameter; else how many, */
  int16_t par[4];       /* each the function's own parameter par[i] (inline.c) */
  uint8_t agg_args;     /* an argument is a struct or union passed whole (memory to GCC: hoist.c) */
  uint32_t enter;       /* fw.call_enters when the walk of the call began, before its
                           arguments: a call recorded later that began earlier holds this
                           one in an argument (hoist.c); UINT32_MAX: not known */
} fw_callinfo;

enum { FW_INL_ARGS = 4 };   /* inline.c: the most arguments a copied call may have */

/* A call whose value is available to later identical calls (dominating).
 * A copy (inline.c) is the call a tiny function inlined at `call` makes. */
typedef struct {
  uint64_t fp;          /* fw_callinfo.fp, or the copy's */
  uint32_t callee;      /* index into sum_tu.funcs */
  uint8_t copy;         /* a copy: only other copies reuse its value; 2: one that begins
                           the inlined body (a head, hoist.c) */
  uint32_t call;        /* relative index of the call */
  uint32_t snap_off;    /* (var, last_write) pairs at that point: fw.snaps[off..+2n) */
  uint32_t nsnap;
  uint32_t mem_writes, ncalls;  /* fw.mem_writes, fw.ncalls then */
  size_t neff;          /* the summary's effects then */
} fw_avail;

/* The entries [lo, hi) of w->avail, kept to be made available again
 * (fw_avail_put_back) on a path that they dominate. */
typedef VEC(fw_avail) fw_avail_saved;

/* thread.c: an if of an else-if chain whose condition begins with a test
 * of one call: what the ifs after it in the chain may reuse where the same
 * test holds. */
typedef struct {
  uint64_t key;         /* the call's fingerprint and the test's shape */
  fw_avail a;           /* the call's value then */
  uint32_t callee;      /* index into sum_tu.funcs */
  uint8_t a_mem;        /* its arguments read memory */
  uint32_t var;         /* or 1 + the local variable tested (then no call), and … */
  uint32_t var_write;   /* … its last write then */
  fw_avail_saved b;     /* the calls of the condition's second operand */
} fw_thread;
typedef VEC(fw_thread) fw_threads;

/* The walk of one if's condition (an && chain, or none), for thread.c. */
typedef struct {
  const fw_threads *in; /* what the earlier ifs of its else-if chain hand it, or NULL */
  int nleaf;            /* operands of the chain walked */
  int own_ok;           /* its first operand is a test of one call: own is it */
  int joined;           /* an earlier if's calls were made available after that operand */
  size_t second;        /* w->avail.n after the second operand (0: none, or not a leaf) */
  size_t second_lo;     /* … and before it */
  fw_mark second_end;   /* the summary's effects and calls after it */
  fw_mark first_end;    /* the summary's effects and calls after the first operand */
  uint32_t first_seq;   /* fw.seq then */
  fw_thread own;
  int second_ok;        /* the second operand is a leaf, walked: second_lo .. second_end are
                           set (second is 0 where no call was available yet) */
} fw_chain;

/* hoist.c: a call a statement (or branch) computes on every path from its
 * beginning, before anything that could leave it (a head), to be hoisted
 * when the other branch of an if begins with it too. */
typedef struct {
  fw_avail av;          /* the call, its value */
  uint32_t dep;         /* 1 + the call whose hoisting made it the first of its if, or 0 */
  uint8_t mem;          /* its arguments are memory to GCC (a struct passed whole) */
} fw_head;
/* maywrite.c: a branch of an if whose condition reads only parameters:
 * lit = the condition's offset << 1 | the branch (1 then, 0 else). */
#define FW_MW_TESTS 4
typedef struct { uint32_t lit, text, line; uint8_t pol; } fw_mwtest;

/* ptrneq.c: inside `if (p != q)`, bits p cannot hold while it keeps the
 * value it had at the test (its last_write then), outside any loop
 * entered since (depth: fw.loop_depth then; a back edge may bring
 * another value). */
typedef struct { uint32_t var; uint32_t seq; int depth; uint64_t bits; } fw_excl;

/* fieldapart.c: the effect eff (absolute) is a store to a field of
 * *var, a field of record rec at bits [lo, hi). */
typedef struct { uint32_t eff, var; uint64_t rec; int64_t lo, hi; } fw_fieldw;

/* pfield.c: a field path from a parameter (`P->f[1].g`, as text after
 * "P>") and what it holds where the walk is (PROV_UNKNOWN: anything). */
#define FW_PF_KEY 48
typedef struct { int16_t param; char key[FW_PF_KEY]; uint64_t cur; } fw_pfield;

typedef struct fw {
  fe_tu *t;
  uint32_t fi;
  CXCursor fn;                  /* the function being walked */
  char *asm_printed;            /* its printed form, once asm.c needs it */
  size_t eff_base, call_base;   /* the function's first effect and call in the summary */
  size_t fnarg_base, pcall_base;  /* and its first function-pointer facts (fnptr.c) */
  size_t fstore_base, fcall_base; /* and its first function-pointer field facts (fieldfn.c) */
  VEC(sum_fstore) param_sets;     /* assignments to its function-pointer parameters (fieldfn.c;
                                     func: the parameter) */
  VEC(fw_callinfo) cinfo;       /* per call of the function */
  VEC(uint32_t) cvars;
  VEC(fw_avail) avail;
  VEC(uint32_t) snaps;
  size_t avail_floor;           /* entries below are not available here (loops, labels) */
  VEC(uint32_t) guards;         /* statics tested by enclosing ifs */
  VEC(uint32_t) dead_cands;     /* (call, var) pairs: a call's value stored in a local */
  VEC(uint32_t) dead_stores;    /* (call, var) pairs: a store of a call's value that nothing
                                   reads on (deadstore.c), if var's address is never taken */
  VEC(fw_fieldw) fwrites;       /* stores `V->g` among the function's effects (fieldapart.c) */
  VEC(uint32_t) fld_cands;      /* (call, var) pairs: SCF_FIELDS_APART if var's address is
                                   never taken (fieldapart.c) */
  CXCursor loop_stmt;           /* the innermost loop around the walk's point, or a null cursor */
  uint32_t last_if_guard;       /* set by fw_if for the early-return form */
  int last_if_returns;
  VEC(fw_var) vars;
  ptrmap varmap;          /* decl key → index in vars */
  VEC(CXCursor) ks;       /* children of the nodes being visited, as a stack */
  int doomed;             /* > 0 inside the arguments of a noreturn call */
  uint16_t eff_flags;     /* SEF_* added to every effect recorded (an atomic's access) */
  int enum_switch;        /* > 0: the innermost switch names every enumerator of its enum */
  int impossible;         /* > 0 inside the default of such a switch (SCF_IMPOSSIBLE) */
  uint64_t last_value;    /* provenance of the last expression statement's value (StmtExpr) */
  CXCursor ret_top;       /* the value of the return statement being walked (fe_strip'd): a
                             lookup's result returned as is is not read here (rotable.c) */
  CXCursor discard_top;   /* the expression statement being walked, parentheses stripped: an
                             assignment that is the whole statement has its value discarded */
  int stale;              /* a pointer's provenance grew after its use: walk again */
  uint32_t seq;           /* counts writes to local variables */
  uint32_t mem_writes;    /* writes other than to whole local variables */
  uint32_t ncalls;
  uint32_t call_enters;   /* counts the direct calls whose walk began (fw_callinfo.enter) */
  int iter_cond;          /* > 0: in a branch of the innermost loop (if, ?:, the right of && and ||,
                             a switch): not run in every iteration */
  int iter_left;          /* the innermost loop's iteration may have been left before this point
                             (break, continue, return, goto, a label, an inner loop) */
  VEC(fw_pending) pending;
  VEC(uint32_t) pending_vars;
  VEC(uint32_t) pending_calls;
  uint64_t captures;      /* every parameter kept, as far as this walk sees (scratch.c) */
  uint64_t cap_hard;      /* sum_func.captures: those kept other than in the caller's blocks */
  uint64_t pb_params;     /* ptrblock.c: parameters whose block gives virtual parameters */
  uint64_t pb_into, pb_stores, pb_ownc;  /* sum_func.pinto, pstores, ownc */
  int pb_slot_written;    /* something was stored through the slot parameter in this pass */
  int pb_slot_late;       /* and its block was read after that, or in a loop: no slot (slot.c) */
  VEC(struct fw_pb_lend) pb_lends;   /* calls lending a local struct (ptrblock.c), this walk */
  VEC(uint64_t) errno_saved;  /* locals holding only values read from errno (errsave.c) */
  VEC(uint64_t) errno_once;      /* those of them given errno's value exactly once */
  uint8_t sflags;         /* sum_func.sflags (SSF_*) */
  uint64_t ret_mask;      /* PROV_* of every value returned in this walk (retro.c) */
  VEC(fw_fstate) flow;    /* saved fw_var.fs vectors (flow.c): a count (in base), then the values */
  VEC(uint32_t) flow_lits;  /* literals that hold where the walk is (guardvar.c) */
  int flow_off;           /* the walk did not converge: every pointer is its union */
  int flow_noguard;       /* labels or asm: no variable is fixed for the call */
  size_t flow_case_lits;  /* flow_lits.n where the innermost switch began */
  int cond_depth;         /* ?: being walked, nested (tailmerge.c) */
  fw_arms arm;            /* the then-branch whose else-branch is being walked (sum_call.arm_*) */
  fw_switch sw;           /* the innermost switch's cases */
  int case_from_switch;   /* the label about to be walked is reached from its switch only */
  VEC(uint64_t) leaf_arms;  /* fingerprints of the outermost one's arms that are no ?: */
  fw_threads threads;     /* handed by an if to the if that is its else-branch (thread.c);
                             taken (emptied) by that if as it begins */
  int head_open;          /* the statement about to be walked begins a branch of an if, or
                             follows only straight-line code there: its heads count (hoist.c) */
  fw_mark head_mark;      /* where the branch that head_open's run began starts (hoist.c) */
  VEC(fw_head) heads;     /* the heads of the branches being walked */
  int loop_depth;         /* loops entered (fw_iter_enter) around the walk's point */
  int slot;               /* slot.c: the parameter whose pointee is handed back, or -1 */
  uint64_t slot_back, slot_inexact;  /* what `*P = v` stores (provenance; its inexact bits) */
  uint32_t slot_stores;   /* how many such stores this pass */
  uint32_t slot_reads, slot_derefs;  /* reads of P's value, and those that are `*P` */
  uint64_t rel_params;    /* release.c: parameters the calls so far release unchanged */
  uint64_t rel_pte;       /* and those whose pointee they release */
  VEC(uint32_t) cleanups; /* cleanup.c: (call index, variable) of each handler's call */
  uint32_t rel_calls;     /* and how many calls did nothing else */
  VEC(fw_excl) excl;      /* ptrneq.c: active exclusions */
  VEC(fw_mwtest) mw_active;  /* maywrite.c: the input tests whose branch the walk is in */
  VEC(fw_mwtest) mw_tests;   /* every such test an assignment ran under (sticky) */
  VEC(fw_pfield) pfields;    /* pfield.c: fields of parameters' objects stored in this pass */
  int pf_cleanup;            /* a cleanup attribute seen: its handler runs unseen (pfield.c) */
  CXSourceRange intptr_at;   /* intptr.c: the last pointer converted to an integer */
  uint64_t intptr_mask;      /* and its provenance */
} fw;

/* Statement flags: how control can leave a statement. */
enum { FS_ENDS = 1,   /* every path through it ends in a noreturn call */
       FS_RET = 2,    /* contains a return or goto leaving it */
       FS_BRK = 4,    /* contains a break or continue leaving it */
       FS_LEAVES = 8 };  /* every path through it returns (or ends): nothing after
                            it runs once it has started (SEF_LEAVES) */

enum { ACC_VALUE, ACC_ADDR };

/* rotable.c: the provenance of a pointer loaded from global decl (at
 * expression at): fe_static_prov's, or for a read-only table defined in
 * another TU read-only data, with a read of what it points to recorded
 * (SEF_RO_TABLE) for the link to confirm. */
uint64_t fw_rotable_load(fw *w, CXCursor at, CXCursor decl);
/* rotable.c: the provenance of what call `at` to ref (function fi)
 * returns when nothing else is known: for a lookup another TU defines, or
 * this one below the call (external, returning a pointer to const data),
 * read-only data, with a read of it recorded (SEF_RO_TABLE) for the link
 * to confirm; PROV_UNKNOWN otherwise. */
uint64_t fw_rotable_call(fw *w, CXCursor at, CXCursor ref, uint32_t fi);

/* enumswitch.c: does switch body `body` over `cond` have a case for every
 * enumerator of cond's enum type? */
int fw_switch_covers_enum(CXCursor cond, CXCursor body);
/* The same, with no default and no break of the switch's own in body. */
int fw_switch_no_exit(CXCursor cond, CXCursor body);

/* cmpfold.c: a comparison of an integer with a constant that the
 * integer's type decides (`u > ULONG_MAX`, `u < 0` for unsigned u), or a
 * test of a local that holds 0 for the whole call (w may be NULL: none):
 * 1 always true, 0 always false, -1 not such a comparison. */
int fw_cmp_type_decided(fw *w, CXCursor cond);

/* icefold.c: is cond an integer constant expression (literals,
 * enumerators, operators, `?:`, casts, sizeof, __builtin_types_compatible_p;
 * no call, no variable)? Then
 * *v is 1 if it is true, 0 if false. */
int fw_ice_value(fe_tu *t, CXCursor cond, long long *v);

/* intptr.c: a pointer converted to an integer (conv) with provenance m
 * is noted; an integer `from` converted back to a pointer that carries
 * exactly the last noted one (rounded by + - & |) points where it did. */
void fw_intptr_note(fw *w, CXCursor conv, uint64_t m);
bool fw_intptr_origin(fw *w, CXCursor from, uint64_t *m);

/* walk_expr.c */
size_t fw_kids(fw *w, CXCursor c);            /* pushes children, returns start */
#define FW_KID(w, start, i) ((w)->ks.v[(start) + (i)])
uint64_t fw_expr(fw *w, CXCursor c, int acc);
/* An if's condition, walked as fw_expr does, except that the calls of
 * every operand of a chain of `op` (&& or ||) at its top stay available;
 * returns the avail mark after the chain's first operand (what every path
 * out of the condition has). ch (an && chain's, or NULL) is told of the
 * first and second operands (thread.c). */
size_t fw_cond_chain(fw *w, CXCursor c, enum CXBinaryOperatorKind op, fw_chain *ch);
/* The && or || at the top of a condition (parentheses skipped), or 0. */
enum CXBinaryOperatorKind fw_cond_chain_op(fw *w, CXCursor c);
/* e without its parentheses (only those: a cast is a conversion). */
CXCursor fw_strip_parens(fw *w, CXCursor e);
void fw_effect(fw *w, CXCursor at, sum_effect_kind k, uint8_t obj, uint8_t param, uint32_t name);
uint32_t fw_var_for(fw *w, CXCursor decl);
void fw_var_grow(fw *w, uint32_t vi, uint64_t m, CXCursor value);
/* The object *ptr as an lvalue (walk_expr.c): visits ptr. */
void fw_deref(fw *w, CXCursor ptr, lv_t *lv);
void fw_access(fw *w, CXCursor at, const lv_t *lv, int rd, int wr);
/* A store of a value (provenance m, expression `value` or a null cursor)
 * into target, which is also read if rd; returns the new value's provenance. */
uint64_t fw_store(fw *w, CXCursor target, uint64_t m, CXCursor value, int rd);

/* asm.c: an inline asm statement, judged by its operands. */
void fw_asm(fw *w, CXCursor s);
int fw_lvalue(fw *w, CXCursor c, lv_t *lv);

/* atomic.c: atomic builtins, judged by what they access (DESIGN.md §2). */
typedef enum { FA_NONE, FA_LOAD, FA_STORE, FA_RMW } fa_kind;
fa_kind fw_atomic_kind(const char *builtin);
/* An AtomicExpr (an UnexposedExpr whose first token is the builtin's
 * name): returns 1 and records its accesses, or 0 if c is not one. */
int fw_atomic_expr(fw *w, CXCursor c, uint64_t *result);
/* A call of a __sync_* / __atomic_* builtin named `name`: records it as
 * the accesses it makes; returns 0 if it is not one. */
int fw_atomic_call(fw *w, CXCursor call, const char *name, uint64_t *result);

/* libcalls.c: calls the walk understands by name. */
int fw_is_alloca(CXCursor callee, const char *name);
int fw_returns_arg0(const char *name);
/* 1 + the argument a library search returns a pointer into (strchr: 0,
 * bsearch: 1), or 0. */
int fw_returns_into_arg(const char *name);
uint32_t fw_name(fw *w, CXCursor c);
void fw_note_stored_call(fw *w, CXCursor target, CXCursor value);
int fw_last_call_is(fw *w, CXCursor call);
int fw_is_local_decl(CXCursor ref);
/* The local variable (or parameter) expression e names, parentheses and
 * casts aside, or -1. */
int fw_local_ref(fw *w, CXCursor e);
/* x when e itself is `&x` (nothing stripped from e or x); else a null
 * cursor. */
CXCursor fw_addr_operand(fw *w, CXCursor e);
CXCursor fw_callee_decl(fw *w, CXCursor call);
int fw_callee_noreturn(fw *w, CXCursor call);
int fw_callee_side_effect_free(fw *w, CXCursor call);
int fw_int_literal_value(CXCursor c, long long *v);

/* walk_stmt.c */
int fw_stmt(fw *w, CXCursor s);
fw_mark fw_mark_now(fw *w);
void fw_doom_since(fw *w, fw_mark m);
int fw_expr_ends(fw *w, CXCursor e);

/* callsite.c */
void fw_callsite_record(fw *w, CXCursor call, uint32_t rel);
/* The same scan of one argument expression into a running fingerprint. */
/* fieldapart.c: fn > 0 when every memory read of the arguments so far is
 * a field of *fvar (record frec), bits [flo[i], fhi[i]); fbad when some
 * read is anything else. */
enum { FW_FIELD_READS = 4 };
typedef struct {
  uint64_t h; int stable, reads_mem;
  uint8_t fn, fbad;
  uint32_t fvar;
  uint64_t frec;
  int64_t flo[FW_FIELD_READS], fhi[FW_FIELD_READS];
} fw_argscan;
void fw_arg_fingerprint(fw *w, CXCursor e, fw_argscan *a);
/* fieldapart.c: a read `V->f` in an argument, into a's field list (or
 * a->fbad); a store just recorded into target (its effects from e0 on),
 * into fw.fwrites; call rel, a repeat of call first with arguments a:
 * a candidate for SCF_FIELDS_APART if every write between is a store to
 * other fields of the same *V; fw_fields_finish sets the flag once the
 * addresses taken are known. */
void fw_fields_note_read(fw *w, CXCursor member, fw_argscan *a);
void fw_fields_note_store(fw *w, CXCursor target, size_t e0);
void fw_fields_judge(fw *w, const fw_argscan *a, uint32_t first, uint32_t rel);
void fw_fields_finish(fw *w);
/* Is the entry (of w->avail) still valid, and makes the avail entry for a
 * value computed at call rel from fingerprint fp, reading ci's variables. */
int fw_avail_valid(fw *w, const fw_avail *av);
void fw_avail_push_fp(fw *w, uint32_t rel, const fw_callinfo *ci, uint32_t callee, uint8_t copy);
/* inline.c: a function just walked that GCC inlines into its callers
 * records the calls its copies make (fe_tu.inls); at a call of such a
 * function, the copies' calls that recompute an available value are noted
 * on the call (sum_call.inl_callee), the others made available. */
void fw_inline_note(fw *w, CXCursor body);
void fw_inline_params(fw *w, CXCursor call, fw_callinfo *ci);
/* tailmerge.c: an arm of a ?: just walked (its calls from m on): when
 * it is no ?: itself and computes what an earlier such arm of the same
 * outermost ?: computes, its calls are SCF_TAIL_SHARED. */
void fw_tail_arm(fw *w, CXCursor arm, fw_mark m);
void fw_inline_copies(fw *w, CXCursor call, uint32_t rel);
void fw_loop_patch(fw *w, size_t call0, size_t eff0, uint32_t seq0);
/* A loop's iteration: what runs in every one of them (callsite.c). */
typedef struct { int cond, left; } fw_iter;
fw_iter fw_iter_enter(fw *w);
void fw_iter_leave(fw *w, fw_iter outer);
/* Before the else-branch of an if (or the second arm of ?:) whose
 * then-branch was walked from m to now: returns the enclosing state, which
 * fw_arm_leave puts back. */
fw_arms fw_arm_enter(fw *w, fw_mark m);
void fw_arm_leave(fw *w, fw_arms outer);
void fw_callsite_finish(fw *w);
/* deadstore.c: statement i of block (its n statements kids), just walked,
 * `v = call(…);` whose value nothing reads on (the next statement
 * continues the innermost loop or returns without v, or it ends the
 * loop's body, and v lives no longer or is written first): notes the
 * call in fw.dead_stores. */
void fw_deadstore_note(fw *w, CXCursor block, const CXCursor *kids, size_t n, size_t i);
/* argdep.c: marks the function's writes of whole statics whose value comes
 * from its parameters SEF_ARG_VALUE (run once the effects are final). */
void fw_argdep_mark(fw *w, CXCursor body);
fw_avail_saved fw_avail_save(fw *w, size_t lo, size_t hi);
void fw_avail_put_back(fw *w, const fw_avail_saved *sv);
/* thread.c: the first operand a of an if's condition was just walked
 * (its calls from call0 on): notes whether it is a test of one call, and
 * if an earlier if of the chain (ch->in) tested the same, puts back that
 * if's second-operand calls (ch->joined). */
void fw_thread_leaf(fw *w, CXCursor a, size_t call0, fw_chain *ch);
/* The second operand's available calls are w->avail[lo, hi): kept in ch->own. */
void fw_thread_second(fw *w, size_t lo, size_t hi, fw_chain *ch);
/* hoist.c: the entries w->avail[lo, hi) (calls a statement, whose calls
 * and effects end at `end`, computes wherever it runs) are heads. */
void fw_heads_add(fw *w, size_t lo, size_t hi, fw_mark end);
/* An if with both branches walked: the then-side's heads are
 * w->heads[t_lo, t_hi) (ways from `tm`), the else-branch's [e_lo, e_hi)
 * (from `em`), with no write of a variable numbered above seq on either
 * way. Marks each else-branch head that the then-side begins with too on
 * its call (sum_call.hoist_*), and pushes the then-side's call as a head
 * of the if (if `open`) after dropping the heads from t_lo on. A head
 * whose arguments are memory needs its block clean from c0, where the run
 * of `open` began. */
void fw_heads_hoist(fw *w, size_t t_lo, size_t t_hi, size_t e_lo, size_t e_hi, fw_mark tm, fw_mark em,
                    uint32_t seq, int open, fw_mark c0);
/* hoist.c: a direct call's arguments walked, argument i's calls and
 * effects beginning at at[i] (at[nargs]: their end): on a target that
 * evaluates arguments right to left, marks the calls of each argument with
 * the earlier arguments' calls GCC runs after them (sum_call.late_*). */
void fw_args_late(fw *w, const fw_mark *at, size_t nargs);
/* What the if of ch hands to the if in its else-branch: ch->in and its own
 * (free the vector only; the entries' vectors belong to the ifs). */
fw_threads fw_thread_pass(const fw_chain *ch);
size_t fw_avail_enter(fw *w);                /* a branch: returns the mark */
void fw_avail_leave(fw *w, size_t mark);
size_t fw_avail_barrier(fw *w);              /* a loop: nothing outside is available */
void fw_avail_restore(fw *w, size_t mark, size_t floor);
uint32_t fw_guard_of(fw *w, CXCursor cond);  /* static tested by a condition, or 0 */

/* fnptr.c: function pointers a call site fixes (issue 13, item 4) */
/* Is t a pointer to a function (any spelling, typedefs seen through)? */
int fw_is_fn_pointer_type(CXType t);
/* fieldescape.c: call's arguments that point to a record holding a union
 * of pointers, handed to callee (a null cursor: through a pointer). */
void fw_fnfield_escape(fw *w, CXCursor call, CXCursor callee);
/* `(T *) operand` from a pointer to another type than T, not void. */
void fw_fnfield_cast(fw *w, CXCursor cast, CXCursor operand);
/* After the SE_CALL_INDIRECT effect of a call through `callee`: records it
 * as a call through a parameter if callee names one. */
void fw_fnptr_pcall(fw *w, CXCursor callee, const uint64_t *masks, uint32_t nargs);
/* The same fact for a call just recorded as SE_CALL_INDIRECT (the last
 * effect), through parameter param (moff: sum_pcall's). */
void fw_fnptr_pcall_at(fw *w, uint32_t param, uint32_t moff, const uint64_t *masks, uint32_t nargs);
/* The functions and function-pointer parameters a direct call passes (its
 * relative index rel). */
void fw_fnptr_args(fw *w, CXCursor call, uint32_t rel);
/* Drops facts about parameters the body reassigns or takes the address of. */
void fw_fnptr_finish(fw *w, size_t fnarg0, size_t pcall0);
/* The function-pointer parameter of the walked function that expression e
 * names (parentheses, casts, `*`, `&` aside), or -1. */
int fw_fnptr_param_of(fw *w, CXCursor e);
/* The parameter P of a callee expression `P->m` (P a pointer parameter
 * never assigned nor addressed), or -1: a call through it happens only
 * when P is not null (sum_effect.param of the SE_CALL_INDIRECT). */
int fw_fnptr_member_param(fw *w, CXCursor callee);
/* Does parameter `param` still hold what the caller passed, everywhere? */
int fw_fnptr_param_intact(const fw *w, uint32_t param);

/* fieldfn.c: function pointers in struct fields (issue 30, item 5). */
/* `target = value` where target is a function-pointer parameter. */
void fw_fnfield_param_assign(fw *w, CXCursor target, CXCursor value);
/* `target = value` where target is such a field: a store. */
void fw_fnfield_store(fw *w, CXCursor target, CXCursor value);
/* `&operand` where operand is such a field: it may be written through. */
void fw_fnfield_addr(fw *w, CXCursor operand);
/* fieldescape.c: call's arguments that point to a record holding a union
 * of pointers, handed to callee (a null cursor: through a pointer). */
void fw_fnfield_escape(fw *w, CXCursor call, CXCursor callee);
/* `(T *) operand` from a pointer to another type than T, not void. */
void fw_fnfield_cast(fw *w, CXCursor cast, CXCursor operand);
/* After the SE_CALL_INDIRECT effect of a call through `callee`: a call
 * through a field, if callee names one. */
void fw_fnfield_call(fw *w, CXCursor callee, const uint64_t *masks, uint32_t nargs);
/* The walk of a function: begins (an earlier walk's facts go), restarts a
 * pass, finishes (stores of parameters the body changes become unknown). */
void fw_fnfield_begin(fw *w);
void fw_fnfield_restart(fw *w);
void fw_fnfield_finish(fw *w);

/* fntable.c: calls through read-only tables (issue 13, item 5) */
typedef VEC(uint32_t) fw_u32vec;
/* The functions a call through `callee` may reach when everything it reads
 * is read-only data initialised in this TU: pushed on out (function
 * indices), returns 1; else 0 (unknown). */
int fw_fntable_targets(fw *w, CXCursor callee, fw_u32vec *out);
/* Records the call as one SCF_TABLE call per target, with the arguments' provenance. */
void fw_fntable_record(fw *w, CXCursor call, const fw_u32vec *targets, const uint64_t *masks, uint32_t nargs);
/* The functions member `member` of initializer `init` may hold (the same
 * reading as a call's): pushed on out (none: the member is null), returns
 * 1; else 0 (unknown). */
int fw_fntable_member_targets(fw *w, CXCursor init, const char *member, fw_u32vec *out);
typedef VEC(CXCursor) fw_cursors;
/* A lookup (fnret.c): function fn's body is the one every call runs (not
 * weak, interposable, noipa) and every value it returns is a null pointer
 * or points to a whole element, of record type rec, of a read-only
 * variable of this TU (static storage, its initializer here): those
 * variables' initializers pushed on inits, returns 1; else 0. */
int fw_fntable_lookup_rows(fw *w, CXCursor fn, CXType rec, fw_cursors *inits);
/* A local pointer that is itself const (`T *const p = E;`) holds E all
 * its life: E, else a null cursor. */
CXCursor fw_const_local_init(CXCursor ref);

/* fnret.c: a call through a member of what a call through a parameter
 * returns (issue 30 item 5: xz's `fc = coder_find (id); fc->memusage
 * (o)`), and what a lookup returns (sum_rmember). Records the call, just
 * recorded as a call through a pointer, as a sum_pcall with moff when it
 * is one. */
void fw_fnret_mcall(fw *w, CXCursor callee, const uint64_t *masks, uint32_t nargs);
/* After fi's walk: its sum_rmember records, when it is a lookup. */
void fw_fnret_lookup(fw *w, CXCursor fn, uint32_t fi);

/* fnslot.c: read-only objects defined in another TU (issue 13, item 5).
 * A call reaching member `member` of read-only object `var` whose
 * initializer this TU cannot see: the function standing for that slot,
 * named "var.member" (no C name has a dot), without a body here; the TU
 * that defines `var` gives it one (fe_slot_define), and the link joins
 * them by name. UINT32_MAX when `var`/`member` is not such a slot. */
uint32_t fw_slot_target(fw *w, CXCursor var, const char *member);

/* scratch.c: blocks a call allocates for itself (issue 30, item 1) */
/* What a direct call of `ref` (named `name`) does with blocks: 1 if it
 * returns a fresh one (knowledge-base `alloc`, a `malloc` attribute),
 * with *frees the arguments it releases (knowledge-base `fN`). */
int fw_scratch_callee(fw *w, CXCursor ref, const char *name, uint64_t *frees);
/* The knowledge-base entry of the allocation hook a call through
 * `callee` (an expression) goes through, or NULL. */
const kb_entry *fw_scratch_hook(fw *w, CXCursor callee);
/* Arguments of an allocator: `&v` of a local pointer v is the marker the
 * allocator links its block into (GMP's TMP_ALLOC): v then holds fresh
 * blocks. Returns the argument's provenance, walking it. */
uint64_t fw_scratch_alloc_arg(fw *w, CXCursor arg);
/* release.c: a static function that only releases its parameters (a
 * project's wrapper of free). A direct call that releases its arguments
 * (bits of frees, knowledge-base `fN` or such a wrapper): notes which of
 * the walked function's parameters it releases, if it passes them on
 * unchanged. */
void fw_release_note_call(fw *w, CXCursor call, uint64_t frees);
/* The arguments function fi releases, if it is such a wrapper walked before. */
uint64_t fw_release_frees(const fw *w, uint32_t fi);
/* Does such a wrapper fi return null on every path (mfree)? */
int fw_release_returns_null(const fw *w, uint32_t fi);
/* The parameters whose pointee function fi releases (freep), if it does
 * that and nothing else and was walked before. */
uint64_t fw_release_pointee(const fw *w, uint32_t fi);
/* cleanup.c: a local's cleanup attribute whose handler only releases
 * what the local holds: records the handler's call at the declaration
 * (1), else 0 (the caller records an unknown call, as before). */
int fw_cleanup_call(fw *w, CXCursor decl, CXCursor attr, uint32_t vi);
/* At the end of the walk: each such call's pointee is the local's value. */
void fw_cleanup_finish(fw *w);
/* At the end of the walk: records the walked function as a wrapper if
 * every call of it was such a release and it has no effect of its own. */
void fw_release_finish(fw *w);
/* Do the released arguments (bits of frees) all hold fresh blocks or null? */
int fw_scratch_frees_ok(uint64_t frees, const uint64_t *masks, size_t n);
/* A value of provenance m leaves the function's locals (stored beyond
 * them, returned, passed through a function pointer): records the escape
 * of a fresh block and the capture of parameters. */
void fw_scratch_leaves(fw *w, uint64_t m);
/* A value of provenance m is returned: a fresh block makes the function
 * an allocator (SSF_FRESH_RETURNED), which is an escape for its own
 * attribute; a parameter returned is not kept (the caller follows the
 * call's value). */
void fw_scratch_returned(fw *w, uint64_t m);
/* A value of provenance m stored into lv, which is not a local pointer
 * variable: a fresh block stays in a local aggregate unless that one's
 * address is taken or the function returns an aggregate; through a
 * parameter it is handed to the caller (as fw_scratch_returned); anywhere
 * else it leaves (fw_scratch_leaves). */
void fw_scratch_stored(fw *w, const lv_t *lv, uint64_t m);
/* Sets f's captures and sflags once the walk is final. */
void fw_scratch_finish(fw *w, sum_func *f);

/* aggfield.c: pointers kept in a local struct or array (issue 30, item 3) */
/* Sets v->agg_off for the variable declared by decl (v->is_ptr known). */
void fw_agg_var_init(fw_var *v, CXCursor decl);
/* The provenance of a pointer loaded from local aggregate vi: what was
 * stored in it, or PROV_UNKNOWN once its address leaves its own accesses. */
uint64_t fw_agg_load(fw *w, uint32_t vi);
/* A value of provenance m stored into `target`, a part of (or all of) vi. */
void fw_agg_store(fw *w, uint32_t vi, CXCursor target, uint64_t m);
/* Is t a struct (not volatile) with a pointer member and no union whose
 * members are not all pointers: what its pointer members hold is every
 * pointer stored into them (ptrblock.c's struct parameters)? */
int fw_agg_type_followed(CXType t);
/* Where the pointers held by struct value c (read as lv says) point: 0
 * when it holds none, a local's stores (a struct parameter's virtual bit
 * too), a read-only global's initializer seen in this file, else
 * anywhere (a struct passed by value copies its pointers). */
uint64_t fw_agg_value(fw *w, CXCursor c, const lv_t *lv);
/* A call's argument: a struct copied from a read-only global defined in
 * another file holds what its initializer points to, which the link
 * confirms (rotable.c: read-only data, or a read of memory recorded
 * here); m, fw_expr's provenance of arg, otherwise. Only for arguments,
 * where a callee may read through the copy: a copy returned or kept is
 * not read here. */
uint64_t fw_agg_arg(fw *w, CXCursor arg, uint64_t m);
/* vi's address is taken or it decays: counted (fw_var.addr_n), and the
 * function walked again if a load counted on it. */
void fw_agg_addressed(fw *w, uint32_t vi);
/* Walks the initializer of local aggregate vi; returns its value's provenance. */
uint64_t fw_agg_initializer(fw *w, uint32_t vi, CXCursor init);
/* `(&z)->f`, `*&z` or `z->f` of a local array z: the object is a part of
 * local z (lv set, returns 1) without its address leaving; else 0,
 * nothing visited. */
int fw_agg_deref(fw *w, CXCursor ptr, lv_t *lv);

/* flow.c: a local pointer's provenance at a point of the walk (issue 30, item 7) */
/* What variable vi may hold here: fw_var.cur, or its union where the walk
 * cannot follow it (its address taken). */
uint64_t fw_flow_value(const fw *w, uint32_t vi);
/* vi is assigned a value of provenance m (expression value, or a null
 * cursor); strong: it holds only that now. */
void fw_flow_assign(fw *w, uint32_t vi, uint64_t m, CXCursor value, int strong);
/* Other paths arrive here (a loop's head or exit, a label, a case): every
 * variable may hold anything it is ever assigned. */
void fw_flow_top(fw *w);
/* Saves every variable's current value; returns the mark. */
size_t fw_flow_save(fw *w);
/* Puts the values saved at mark back, or joins them into the current ones. */
void fw_flow_restore(fw *w, size_t mark);
void fw_flow_join(fw *w, size_t mark);
/* The join after an if: the saved state (one branch) under lits_saved,
 * the current one (the other) under lits_cur (either may be NULL). */
void fw_flow_join_lits(fw *w, size_t mark, const fw_u32vec *lits_saved, const fw_u32vec *lits_cur);
/* Drops what was saved from mark on. */
void fw_flow_drop(fw *w, size_t mark);

/* guardvar.c: conditions on variables fixed for the call (issue 30, item 7) */
/* Marks the variables of fn that are not fixed for the whole call, and
 * whether the function jumps (then none is). */
void fw_guardvar_scan(fw *w, CXCursor fn, CXCursor body);
/* The literals that hold where cond is pol (1 true, 0 false), into out. */
void fw_guardvar_lits(fw *w, CXCursor cond, int pol, fw_u32vec *out);
/* Is e a local that holds 0 for the whole call (every write the literal 0,
 * never addressed: GMP's TMP marker where only alloca is used)? */
int fw_guardvar_zero(fw *w, CXCursor e);

/* errsave.c: errno saved on entry and put back (issue 30, item 2) */
/* Collects the locals of body that only ever hold a value read from errno
 * (`int e = errno;`): not otherwise assigned, incremented nor addressed. */
void fw_errsave_scan(fw *w, CXCursor body);
/* Is the store into lv of `value` (an expression, or a null cursor) the
 * write of such a saved value back into errno? */
int fw_errsave_is_restore(fw *w, const lv_t *lv, CXCursor value);
/* Does the body keep errno for the caller: saved on entry into a local
 * saved once, put back right before every return and at the end
 * (SSF_ERRNO_KEPT)? After fw_errsave_scan. */
int fw_errsave_kept(fw *w, CXCursor body);
/* walk_expr.c: a call of the C library's errno accessor? */
int fw_is_errno_location(CXCursor e);

/* slot.c: a pointer handed back through a pointer-to-pointer parameter
 * (issue 30, item 7: coreutils' quote_name_buf and its callers) */
/* Chooses the walked function's slot parameter (after fw_guardvar_scan). */
void fw_slot_begin(fw *w);

/* ptrblock.c: blocks of pointers (issue 30, items 1 and 3) */
/* Picks the parameters whose blocks give virtual parameters (after fw_slot_begin). */
void fw_pb_begin(fw *w);
/* Something is stored through parameter i. */
void fw_pb_param_written(fw *w, unsigned i);
/* The virtual bits of those parameters. */
uint64_t fw_pb_virtual_bits(const fw *w);
/* A pointer loaded from lv: the virtual parameters of the blocks it
 * reads, or 0 where it may point anywhere. */
uint64_t fw_pb_load(fw *w, const lv_t *lv);
/* A value of provenance m stored into lv (NULL: an lvalue not followed,
 * anywhere) at target, other than into a local pointer variable. */
void fw_pb_stored(fw *w, const lv_t *lv, CXCursor target, uint64_t m);
/* A value of provenance m kept beyond the call (scratch.c's
 * fw_scratch_leaves): stored anywhere. */
void fw_pb_kept(fw *w, uint64_t m);
/* A value of provenance m returned: a pointer loaded from memory may be
 * one into the function's own blocks. */
void fw_pb_returned(fw *w, uint64_t m);
/* A pointer converted to type `to` (not a pointer). */
void fw_pb_ptr_to_int(fw *w, CXType to);
/* A call through a function pointer, not an allocation hook, given masks. */
void fw_pb_indirect_call(fw *w, const uint64_t *masks, size_t n);
/* The pointee mask a direct call records for an argument of provenance m. */
uint64_t fw_pb_pte(const fw *w, uint64_t m);
/* Is call argument arg `&v` of a local struct whose pointer members are
 * followed? Then v's index (counted as lent: its pointee mask is
 * fw_pb_lends_finish's), else -1. */
int fw_pb_lent_local(fw *w, CXCursor arg);
/* Notes that call (absolute index) lends local struct var at argument arg. */
void fw_pb_lend(fw *w, uint32_t call, uint32_t arg, uint32_t var);
/* Once the walk is final: the lending calls' pointee masks, grouped per
 * local, where every address of that local is lent to a call; the others
 * made anywhere. */
void fw_pb_lends_finish(fw *w);
/* Does a pointee mask say more than "anywhere"? */
int fw_pb_pte_useful(uint64_t pte);
/* Does parameter param point to a pointer (its virtual parameter is what
 * `*P` points to), not to a struct (what its pointer members point to)? */
int fw_pb_param_to_pointer(const fw *w, int param);
/* Sets f's pinto, pstores and ownc once the walk is final. */
void fw_pb_finish(const fw *w, sum_func *f);
/* The provenance of the value of `*P` read at expression c (lv its
 * lvalue) when it is the slot's entry value: the virtual parameter's bit;
 * else 0. */
uint64_t fw_slot_entry_load(fw *w, CXCursor c, const lv_t *lv);
/* A store of a value of provenance m (expression value, or a null
 * cursor) into lv: returns 1 if it is `*P = value` (recorded), else 0. */
int fw_slot_store(fw *w, const lv_t *lv, uint64_t m, CXCursor value);
/* The slot parameter whose entry pointee provenance bit `bit` (a bit
 * index past PROV_PARAM0, i.e. parameter index) stands for, or -1: the
 * walked function's bits past its own parameters are virtual ones. */
int fw_slot_virtual_param(const fw *w, unsigned bit);
/* A read of variable vi's value (deref: as the operand of `*`). */
void fw_slot_note_read(fw *w, uint32_t vi, int deref);
/* Once the walk is final: records the hand-back for callers of this TU. */
void fw_slot_finish(fw *w);
/* A direct call of function fi: for argument i, `&v` of a local pointer v
 * that the callee's recorded hand-back lets the walk follow: v's index,
 * else -1 (nothing visited). */
int fw_slot_arg(fw *w, CXCursor call, uint32_t fi, int i);
/* After such a call (masks: the arguments' provenance; args: the call's
 * argument expressions): v holds what it held or what the callee hands
 * back. Returns whether the hand-back may be a fresh block. */
int fw_slot_after_call(fw *w, uint32_t fi, uint32_t vi, const uint64_t *masks, uint32_t nargs, CXCursor call);
/* The exactness of a value of provenance m assigned from expression value. */
uint64_t fw_slot_inexact_of(fw *w, uint64_t m, CXCursor value);

/* pfield.c: a pointer stored into a field of a parameter's object, read
 * back (issue 30, item 3: GMP's mpn_hgcd_matrix_init) */
/* A call: its callee may store into any field. */
void fw_pf_clobber(fw *w);
/* A write of lvalue lv (expression at), other than of a whole local:
 * forgets what it may change. */
void fw_pf_write(fw *w, CXCursor at, const lv_t *lv);
/* After that write, a store (rd: read-modify-write) of a value of
 * provenance m into target: a followed path now holds m. */
void fw_pf_store(fw *w, CXCursor target, uint64_t m, int rd);
/* A pointer loaded from lvalue c (lv): what a followed path holds here,
 * or 0 where it may hold anything. */
uint64_t fw_pf_load(fw *w, CXCursor c, const lv_t *lv);
/* flow.c's save, restore and join of the paths' values: saved holds the
 * first n paths' values (fw_fstate.base), pushed by fw_pf_save. */
void fw_pf_save(fw *w);
void fw_pf_restore(fw *w, const fw_fstate *saved, size_t n);
void fw_pf_join(fw *w, const fw_fstate *saved, size_t n);

/* ptrneq.c: `p != q` of a local pointer p and a parameter q never assigned */
/* Pushes the exclusions cond (true) implies; returns the old count. */
size_t fw_ptrneq_enter(fw *w, CXCursor cond);
void fw_ptrneq_leave(fw *w, size_t mark);
/* The bits excluded from vi where the walk is. */
uint64_t fw_ptrneq_excluded(const fw *w, uint32_t vi);

/* maywrite.c: a write that needs two unrelated input tests (issue 30, item 7) */
/* Entering the branch pol (1 then, 0 else) of an if on cond; decided: the
 * walk already relates the condition (guardvar.c literals, a folded test).
 * Returns the mark fw_maywrite_leave takes. */
size_t fw_maywrite_enter(fw *w, CXCursor cond, int pol, int decided);
void fw_maywrite_leave(fw *w, size_t mark);
/* Local pointer vi is assigned a value of provenance m (expression value,
 * or a null cursor). */
void fw_maywrite_assign(fw *w, uint32_t vi, uint64_t m, CXCursor value);
/* Is a write here through vi, reaching parameter `param`, one that needs
 * two unrelated input tests? Then 1, and *text says which (string id). */
int fw_maywrite_test(fw *w, uint32_t vi, unsigned param, uint32_t *text);

/* loop.c */
/* A loop's marks for proving it finite: seq0, fw.seq when its body
 * starts (a bound's locals must not be written after); clean, the body
 * writes no memory and calls nothing; the condition's calls in
 * sum_tu.calls [call_lo, call_hi). */
typedef struct {
  uint32_t seq0;
  int clean;
  size_t call_lo, call_hi;
} fw_loop_ctx;
int fw_for(fw *w, CXCursor s);
void fw_while_settle(fw *w, CXCursor s, CXCursor cond, CXCursor body, int is_do, const fw_loop_ctx *lc);
void fw_loop_unrotated(fw *w, CXCursor cond, CXCursor body, int rotated_by_step, size_t call0);
int fw_loop_cond_false(CXCursor cond);
/* walk_stmt.c: is s, run when cond is want (1 true, 0 false), dead code? */
int fw_branch_dead(fw *w, CXCursor cond, int want, CXCursor s);
int fw_loop_endless(fw *w, int has_cond, CXCursor cond, int body_flags);
void fw_loops_finish(fw *w);

#endif
