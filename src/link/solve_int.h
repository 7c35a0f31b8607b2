/* solve_int.h — what solve.c and indirect.c share (not for other modules). */
#ifndef PURIST_SOLVE_INT_H
#define PURIST_SOLVE_INT_H
#include "link/link.h"

/* solve.c */
/* A callee's reads (pr) and writes (pw) through its parameters, seen
 * through the arguments' provenances: adds the caller's own parameters
 * they reach to *pr / *pw, and says whether they reach memory of unknown
 * provenance (*rd_unknown) or write it or read-only data (*wr_unknown).
 * An all-ones set (the knowledge base's r* / w*) covers the arguments
 * actually passed; a named parameter the caller did not pass (an
 * old-style call) may point anywhere. Shared by the GNU and C23 solves. */
void link_map_params(uint64_t cpr, uint64_t cpw, const uint64_t *masks, uint32_t nargs, uint64_t *pr,
                     uint64_t *pw, bool *rd_unknown, bool *wr_unknown);
/* The same, with the call's pointee masks (SCF_PTE: pte[i] where the
 * pointer argument i points to points; NULL: none): a callee's virtual
 * parameter nargs + i (SEF_PTE) maps through pte[i]. */
void link_map_params_pte(uint64_t cpr, uint64_t cpw, const uint64_t *masks, uint32_t nargs, const uint64_t *pte,
                         uint64_t *pr, uint64_t *pw, bool *rd_unknown, bool *wr_unknown);
/* Folds callee state cs, seen through the arguments' provenances, into s. */
void link_solve_apply(link_state *s, const link_state *cs, const uint64_t *masks, uint32_t nargs);
void link_solve_apply_pte(link_state *s, const link_state *cs, const uint64_t *masks, uint32_t nargs,
                          const uint64_t *pte);
/* A call's pointee masks, or NULL (SCF_PTE). */
static inline const uint64_t *link_call_pte(const link_prog *p, const link_call *c)
{
  return (c->flags & SCF_PTE) && c->nargs ? p->argmasks.v + c->arg_off + c->nargs : NULL;
}
/* What calling g gives, without knowing anything of the call site. */
link_state link_solve_callee(const link_prog *p, const link_func *caller, const link_func *g);
/* A knowledge-base entry's state, its callbacks left out (indirect.c adds them). */
link_state link_solve_kb(const link_prog *p, const link_func *caller, const kb_entry *e);
void link_solve_effect(link_state *s, const sum_effect *e, bool strict);
void link_solve_cap_doomed(link_state *s);

/* indirect.c: function pointers resolved per call site (issue 13, item 4). */

/* What a function's function-pointer parameters are bound to at one call:
 * fn[i] = 1 + index of the function passed as parameter i; 0: unknown. */
typedef struct { uint32_t fn[PROV_MAX_PARAMS]; } link_bind;
#define LINK_BIND_NULL UINT32_MAX   /* a null pointer: nothing is called through it */

/* The contribution of call c of f (what solve_call computed before): f's
 * own function-pointer parameters are bound by fb (NULL: unknown), so
 * functions passed on to c's callee, and a library callee's callbacks, are
 * resolved when they are known. */
void link_ind_call(const link_prog *p, const link_func *f, const link_call *c, const link_bind *fb,
                   link_state *out);
/* The same for `check` (link/capture.c): callees with a body count with
 * their check state (sst), which the caller's callees already have. */
void link_ind_call_check(const link_prog *p, const link_func *f, const link_call *c, link_state *out);
/* Sets every function's pc before the solve (it depends on no class). */
void link_ind_prepare(link_prog *p);
/* rotable.c: reads through a read-only table another TU defines and
 * vouches for become reads of read-only data (before the solve). */
void link_resolve_ro_tables(link_prog *p);
/* Is argument a of f (a function passed) one its callee calls through? */
bool link_ind_arg_called(const link_prog *p, const link_func *f, const sum_fnarg *a);

#endif
