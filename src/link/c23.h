/* c23.h — C23's [[unsequenced]] and [[reproducible]] (issue 15), solved
 * beside the GNU class: which of the two promises each function keeps, by
 * the standard's own rules (docs/c23-attributes.md). */
#ifndef PURIST_LINK_C23_H
#define PURIST_LINK_C23_H
#include "link/link.h"

/* In order: a join is the maximum. */
typedef enum { C23_UNSEQUENCED = 0, C23_REPRODUCIBLE = 1, C23_NONE = 2 } c23_class;

const char *c23_class_name(c23_class c);
/* "unsequenced", "reproducible" or "none": the C23 attribute among the
 * SUM_DECL_* bits d (unsequenced wins when both are written). */
const char *declared_c23_name(uint8_t d);
/* The class the declared C23 bits promise, C23_NONE if none. */
c23_class c23_declared(uint8_t d);

#endif
