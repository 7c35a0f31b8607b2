/* xalloc.h — allocation that never returns NULL.
 * Out of memory, purist prints one line and exits with status 2 (input or
 * environment error): there is no partial result worth keeping. */
#ifndef PURIST_XALLOC_H
#define PURIST_XALLOC_H
#include <stddef.h>
#include <stdlib.h>

void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
/* printf into a fresh string the caller frees. */
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
