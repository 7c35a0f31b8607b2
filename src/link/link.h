/* link.h — the whole program: summaries merged by symbol, then solved.
 *
 * Like a linker, link_add takes TU summaries one at a time and resolves
 * functions by symbol: external linkage by name, internal linkage by
 * (defining file, name) — so a static inline function of a header is one
 * function however many TUs include it. link_solve then computes every
 * function's class bottom-up over the call graph's strongly connected
 * components (DESIGN.md §1–2).
 *
 * The folder (docs/layout.md) owns the whole program and its solves (GNU
 * and C23); it calls the summary format, the knowledge base and util/. */
#ifndef PURIST_LINK_H
#define PURIST_LINK_H
#include <stdbool.h>
#include "kb/kb.h"
#include "summary/summary.h"
#include "util/ptrmap.h"

#define LF_CONFLICT 0x1   /* two different non-inline definitions */
#define LF_DUPLICATE_BODY 0x2
#define LF_KB_BODY 0x4    /* a body in a system header (glibc's inline bsearch under
                             __USE_EXTERN_INLINES) of a function the knowledge base
                             describes: the library function is judged by its entry */
#define LF_ALT 0x8        /* one of several definitions of an external name, each in its own
                             TU (a database of many programs: every test defines main);
                             calls in that TU resolve to it (dup.c) */
#define LF_LIBRARY 0x20   /* defined in a file --library names (issue 29): public API
                             even where the database holds programs */
/* (issue 30) It allocates blocks for itself that never leave it (not returned,
 * not stored beyond its locals, passed only to callees that keep nothing):
 * what it does to them is scratch work, left out of its class for `check`. */
#define LF_SCRATCH_OK 0x40
/* (issue 30) The same except that it returns its block: an allocator
 * (xmalloc). A caller keeping the block to itself counts the call by
 * what the allocator does besides (link_func.ast). */
#define LF_ALLOCATOR 0x80
#define LF_JOIN 0x10      /* the name as TUs defining none of them see it: no body of its
                             own, its class is the join of its definitions' (dup.c) */

/* An effect flag the link sets, never a summary: a call through a field
 * that link/fields.c turned into table calls, which now speak for it. */
#define LINK_EF_RESOLVED 0x8000
/* A call flag the link sets, never a summary: an SCF_TABLE call that
 * link/fields.c made for a call through a field (eff_pos: its effect). */
#define LINK_CF_FIELD 0x8000
/* With LINK_CF_FIELD: the "field" is a static variable (SUM_STATIC_FNVAR). */
#define LINK_CF_STATIC 0x4000

/* A call as in the summary, with callee an index into link_prog.funcs,
 * arg_off into link_prog.argmasks, and string ids of link_prog. */
typedef sum_call link_call;

/* func's other definition, at file:line (string id of link_prog). */
typedef struct { uint32_t func, file, line; } link_conflict_rec;

/* The solved state of a function. */
typedef struct {
  uint8_t own;       /* purity of its effects other than through parameters */
  uint8_t mnr;       /* may not return */
  uint64_t pr, pw;   /* parameters read / written through (bit i = parameter i) */
  /* (issue 30 item 2; check's states only) parameters that, null, make it
   * keep hidden state (a knowledge-base `nullN` reached with them): a
   * caller passing them surely non-null escapes that; the state alone
   * counts as normal. */
  uint64_t pn;
  /* (issue 30 item 2; check's states only) parameters P through whose
   * pointee's member it calls unknown code (`P->free (…)`, P never
   * assigned): a caller passing null there makes no such call (it would
   * be undefined); the state alone counts as normal. */
  uint64_t pm;
} link_state;

typedef enum { WHY_NONE, WHY_EFFECT, WHY_CALL, WHY_RECURSION, WHY_UNKNOWN_BODY,
               WHY_WEAK, WHY_CONFLICT } link_why_kind;

typedef struct {
  uint8_t kind;      /* link_why_kind */
  uint32_t index;    /* WHY_EFFECT: into effs; WHY_CALL: into calls */
} link_why;

typedef struct {
  uint32_t name, keyfile;
  sum_loc loc;
  uint8_t linkage, declared, lflags;
  uint16_t flags;        /* SFF_* merged over all TUs */
  uint16_t nparams;
  uint32_t tuflags;      /* STF_* of the TU its body came from */
  uint32_t eff_off, neff, call_off, ncall;
  uint32_t fnarg_off, nfnarg, pcall_off, npcall;   /* into link_prog.fnargs / pcalls */
  uint64_t pc;           /* function-pointer parameters it calls through, itself or by passing
                            them on (link_ind_prepare, before the solve; bit i = parameter i) */
  uint32_t def_file2;    /* LF_CONFLICT: the other definition's file */
  uint32_t tu;           /* 1 + the index of the TU its body came from (link_add order); 0: none */
  uint32_t alt_next;     /* LF_JOIN and LF_ALT: 1 + the next definition of the name; 0: last */
  /* results of link_solve */
  link_state st;
  uint8_t cls;           /* purity */
  link_why why, why_mnr;
  /* A weak definition (SFF_WEAK with SFF_BODY, no conflict): callers see
   * only what is declared (a strong definition may replace it), but the
   * body shown is the one normally linked: its own class and reason, for
   * checking its declared attribute (issue 22 item 5). */
  uint8_t weak_cls;
  link_why weak_why;
  /* (issue 30) Scratch memory, link/capture.c: */
  uint64_t captures;     /* parameters kept beyond the call: its own (sum_func.captures), then
                            with those its direct calls keep (link_scratch_solve) */
  uint8_t sflags;        /* SSF_* of its bodies, joined */
  /* (issue 30) Pointers stored (sum_func.pinto, pstores, ownc, joined),
   * with its callees' stores added by link_pb_solve (link/ptrblock.c):
   * ownc is then everything its own blocks may hold. */
  uint64_t pinto, pstores, ownc;
  link_state sst;        /* its state for `check`: scratch work left out where it is
                            LF_SCRATCH_OK (else, and without a body: st) */
  link_state ast;        /* LF_ALLOCATOR: its state with the blocks it hands out left out */
  /* (issue 30 item 2) Its state for `check` with what it (and its callees)
   * write into errno left out: what a caller that keeps errno
   * (SSF_ERRNO_KEPT) gets from calling it. For such a function itself, sst. */
  link_state est;
  /* (issue 30 item 9) A release wrapper of a body linked in from anywhere
   * (PulseAudio's pa_xfree in another file, keeping errno around free):
   * bit i, parameter i is released (free, or another such wrapper) and
   * nothing else happens to what it points to beyond rst; rst, its check
   * state with those releases left out. 0: not one. rel_kept: those of
   * them it may also keep (captures: passed through a function pointer,
   * stored): released that way only when the argument is null or the
   * chain's own storage, never a caller's block (issue 30 item 3). */
  uint64_t rel, rel_kept;
  link_state rst;
} link_func;

typedef struct {
  strtab *strs;
  VEC(link_func) funcs;
  VEC(sum_effect) effs;      /* names and files are link_prog string ids */
  VEC(link_call) calls;
  VEC(uint64_t) argmasks;
  VEC(sum_fnarg) fnargs;     /* SFA_FUNC values are link_prog function indices */
  VEC(sum_pcall) pcalls;     /* arg_off into argmasks */
  VEC(sum_fstore) fstores;   /* field: a string id; func: 1 + a function; values: functions */
  VEC(sum_fcall) fcalls;     /* func: a function, eff relative to its eff_off; arg_off into argmasks */
  VEC(sum_rmember) rmembers; /* func, value: functions; sorted by link_fnret_prepare (fnret.c) */
  uint32_t *fnret_edge_start; /* link_fnret_prepare: function i's extra call-graph successors are */
  VEC(uint32_t) fnret_edges;  /* fnret_edges[fnret_edge_start[i] .. [i+1]) (scc.c) */
  size_t fnret_nfuncs;       /* functions fnret_edge_start covers (later ones have none) */
  VEC(sum_decl) decls;       /* func is a link_prog index; attr_off into attrs */
  VEC(sum_attr) attrs;       /* macro is a link_prog string id */
  VEC(sum_macro) macros;     /* attribute macros, one per name (kind 0: defined differently) */
  VEC(sum_file) files;       /* one per file; hash 0: TUs saw different contents */
  VEC(char *) warnings;      /* anything the link wants said, as message lines */
  VEC(link_conflict_rec) conflicts;   /* a static function defined at two places (a header's
                                         #if branches): both are unknown (normal) */
  struct link_index *index;
  const kb *kb;
  bool strict;               /* count effects on paths ending in noreturn calls */
  uint8_t *call_cls;         /* link_solve: what each call contributes (purity) */
  uint32_t *decl_start;      /* link_solve: function i's declarations are */
  uint32_t *decl_order;      /* decls.v[decl_order[decl_start[i] .. decl_start[i+1])] */
  struct link_c23 *c23;      /* link_solve: each function's C23 class (link/c23.h) */
  bool dups_resolved;        /* link_dups_resolve ran */
  bool whole_program;        /* set before link_solve: --whole-program (link_is_whole_program) */
  bool fields_incomplete;    /* a TU failed to parse: stores of its bodies are unknown */
  bool has_library;          /* set before link_solve: --library names a library's files */
  bool weak_pass;            /* link_solve is solving weak bodies as linked: a weak callee
                                is its body (solve_weak_bodies), not its declaration */
  uint32_t *other_def;       /* per function, or NULL: the string id of "FILE:LINE" (relative to
                                the root), a definition of its name in a .c file no TU read
                                (another platform's: cli/otherdefs.c); 0: none */
  VEC(char *) db_files;      /* the files the compile database compiles, as it names them, set
                                by whoever read it (cli/cmd_common.c), for cli/otherdefs.c */
  bool db_files_set;         /* db_files is that list (else otherdefs reads the database) */
  const kb_entry **kb_names; /* link_solve: per string id naming a function, its knowledge-base
                                entry (link_kb_entry), or link_kb_none; NULL: not looked up */
  uint32_t kb_names_n;
  uint32_t errno_name;       /* link_scratch_solve: the string id of "errno" (an effect's name
                                for a write into errno), UINT32_MAX if none */
} link_prog;

link_prog *link_new(const kb *kb, bool strict);
void link_free(link_prog *p);
/* Merges one TU summary into the program. */
void link_add(link_prog *p, const sum_tu *tu);
/* Classifies every function. */
void link_solve(link_prog *p);

/* Does the program have a body for f that can be trusted (not weak, not
 * defined twice)? */
static inline bool link_has_body(const link_func *f)
{
  return (f->flags & SFF_BODY) && !(f->lflags & (LF_CONFLICT | LF_KB_BODY)) && !(f->flags & SFF_WEAK);
}

/* A weak definition whose body is here (checked against its attribute). */
static inline bool link_weak_body(const link_func *f)
{
  return (f->flags & SFF_BODY) && (f->flags & SFF_WEAK) && !(f->lflags & (LF_CONFLICT | LF_KB_BODY));
}

/* Does a call of f end the caller's path as a way out of the program
 * (exit, abort, longjmp)? __builtin_unreachable ends a path too, but as a
 * promise that it is never taken: it makes no caller "may not return". */
static inline bool link_func_exits(const link_func *f)
{
  return (f->flags & (SFF_NORETURN | SFF_UNREACHABLE)) == SFF_NORETURN;
}

/* Is f solved from facts (its body, or for LF_JOIN the calls to its
 * definitions) rather than from what is declared of it? The solver's
 * view; reports use link_has_body, for which a join has no body. */
static inline bool link_solved_body(const link_func *f)
{
  return link_has_body(f) || (f->lflags & LF_JOIN);
}

/* dup.c: after every link_add, before the solve (link_solve calls it):
 * a name defined in several TUs becomes one LF_ALT function per
 * definition, calls in each defining TU go to its own, and the name
 * itself (what other TUs call) becomes the LF_JOIN of them all. */
void link_dups_resolve(link_prog *p);
/* The number of definitions of a LF_JOIN function, each in *defs
 * (caller frees). */
uint32_t link_dup_defs(const link_prog *p, uint32_t fi, uint32_t **defs);

/* The class one primitive effect gives a function (per-parameter effects
 * count as if through a global pointer). */
purity link_effect_class(sum_effect_kind k);

/* What one effect, or one call of f, contributes to f's class (after
 * link_solve; effects on noreturn paths count as reads unless --strict). */
purity link_effect_contrib(const link_prog *p, const sum_effect *e);
/* Does loop effect e (of f) make f may-not-return? See solve.c. */
bool link_loop_mnr(const link_prog *p, const link_func *f, const sum_effect *e);
purity link_call_class(const link_prog *p, const link_func *f, const link_call *c);
/* The part of it not through f's parameters (what no caller's arguments
 * can turn into a write of its own locals). */
purity link_call_own(const link_prog *p, const link_func *f, const link_call *c);

/* capture.c (issue 30): scratch memory for `check`. After the solve
 * (link_solve calls it): every function's captures, LF_SCRATCH_OK and sst. */
void link_scratch_solve(link_prog *p);
/* link/ptrblock.c (link_solve calls it before solving any class): every
 * function's pinto, pstores and ownc with its callees' stores, the pointee
 * masks of a caller's local structs with what callees store there, and
 * the pointee masks naming a function's own blocks made "anywhere" where
 * those blocks may hold pointers to anything else. */
void link_pb_solve(link_prog *p);
/* Does own-block content hold only pointers to f's own blocks? */
bool link_pb_own_ok(const link_func *f);
/* Does g, called by call c of f (either may be NULL), keep what it is
 * passed at parameter bit `bit` (parameter or virtual parameter) by
 * storing it into its caller's blocks? No when those are f's own blocks,
 * which hold only f's own pointers. */
bool link_pb_keeps(const link_prog *p, const link_func *g, unsigned bit, const link_func *f, const link_call *c);
/* Is effect e, or call c, of f scratch work `check` leaves out (or, for
 * an effect, errno put back as it was, or any write into errno where f
 * keeps errno for its caller: SSF_ERRNO_KEPT)? */
bool link_scratch_effect(const link_prog *p, const link_func *f, const sum_effect *e);
bool link_scratch_call(const link_prog *p, const link_func *f, const link_call *c);
/* Folds `callee`, a state of call c's callee in its own parameters' terms
 * (a view check solves itself: liveclass.c), into `into`, seen through
 * c's arguments: a read through a parameter given read-only data counts
 * for nothing, one given the caller's parameter i becomes a read through
 * i. */
void link_call_fold(const link_prog *p, const link_call *c, const link_state *callee, link_state *into);
/* The class of state s: its own, and pure or normal for what it reads or
 * writes through parameters. */
purity link_state_class(const link_state *s);
/* Adds effect e to state s, as the link solves a body (--strict counted). */
void link_state_add_effect(const link_prog *p, link_state *s, const sum_effect *e);
/* What call c of f contributes for `check`: link_call_class, or less when
 * blocks f allocated are passed (written through as f's own scratch) or
 * the callee's class for check is lower. */
purity link_call_class_scratch(const link_prog *p, const link_func *f, const link_call *c);
/* The same with f's parameters in local_params (bit i) pointing to memory
 * no caller of the function checked sees (a witness's chain of calls). */
purity link_call_class_scratch_in(const link_prog *p, const link_func *f, const link_call *c,
                                  uint64_t local_params);
/* What a witness's chain of calls knows of f where it reaches it (issue 30
 * item 2): noerr, a function up the chain keeps errno for its caller
 * (SSF_ERRNO_KEPT), so what is written into errno below is undone; bit i
 * of nonnull, f's parameter i is surely not a null pointer there.
 * With owned, the blocks f allocates and hands back to its caller are
 * that caller's scratch (the caller, LF_SCRATCH_OK, got them through a
 * hand-back, SCF_ALLOC, and frees them): work on them is no cause. */
typedef struct { bool noerr, owned; uint64_t nonnull; } link_chain;
/* The same with owner: blocks f allocated count as f's own storage even
 * when f is not LF_SCRATCH_OK (a witness looking past the writes into
 * blocks whose only fault is being passed on or kept in a local object);
 * with ch (or NULL), what the chain knows. */
purity link_call_class_scratch_as(const link_prog *p, const link_func *f, const link_call *c,
                                  uint64_t local_params, bool owner, const link_chain *ch);
/* The nonnull of a chain at via's callee, from the caller's (nonnull):
 * the arguments surely not null there. */
uint64_t link_chain_nonnull(const link_prog *p, const link_call *via, uint64_t nonnull);
/* Is e a write into errno (after link_scratch_solve)? */
bool link_errno_write(const link_prog *p, const sum_effect *e);
/* f's class for `check` (from sst). */
purity link_scratch_class(const link_func *f);

/* guard.c (issue 30): is call cl a precondition guard's report — a call
 * whose value is discarded, in a macro named like a guard (`*_if_fail*`,
 * `*_if_reached*`, `assert_return*`; the outermost macro holding the
 * call, or the one whose definition spells it)? It logs only when a
 * caller broke the contract (checks/precond.h): `check`'s states (sst,
 * est) leave it out; the plain solve counts it. */
bool link_guard_call(const link_prog *p, const link_call *cl);
/* That guard macro's name (string id), 0 if cl is no guard's report. */
uint32_t link_guard_macro(const link_prog *p, const link_call *cl);

/* The declarations of function fi, in link order: p->decls.v[d[k]] for
 * k < *n, where d is the result. Built by link_solve; reports and fix look
 * a function's declarations up this way instead of scanning all of them. */
/* attrmacro.c: the program's record of attribute macro `name` as one of
 * `kind` (NULL: none, or defined as another); whether the project writes
 * it on a declaration; whether it is the project's own to write (a
 * project file defines it, or the project already writes it). */
const sum_macro *link_attr_macro(const link_prog *p, uint32_t name, uint8_t kind);
bool link_attr_macro_written(const link_prog *p, uint32_t name);
bool link_attr_macro_own(const link_prog *p, const sum_macro *m);
const uint32_t *link_decls_of(const link_prog *p, uint32_t fi, uint32_t *n);
/* (Re)builds that index; link_solve calls it. */
void link_index_decls(link_prog *p);

/* The function-pointer parameters a call to g calls through: g->pc for a
 * body, the knowledge base's callbacks for a library function (indirect.c). */
uint64_t link_calls_through(const link_prog *p, const link_func *g);

/* fnret.c (issue 30 item 5): calls through a member of what a call
 * through a function-pointer parameter returns (sum_pcall.moff), against
 * what the lookup bound there returns (sum_rmember). */
/* link.c: TU function sfi's records, its body appended to function gi. */
void link_fnret_add_body(link_prog *p, const sum_tu *tu, uint32_t sfi, uint32_t gi, const uint32_t *map);
/* Before the solve, after link_ind_prepare: sorts the records and makes
 * the call-graph edges from a call site passing a lookup to the functions
 * its table holds where the callee calls through them. */
void link_fnret_prepare(link_prog *p);
/* The records of lookup fn for the member at byte offset moff: their
 * first index into p->rmembers, and how many (0: unknown — no such
 * member, its values not all known, or fn not a lookup whose body every
 * call runs). */
uint32_t link_fnret_members(const link_prog *p, uint32_t fn, uint32_t moff, uint32_t *first);

/* Is the analysed code the whole program: `opt` (--whole-program), or a
 * `main` is defined (a database of many programs is one too: each is)? */
bool link_is_whole_program(const link_prog *p, bool opt);

/* Helpers for reports. */
/* Looks up, once, the knowledge-base entry of every function's name
 * (link_solve calls it first; link_kb_entry falls back to kb_lookup for a
 * name it did not see). */
void link_kb_index(link_prog *p);
/* The knowledge-base entry speaking for f (a library function), or NULL. */
const kb_entry *link_kb_entry(const link_prog *p, const link_func *f);
/* Index of the function called NAME (external, else the first internal), or -1. */
long link_find(const link_prog *p, const char *name);

/* The identity of the object an effect of function fi names: a static
 * local is its function's own (two functions' statics of the same name are
 * different objects), a file static its file's, anything else its name's. */
uint64_t link_obj_key(uint32_t fi, const sum_effect *e);
/* Fills out (empty) with object key → 1 + the one function writing it or
 * taking its address, LINK_MANY_WRITERS if several: who may change a
 * static or global, for memo and constant-table recognition. */
void link_obj_writers(const link_prog *p, ptrmap *out);
#define LINK_MANY_WRITERS UINT32_MAX

#endif
