/* strbuf.h — a growable, always NUL-terminated string. */
#ifndef PURIST_STRBUF_H
#define PURIST_STRBUF_H
#include <stddef.h>

typedef struct { char *s; size_t n, cap; } strbuf;

void sb_puts(strbuf *b, const char *s);
void sb_printf(strbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The string so far ("" if nothing was added); owned by b. */
const char *sb_str(const strbuf *b);
void sb_clear(strbuf *b);
void sb_free(strbuf *b);

#endif
