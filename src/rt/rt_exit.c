/* rt_exit.c — the ways a process ends or is replaced without running its
 * destructors: _exit, _Exit and the exec family, interposed (like malloc,
 * rt_heap.c) so that the report is written first. Without this, a
 * program that execs, calls _exit, or whose own SIGSEGV handler calls
 * _exit lost its findings, and verify said the runtime was not linked.
 *
 * An exec's report gets a name of its own (the new image may load the
 * runtime again with the same pid); if the exec fails, that report is
 * removed and the process goes on to write its full one at exit.
 * SIGKILL cannot be caught: the process's mark (rt_report.c) tells verify
 * that it ended without a report. A vfork child runs in its parent's
 * memory: prt_report_mine keeps it from writing or marking anything.
 *
 * quick_exit too. Not intercepted: the raw exit_group and execve system
 * calls, and the C library's own internal calls (exit() itself runs the
 * destructors): such a process keeps its mark, and verify says its
 * findings are lost (exit 2).
 *
 * Inside a checked frame these stand for the program's system call
 * (exit_group, execve): recorded as the function's before the report is
 * written, then the runtime's own calls pass (rt_sys.c). */
#include "rt/rt.h"
#include <dlfcn.h>
#include <errno.h>
#include <stdarg.h>
#include <sys/syscall.h>
#include <unistd.h>

/* The program's system call nr, seen in a frame; the runtime's calls then pass. */
PRT_NOINST static char rt_stands_for(long nr)
{
  long a[6] = { 0, 0, 0, 0, 0, 0 };
  prt_sys_note(nr, a);
  return prt_sys_pause();
}

PRT_API void _exit(int status)
{
  rt_stands_for(SYS_exit_group);
  prt_report_write();
  syscall(SYS_exit_group, status);
  __builtin_unreachable();
}

PRT_API void _Exit(int status)
{
  rt_stands_for(SYS_exit_group);
  prt_report_write();
  syscall(SYS_exit_group, status);
  __builtin_unreachable();
}

/* quick_exit runs the at_quick_exit handlers, then the C library's own
 * _Exit (not through the PLT, so not the one above): the report first. */
typedef void (*rt_quick_exit_fn)(int);
PRT_API void quick_exit(int status)
{
  rt_stands_for(SYS_exit_group);
  prt_report_write();
  rt_quick_exit_fn f = (rt_quick_exit_fn)dlsym(RTLD_NEXT, "quick_exit");
  if (f) f(status);
  syscall(SYS_exit_group, status);
  __builtin_unreachable();
}

typedef int (*rt_execve_fn)(const char *, char *const[], char *const[]);
typedef int (*rt_execv_fn)(const char *, char *const[]);
typedef int (*rt_fexecve_fn)(int, char *const[], char *const[]);

/* The C library's function `name`, past this interposer. */
PRT_NOINST static void *rt_next(const char *name)
{
  return dlsym(RTLD_NEXT, name);
}

/* Around one exec: the report before, and its removal if the exec fails. */
#define RT_EXEC(call)                                               \
  do {                                                              \
    char path_[4096];                                               \
    char sel_ = rt_stands_for(SYS_execve);                          \
    bool wrote_ = prt_report_before_exec(path_, sizeof path_);      \
    int rc_ = (call);                                               \
    int e_ = errno;                                                 \
    if (wrote_) prt_report_exec_failed(path_);                      \
    prt_sys_resume(sel_);                                           \
    errno = e_;                                                     \
    return rc_;                                                     \
  } while (0)

PRT_API int execve(const char *path, char *const argv[], char *const envp[])
{
  rt_execve_fn f = (rt_execve_fn)rt_next("execve");
  RT_EXEC(f ? f(path, argv, envp) : -1);
}

PRT_API int execv(const char *path, char *const argv[])
{
  rt_execv_fn f = (rt_execv_fn)rt_next("execv");
  RT_EXEC(f ? f(path, argv) : -1);
}

PRT_API int execvp(const char *file, char *const argv[])
{
  rt_execv_fn f = (rt_execv_fn)rt_next("execvp");
  RT_EXEC(f ? f(file, argv) : -1);
}

PRT_API int execvpe(const char *file, char *const argv[], char *const envp[])
{
  rt_execve_fn f = (rt_execve_fn)rt_next("execvpe");
  RT_EXEC(f ? f(file, argv, envp) : -1);
}

PRT_API int fexecve(int fd, char *const argv[], char *const envp[])
{
  rt_fexecve_fn f = (rt_fexecve_fn)rt_next("fexecve");
  RT_EXEC(f ? f(fd, argv, envp) : -1);
}

/* execl, execlp, execle: the arguments into an array, then the v forms
 * above (which write the report). At most 4096 arguments, as a bounded
 * stack array; more fail with E2BIG. */
#define RT_MAX_ARGS 4096
#define RT_COLLECT(ap, arg0, argv, n)                                    \
  do {                                                                   \
    (argv)[0] = (char *)(arg0);                                          \
    for ((n) = 1; (argv)[(n) - 1] && (n) < RT_MAX_ARGS; (n)++)           \
      (argv)[n] = va_arg(ap, char *);                                    \
  } while (0)

PRT_API int execl(const char *path, const char *arg, ...)
{
  char *argv[RT_MAX_ARGS];
  size_t n;
  va_list ap;
  va_start(ap, arg);
  RT_COLLECT(ap, arg, argv, n);
  va_end(ap);
  if (argv[n - 1]) { errno = E2BIG; return -1; }
  return execv(path, argv);
}

PRT_API int execlp(const char *file, const char *arg, ...)
{
  char *argv[RT_MAX_ARGS];
  size_t n;
  va_list ap;
  va_start(ap, arg);
  RT_COLLECT(ap, arg, argv, n);
  va_end(ap);
  if (argv[n - 1]) { errno = E2BIG; return -1; }
  return execvp(file, argv);
}

PRT_API int execle(const char *path, const char *arg, ...)
{
  char *argv[RT_MAX_ARGS];
  size_t n;
  va_list ap;
  va_start(ap, arg);
  RT_COLLECT(ap, arg, argv, n);
  char *const *envp = va_arg(ap, char *const *);
  va_end(ap);
  if (argv[n - 1]) { errno = E2BIG; return -1; }
  return execve(path, argv, envp);
}
