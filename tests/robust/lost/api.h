#ifndef API_H
#define API_H
/* Declared pure, but counts its calls in a global: a violation on every call. */
int counted(int x) __attribute__((pure));
/* Declared pure, leaves by longjmp to *env (issue 23 item 8): its exit
 * hook never runs. */
#include <setjmp.h>
int leave(jmp_buf *env) __attribute__((pure));
/* Declared pure; longjmps inside itself (setjmp in its own frame), then
 * writes a global: the jump does not leave it, the write is its own. */
int jumps_inside(int x) __attribute__((pure));
#endif
