/* clash.h — can what a stretch of code writes reach what a pure call reads?
 *
 * `explain` may advise "compute it once before the loop" or "reuse the
 * first call's value" only where that keeps the program's behaviour: no
 * store and no call in the loop (or between the two calls) may change
 * anything the callee reads. What the callee reads comes from its summary,
 * as GCC's modref knows it: the parameters it reads through (mapped to the
 * caller's arguments), the globals it reads, memory it reaches through
 * pointers it loads, library state (locale, environment), all transitively
 * through its callees. What the stretch writes comes from the caller's own
 * effects and from the footprints of the functions it calls. */
#ifndef PURIST_CLASH_H
#define PURIST_CLASH_H
#include "checks/checks.h"

typedef enum {
  CLASH_NONE,     /* nothing written reaches what the callee reads */
  CLASH_MAYBE,    /* only stores through other pointers that may point into it: the
                     advice holds under the conditions in clash_verdict.cond */
  CLASH_UNKNOWN,  /* a write purist cannot place may reach it: no advice */
  CLASH_SAME,     /* the stretch writes what the callee reads: the calls differ */
  CLASH_LOCAL     /* the callee reads the caller's own locals, whose writes are not
                     effects (through &local or a local array): nothing can be said */
} clash_level;

typedef struct {
  clash_level level;
  int eff;        /* the write that decides the level: index into p->effs, or -1 */
  int call;       /* … or the call that makes it: index into p->calls, or -1 */
  strbuf cond;    /* CLASH_MAYBE: "'dst' never points into what 'strlen' reads" (and …) */
  uint32_t async_fn;    /* CLASH_UNKNOWN because of it: 1 + the function called only through
                           a pointer (a signal handler, a callback) that writes … */
  uint32_t async_obj;   /* … the global the callee reads (a string id); 0 if none */
} clash_verdict;

typedef struct clash_ctx clash_ctx;

clash_ctx *clash_new(const link_prog *p, const checks_opts *o);
void clash_free(clash_ctx *x);
/* Judges call ci (index into p->calls) of f, whose fact (CS_HOIST or
 * CS_REDUNDANT) says what lies in between; fills *out (free its cond with
 * clash_verdict_free). */
void clash_judge(clash_ctx *x, const link_func *f, uint32_t ci, const cs_fact *fact, clash_verdict *out);
void clash_verdict_free(clash_verdict *v);

#endif
