/* reason.h — the words for why a function is in its class. */
#ifndef PURIST_REASON_H
#define PURIST_REASON_H
#include "link/link.h"
#include "util/strbuf.h"

/* Paths are printed relative to root when inside it, absolute otherwise. */
void reason_path(strbuf *b, const link_prog *p, uint32_t file, const char *root);
/* Is name the noreturn function a failed assert() calls (__assert_fail …)? */
bool reason_is_assert_fail(const char *name);
/* The full reason of f's class, with locations. */
void reason_class(strbuf *b, const link_prog *p, const link_func *f, const char *root);
/* Why f may not return. */
void reason_mnr(strbuf *b, const link_prog *p, const link_func *f, const char *root);
/* The reason's first step only, without locations ("writes static 'x'"). */
void reason_head(strbuf *b, const link_prog *p, const link_func *f, const char *root);
/* The same for a cause `why` of f other than f->why (the misuse witness
 * past a compiler barrier). */
void reason_head_why(strbuf *b, const link_prog *p, const link_func *f, link_why why, const char *root);
/* One step of the chain, without f's own location and name: the call that
 * is f's first cause ("calls g at file:line:col", with what is known of g
 * when it has no body) or f's own reason. Returns the callee the chain
 * goes on into, or NULL where it ends. */
const link_func *reason_step(strbuf *b, const link_prog *p, const link_func *f, const char *root);
/* The words for one effect ("writes static 'x'") and for one call
 * ("calls g", with what is known of g when it has no body). */
void reason_effect_text(strbuf *b, const link_prog *p, const sum_effect *e);
void reason_call_text(strbuf *b, const link_prog *p, const link_call *c, const char *root);
/* "calls mbrtowc, sets errno on bad input": a direct call of a library
 * function whose knowledge-base entry has `nullN` (c's callee must have
 * one), where the pointer N is known not to be null: the entry's reason
 * without its clause on the null pointer. */
void reason_call_state_given(strbuf *b, const link_prog *p, const link_call *c);
/* One line per step from f down the chain of first causes (--why). */
void reason_chain(strbuf *b, const link_prog *p, const link_func *f, const char *root);

/* Is name a C library internal the user never writes (reserved: "__x",
 * "_X")? */
bool reason_is_internal(const char *name);
/* The callee of c as the user wrote it (issue 19 item 4): a library
 * internal reached through a macro is named by the macro, "isalpha (its
 * expansion calls __ctype_b_loc)"; errno's accessor is "errno (read
 * through __errno_location)"; anything else by its name. quote: in '…'. */
void reason_callee(strbuf *b, const link_prog *p, const link_call *c, bool quote);
/* ", in expansion of macro 'X'" when macro (a string id) is set: the
 * witness's text comes from that macro (sum_effect.macro). */
void reason_macro(strbuf *b, const link_prog *p, uint32_t macro);

#endif
