/* ppdir.c — preprocessor directives read from source text (checks/cfgcond.c
 * names the #if a definition hangs on; fix/guard.c follows #if groups). */
#include "util/ppdir.h"
#include "util/strbuf.h"
#include "util/xalloc.h"
#include <ctype.h>
#include <string.h>

/* The directive on the logical line starting at s (continuations joined,
 * comments and runs of blanks squeezed), without the '#'; NULL if the
 * line is not a directive. *next gets the start of the following line,
 * *lines the physical lines it spans. */
char *pp_directive(const char *s, const char **next, uint32_t *lines)
{
  const char *p = s;
  *lines = 1;
  while (*p == ' ' || *p == '\t') p++;
  bool dir = *p == '#';
  strbuf b = {0};
  bool blank = false;
  for (p = dir ? p + 1 : p; *p && *p != '\n'; p++) {
    if (p[0] == '\\' && p[1] == '\n') { p++; ++*lines; continue; }
    if (p[0] == '/' && p[1] == '*') {   /* a comment: a blank */
      const char *e = strstr(p + 2, "*/");
      for (const char *q = p; e && q < e; q++) *lines += *q == '\n';
      p = e ? e + 1 : p + strlen(p) - 1;
      blank = true;
      continue;
    }
    if (p[0] == '/' && p[1] == '/') { while (p[1] && p[1] != '\n') p++; continue; }
    if (!dir) continue;
    if (isspace((unsigned char)*p)) { blank = true; continue; }
    if (blank && b.n) sb_puts(&b, " ");
    blank = false;
    char c[2] = { *p, 0 };
    sb_puts(&b, c);
  }
  *next = *p ? p + 1 : p;
  if (!dir) { sb_free(&b); return NULL; }
  char *d = xstrdup(sb_str(&b));
  sb_free(&b);
  return d;
}

bool pp_is(const char *d, const char *word)
{
  size_t n = strlen(word);
  return !strncmp(d, word, n) && (!d[n] || d[n] == ' ' || d[n] == '(' || d[n] == '!');
}
