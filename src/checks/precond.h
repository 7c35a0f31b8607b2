/* precond.h — precondition guards: the check at the top of a function that
 * logs and returns when its caller broke the contract (GLib's
 * g_return_val_if_fail, g_return_if_reached, g_warn_if_fail; PulseAudio's
 * pa_return_val_if_fail; systemd's assert_return). Programmer errors, not
 * behaviour: GLib declares such functions const or pure on purpose, and
 * G_DISABLE_CHECKS removes the checks. check reports a function whose only
 * effects beyond its attribute are such a guard's as a note (noreturn.c),
 * not a misuse error; infer and suggest still count the call in full. */
#ifndef PURIST_CHECKS_PRECOND_H
#define PURIST_CHECKS_PRECOND_H
#include <stdbool.h>
#include "link/link.h"

/* Which calls are a guard's report: link_guard_call (link/guard.c). */

/* What removes the guard: " (built with G_DISABLE_CHECKS there is no such
 * path)" for GLib's macros, else "". */
const char *precond_off(const link_prog *p, const link_call *cl);

#endif
