/* checks.h — the findings built on a solved program (issue 3):
 *   misuse  declared pure/const but the body says otherwise (error), or a
 *           deliberate cheat: memoisation, never-written globals (note);
 *   suggest where an attribute belongs and what it buys;
 *   explain what the compiler does at each call of a pure/const function.
 * Each appends diagnostics (report/diag.h); none prints.
 *
 * The folder: one file per check (misuse.c, suggest.c, explain.c, c23.c,
 * discarded.c, kbcheat.c, noreturn.c …) on shared cores — emit.c (where a
 * finding goes and how it is added), callsite.c (what the compiler does at
 * one call), suggest_gain.c (what an attribute buys), generated.c, cheat.c.
 * What every check uses lives in a core, not in one check's file (misuse
 * runs its C23 and knowledge-base variants itself). It reads the solved
 * program (link/) and the reason texts (report/reason.h); it is called by
 * the commands (cli/), fix/ and lsp/. */
#ifndef PURIST_CHECKS_H
#define PURIST_CHECKS_H
#include <stdbool.h>
#include "link/link.h"
#include "report/diag.h"
#include "util/strbuf.h"

typedef struct {
  const char *root;        /* for printed paths */
  bool cheats_as_errors;   /* --cheats-as-errors */
  bool whole_program;      /* --whole-program: the analysed code is all there is (as when it defines main) */
  bool std_attrs;          /* --spelling=std: suggest C23's [[unsequenced]] / [[reproducible]] */
  bool all;                /* --all: suggestions that gain nothing too, as notes (issue 19) */
  bool verbose;            /* --verbose: notes on what the analysis assumed (issue 19) */
} checks_opts;

void checks_misuse(const link_prog *p, const checks_opts *o, diag_list *out);
/* cheat-discarded: calls of memoising pure/const functions whose value is
 * unused, which the compiler deletes with the first call's work (checks_misuse
 * runs it). */
void checks_discarded(const link_prog *p, const checks_opts *o, diag_list *out);
/* C23 [[unsequenced]] / [[reproducible]] against the bodies (c23.c):
 * misuse-c23 errors, cheat-c23 and allowed-c23 notes. checks_misuse runs it. */
void checks_c23_misuse(const link_prog *p, const checks_opts *o, diag_list *out);
/* Declared pure/const functions that are right only because a library
 * function the knowledge base marks `cheat` (gettext) counts as pure: a
 * note each (kbcheat.c; checks_misuse calls it). */
void checks_kb_cheats(const link_prog *p, const checks_opts *o, diag_list *out);
/* Suggestions come out sorted by gain (most call sites in other files
 * first, then public API), then name. Those that gain nothing are notes
 * with o->all, else left out: returns how many were left out. */
size_t checks_suggest(const link_prog *p, const checks_opts *o, diag_list *out);
/* The C23 suggestions (suggest_c23.c), for the functions c23_std_for
 * picks; checks_suggest runs it after the GNU ones, which skip those. */
void checks_suggest_c23(const link_prog *p, const checks_opts *o, diag_list *out);
void checks_explain(const link_prog *p, const checks_opts *o, diag_list *out);
/* What happens to the value of a call whose use (sum_call_use) is not
 * SCU_USED, in words: "discarded", "only stored into a local …". */
const char *checks_unused_words(unsigned use);
/* Would suggest name f (a returning function whose body is const or pure
 * and whose declarations say less)? Used by fix. */
bool checks_suggestable(const link_prog *p, const link_func *f);
/* What a suggested attribute buys (suggest_gain.c): per function, the
 * call sites in other files (where the compiler does not see the body)
 * it could then delete, merge or hoist, and the header declaring it when
 * it is public API (external, declared in a header, not a whole program). */
typedef struct {
  uint32_t dead, merged, hoisted;   /* call sites in other files */
  uint32_t same_file;               /* sites in its own file: the compiler infers it there */
  const sum_decl *header;           /* public API: its declaration in a header; else NULL */
} checks_gain;
checks_gain *checks_gains_new(const link_prog *p, bool whole_program);   /* caller frees */
uint32_t checks_gain_total(const checks_gain *g);
/* Does the suggestion pay (shown by default, applied by fix without --all)? */
bool checks_gain_pays(const checks_gain *g);
/* Is the analysed code a whole program: --whole-program (opt), or a main
 * defined, once or more (a database of many programs)? */
bool checks_whole_program(const link_prog *p, bool opt);
/* cfgdep.c: per function of p, 0 if its class does not hang on the
 * configuration analysed, CHECKS_CFG_OWN if a declaration of it does (an
 * #if branch skipped here defines it again or lies in its body), else 1 +
 * the index of a callee whose class does. Caller frees. */
#define CHECKS_CFG_OWN UINT32_MAX
/* ... and CHECKS_CFG_OTHER if a file the database does not compile defines
 * it too (p->other_def: another platform's implementation). */
#define CHECKS_CFG_OTHER (UINT32_MAX - 1)
uint32_t *checks_cfgdep_new(const link_prog *p);
/* cfgcond.c: appends to m where the #if that decides f's class is, from
 * its declaration d (SDF_CONFIG) read in the source: "the #else branch of
 * '#if CONFIG_X' (src/a.c:12)". Returns false (m untouched) when the file
 * cannot be read or holds no such #if. */
bool checks_cfg_condition(strbuf *m, const link_prog *p, const sum_decl *d, const char *root);
/* Is f's wrong attribute a deliberate cheat (reported as a note)? */
bool checks_is_cheat(const link_prog *p, uint32_t fi);
/* Is a compiler barrier (asm with no instruction) all that puts f beyond
 * its declared attribute? check says so in a note; fix leaves it alone. */
bool checks_barrier_only(const link_prog *p, uint32_t fi);
/* Is what math functions write into errno all that puts f beyond its
 * declared attribute (a misuse warning, "may set errno")? fix leaves the
 * attribute alone. */
bool checks_math_errno_only(const link_prog *p, uint32_t fi);

/* ---- shared by the checks (callsite.c) ---- */

/* What the compiler can do at one call site, for a callee of class `cls`. */
typedef enum { CS_NONE, CS_DEAD, CS_REDUNDANT, CS_HOIST } cs_kind;
typedef struct {
  cs_kind kind;
  bool blocked;            /* REDUNDANT/HOIST only: something in between stops it */
  bool blocked_for_pure;   /* … and only because the callee is pure, not const */
  int blocker_eff;         /* index into p->effs of the first blocking effect, or -1 */
  int blocker_call;        /* index into p->calls of the first blocking call, or -1 */
  uint32_t first_call;     /* REDUNDANT: index into p->calls of the earlier call */
  bool hoisted;            /* REDUNDANT: the earlier call is on the other branch of an if, and
                              the compiler computes the value once before it (code hoisting) */
  bool after_opaque;       /* HOIST: a call earlier in the iteration may write memory or not
                              return: the compiler keeps this one in the loop, and moving it
                              out by hand may run it where the program never did */
  bool fresh_apart;        /* REDUNDANT/HOIST: stores into blocks the caller allocated
                              (SEF_SCRATCH) change nothing the callee reads, for GCC: they
                              are in nobody's way (clash.c passes over them too) */
} cs_fact;

/* The class the compiler knows a callee by today: its attribute, the
 * knowledge base or builtin attribute for library functions; PURITY_NORMAL
 * when it knows nothing. */
purity checks_known_class(const link_prog *p, const link_func *g);
/* The class a call site is judged by: known today, else inferred. */
purity checks_callee_class(const link_prog *p, const link_func *g);
/* Is effect e out of the way of a merge or a hoist, given the flags
 * `skip` that say so (SEF_LEAVES, SEF_DOOMED, SEF_SCRATCH)? A call through
 * an allocation hook, though SEF_SCRATCH, is unknown code to GCC. */
bool checks_effect_skipped(const sum_effect *e, uint16_t skip);
/* Does the compiler see g's body where f calls it, and use it (GCC's
 * ipa-pure-const infers the class itself, or inlines the body)? A static
 * or inline function, one defined in a header, or one defined in f's own
 * file; never an interposable one (SFF_INTERPOSABLE: -fPIC). */
bool checks_body_seen(const link_prog *p, const link_func *f, const link_func *g);
/* Is the then-branch recorded on call c (sum_call.arm_*) on no path from
 * the earlier call `first` (relative) to c: that call comes before its if? */
bool checks_arm_skips(const link_call *c, uint32_t first);
/* Judges call `ci` (index into p->calls) made by f, as if its callee had
 * class `cls`. */
void checks_callsite(const link_prog *p, const link_func *f, uint32_t ci, purity cls, cs_fact *out);
/* Call ci of f calls a tiny function GCC inlines there, whose copied call
 * of g recomputes an earlier value (link_call.inl_callee): does GCC merge
 * the two when g has class cls? Only a const g merges (the copied
 * arguments read no memory), never one returning a struct or union. */
bool checks_inlined_merge(const link_prog *p, const link_func *f, uint32_t ci, purity cls);

/* A function call c of f passes to a parameter its callee calls through
 * (or to a library callback) whose own class is cls: the one that makes
 * the call as impure as it is; NULL if none (fnptr_why.c). Or, when the
 * callee calls through a member of what that parameter returns, a
 * function the passed lookup's table holds there; *lookup is then the
 * lookup passed (else NULL). */
const link_func *checks_passed_culprit(const link_prog *p, const link_func *f, const link_call *c, purity cls,
                                       const link_func **lookup);

/* generated.c: declarations in files the build generates (issue 13, item 11). */
bool checks_file_generated(const link_prog *p, uint32_t file);
/* gtype.c: a GObject X_get_type function's type registration (the name of
 * the g_*_register* call it makes, directly or through *via, a callee's
 * name), 0 if fi is no such function. */
uint32_t checks_gtype_registration(const link_prog *p, uint32_t fi, uint32_t *via);
/* A prototype in a generated file that carries f's declared attribute,
 * when a diagnostic placed at `at` is elsewhere (emit.c); NULL if none. */
const sum_decl *checks_generated_attr_decl(const link_prog *p, uint32_t fi, sum_loc at);
/* For an external function all of whose prototypes are in generated files:
 * its definition (outside them), with *gen the first such prototype; else
 * NULL (*gen NULL too when no prototype is generated). */
const sum_decl *checks_generated_target(const link_prog *p, uint32_t fi, const sum_decl **gen);
/* "; this file is generated by the build …" when d's file is. */
void checks_generated_where(strbuf *m, const link_prog *p, const sum_decl *d);
/* "; add … to the definition, not to the prototype in X: generated …" */
void checks_generated_advice(strbuf *m, const link_prog *p, const checks_opts *o, const sum_decl *gen,
                             const sum_decl *def, purity cls);

/* Where a function's attribute (SUM_DECL_* `bits`) is written: the first
 * declaration carrying it, a prototype before the definition (emit.c). */
sum_loc checks_attr_loc(const link_prog *p, uint32_t fi, uint8_t bits);

/* emit.c: a finding added at `at` for f, its path printed relative to
 * o->root; checks_related adds a related location to it. */
diag *checks_emit(diag_list *out, const link_prog *p, const checks_opts *o, const char *check,
                  diag_severity sev, sum_loc at, const link_func *f, const char *msg);
void checks_related(diag *d, const link_prog *p, const checks_opts *o, sum_loc at, const char *msg);
/* Where witness `why` of f lies (f itself when it names no effect or
 * call), with the macro it is spelled in (*macro, 0 if none). */
sum_loc checks_why_loc(const link_prog *p, const link_func *f, link_why why, uint32_t *macro);
/* " (via V, file:line:col, in expansion of macro 'M')": where the witness
 * lies, after the chain of calls via (empty: none). */
void checks_why_where(strbuf *msg, const link_prog *p, const checks_opts *o, const link_func *f, link_why why,
                      const strbuf *via);
/* On d, the witness's location as related: "<what f does> here<suffix>". */
void checks_related_why(diag *d, const link_prog *p, const checks_opts *o, const link_func *f, link_why why,
                        const char *suffix);

#endif
