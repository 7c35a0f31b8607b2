/* c23.h — C23's [[unsequenced]] and [[reproducible]] (issue 15), solved
 * beside the GNU class: which of the two promises each function keeps, by
 * the standard's own rules (c23.c; docs/c23-attributes.md). */
#ifndef PURIST_LINK_C23_H
#define PURIST_LINK_C23_H
#include "link/link.h"
#include "util/ptrmap.h"

/* In order: a join is the maximum. */
typedef enum { C23_UNSEQUENCED = 0, C23_REPRODUCIBLE = 1, C23_NONE = 2 } c23_class;

typedef struct {
  uint8_t own;       /* c23_class of everything but the parameter effects */
  uint8_t memo;      /* keeps a private memo (allowed in reproducible only) */
  uint64_t pr, pw;   /* parameters read / written through */
} c23_state;

/* One function's result (link_prog.c23[fi], after link_solve). */
typedef struct link_c23 {
  c23_state st;
  uint8_t cls;       /* c23_class */
  uint8_t idem;      /* why is a write through a parameter f also reads through */
  link_why why;      /* WHY_EFFECT / WHY_CALL: the first thing keeping it from the class above;
                        WHY_NONE when unsequenced; WHY_UNKNOWN_BODY without a body */
} link_c23;

const char *c23_class_name(c23_class c);
/* "unsequenced", "reproducible" or "none": the C23 attribute among the
 * SUM_DECL_* bits d (unsequenced wins when both are written). */
const char *declared_c23_name(uint8_t d);
/* The class the declared C23 bits promise, C23_NONE if none. */
c23_class c23_declared(uint8_t d);
/* A state's class: none when it writes through a parameter it also reads
 * through (idempotence unproven). */
c23_class c23_state_class(const c23_state *s);

/* Does the project already write [[unsequenced]] or [[reproducible]]
 * (in any spelling, or through a macro) on a declaration of its own? */
bool c23_project_writes_std(const link_prog *p);
/* Should suggest and fix speak C23 for f: asked to (--spelling=std), or
 * f's TU is compiled as C23 and the project already writes C23 attributes
 * (`project_std`, from c23_project_writes_std)? */
bool c23_std_for(const link_func *f, bool asked, bool project_std);
/* Is a C23 attribute worth writing on f: it returns a value, or it writes
 * through a pointer parameter (a sincos-like void function)? */
bool c23_useful(const link_prog *p, uint32_t fi);

/* Fills p->c23; link_solve calls it after the GNU solve. */
void link_c23_solve(link_prog *p);

/* Statics and thread-locals by writer (link_obj_writers), for
 * c23_is_memo_store. */
ptrmap *c23_writers_new(const link_prog *p);
void c23_writers_free(ptrmap *w);
/* Is effect e of function fi a store no caller can observe: a private
 * static or thread-local written under an "already computed?" test, with
 * a value that does not come from the arguments (SEF_ARG_VALUE)? */
bool c23_is_memo_store(const ptrmap *writers, uint32_t fi, const sum_effect *e);

#endif
