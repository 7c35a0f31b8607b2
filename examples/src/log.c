/*
** log.c - diagnostics on stderr.
*/
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "log.h"

int log_level = LOG_WARN;

static _Thread_local const char *context;   /* per thread: no locking */

static const char *const level_names[] = {
    "error", "warning", "info", "debug",
};

/* purist: pure, declared EX_CONST — misuse: reads the mutable global log_level */
int log_enabled(int level)
{
    return level <= log_level;
}

/* purist: const — indexes a read-only array of read-only pointers */
const char *log_level_name(int level)
{
    if (level < 0 || level >= (int)(sizeof level_names / sizeof level_names[0]))
        return "?";
    return level_names[level];
}

/* purist: normal — writes the _Thread_local context */
void log_set_context(const char *what)
{
    context = what;
}

/* purist: pure — reads the _Thread_local context */
const char *log_context(void)
{
    return context;
}

/* purist: normal — I/O: fprintf() and vfprintf() on stderr */
void log_msg(int level, const char *fmt, ...)
{
    va_list ap;

    if (!log_enabled(level))
        return;
    fprintf(stderr, "demo: %s: ", log_level_name(level));
    if (log_context())
        fprintf(stderr, "[%s] ", log_context());
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

/* purist: pure, may not return — its effects all lead to exit(), so they count only as reads (--strict: normal) */
_Noreturn void die(const char *msg)
{
    fprintf(stderr, "demo: fatal: %s\n", msg);
    exit(EXIT_FAILURE);
}
