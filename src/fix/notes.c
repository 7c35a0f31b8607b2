/* notes.c — what every part of fix shares: the notes a plan or an apply
 * leaves for the user, and paths relative to the project root. */
#include "fix/fix_internal.h"
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void fix_note_add(fix_notes *n, bool error, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  char *text = NULL;
  if (vasprintf(&text, fmt, ap) < 0) text = xstrdup(fmt);   /* no memory for the details */
  va_end(ap);
  fix_note note = { text, error };
  vec_push(n, note);
}

/* The path below root, or NULL if it is not below it. */
const char *fix_rel(const char *path, const char *root)
{
  size_t n = strlen(root);
  while (n > 1 && root[n - 1] == '/') n--;
  if (n == 1 && root[0] == '/') return path[0] == '/' ? path + 1 : NULL;
  return !strncmp(path, root, n) && path[n] == '/' ? path + n + 1 : NULL;
}

void fix_notes_free(fix_notes *n)
{
  for (size_t i = 0; i < n->n; i++) free(n->v[i].text);
  vec_free(n);
}
