/* fields.h — calls through function-pointer fields, resolved over the
 * whole program (issue 30, item 5): link.c merges the TUs' facts here,
 * link_solve resolves them before it solves. */
#ifndef PURIST_LINK_FIELDS_H
#define PURIST_LINK_FIELDS_H
#include "link/link.h"

/* The TU's field stores, its functions mapped by map (TU → program). */
void link_fields_add(link_prog *p, const sum_tu *tu, const uint32_t *map);
/* The calls through fields of TU function sfi, whose body is appended to
 * program function gi after its first eff_before effects. */
void link_fields_add_body(link_prog *p, const sum_tu *tu, uint32_t sfi, uint32_t gi, uint32_t eff_before);
/* Each call through a field whose values the whole program fixes becomes
 * one SCF_TABLE call per value; its SE_CALL_INDIRECT effect is marked
 * LINK_EF_RESOLVED. Nothing happens unless the program is whole
 * (link_is_whole_program) and every TU of it was read. */
void link_fields_resolve(link_prog *p);
/* link.c: a TU's string id as the program's. */
uint32_t link_tu_str(link_prog *p, const sum_tu *tu, uint32_t id);

#endif
