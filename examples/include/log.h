/*
** log.h - diagnostics on stderr.
*/
#ifndef EX_LOG_H
#define EX_LOG_H

#include "compiler.h"

enum { LOG_ERROR, LOG_WARN, LOG_INFO, LOG_DEBUG };

/* Most verbose level printed; main() raises it for each -v. */
extern int log_level;

/* Whether messages at LEVEL are printed. */
int log_enabled(int level) EX_CONST;

/* "error", "warning", ... for LEVEL, or "?" if LEVEL is unknown. */
const char *log_level_name(int level);

/* What the current thread is doing ("layout", ...), shown in messages. */
void log_set_context(const char *what);
const char *log_context(void);

/* Prints "demo: LEVEL: message" on stderr if LEVEL is enabled. */
void log_msg(int level, const char *fmt, ...) EX_PRINTF(2, 3);

/* Prints MSG on stderr and exits with status 1. */
_Noreturn void die(const char *msg);

#endif /* EX_LOG_H */
