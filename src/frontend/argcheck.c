/* argcheck.c — a noreturn call that checks the function's arguments
 * (issue 30: GMP).
 *
 * GMP declares mpz_tdiv_ui pure and begins it with `if (UNLIKELY (divisor
 * == 0)) DIVIDE_BY_ZERO;`, which raises SIGFPE. `check` warned "may not
 * return … drop the attribute, or move the check to the callers": advice
 * its maintainers would not take, for the same reason as for a failed
 * assertion or a `default: abort ();` over every enumerator. The branch
 * runs only for an argument the function's contract rules out; a correct
 * caller never takes it.
 *
 * A call is such a check (SCF_ARGCHECK) when its callee is declared
 * noreturn, is no normal way out (the exit family ends the program as
 * asked; longjmp hands control back to a caller), and the innermost `if`
 * around it tests only the function's parameters, never assigned
 * (fw_input_test). `check` then reports the path as it reports a failed
 * assertion: a note that still says the check goes with a deleted call
 * (checks/noreturn.c). The class does not change. */
#include "frontend/walk.h"
#include <string.h>

/* Ways out that are what the program asked for, not a check failing. */
static const char *const ac_normal_exits[] = {
  "exit", "_exit", "_Exit", "quick_exit", "pthread_exit", "thrd_exit",
  "longjmp", "_longjmp", "siglongjmp", "__longjmp_chk", "__builtin_longjmp",
};

static bool ac_normal_exit(CXCursor call)
{
  CXString s = clang_getCursorSpelling(clang_getCursorReferenced(call));
  const char *n = clang_getCString(s);
  bool yes = false;
  for (size_t i = 0; n && i < sizeof ac_normal_exits / sizeof ac_normal_exits[0]; i++)
    yes = yes || !strcmp(n, ac_normal_exits[i]);
  clang_disposeString(s);
  return yes;
}

int fw_argcheck_enter(fw *w, CXCursor cond)
{
  int before = w->argcheck;
  w->argcheck = fw_input_test(w, cond);
  return before;
}

void fw_argcheck_leave(fw *w, int before)
{
  w->argcheck = before;
}

uint32_t fw_argcheck_flag(const fw *w, CXCursor call, bool noreturn)
{
  return noreturn && w->argcheck && !ac_normal_exit(call) ? SCF_ARGCHECK : 0;
}
