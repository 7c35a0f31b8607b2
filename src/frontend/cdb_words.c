/* cdb_words.c — a database entry's words and paths: a `command` string
 * split as the shell would, and paths joined to the entry's directory.
 * The database reader (cdb.c) and the response-file reader (cdb_rsp.c)
 * both call it; it calls neither. */
#include "frontend/cdb.h"
#include <string.h>

char *cdb_abspath(const char *dir, const char *path)
{
  char *joined = path[0] == '/' ? xstrdup(path) : xasprintf("%s/%s", dir, path);
  /* Lexical normalisation in place: segments are copied down over ".." */
  char *out = xmalloc(strlen(joined) + 2);
  size_t n = 0;
  for (char *seg = joined; *seg;) {
    char *slash = strchr(seg, '/');
    size_t len = slash ? (size_t)(slash - seg) : strlen(seg);
    if (len == 0 || (len == 1 && seg[0] == '.')) {
      /* skip */
    } else if (len == 2 && seg[0] == '.' && seg[1] == '.') {
      while (n > 0 && out[n - 1] != '/') n--;
      if (n > 0) n--;
    } else {
      out[n++] = '/';
      memcpy(out + n, seg, len);
      n += len;
    }
    seg += len + (slash ? 1 : 0);
  }
  if (n == 0) out[n++] = '/';
  out[n] = '\0';
  free(joined);
  return out;
}

char **cdb_split_command(const char *cmd, int *argc)
{
  VEC(char *) av = {0};
  VEC(char) w = {0};
  const char *p = cmd;
  for (;;) {
    while (*p == ' ' || *p == '\t' || *p == '\n') p++;
    if (!*p) break;
    w.n = 0;
    while (*p && *p != ' ' && *p != '\t' && *p != '\n') {
      if (*p == '\'') {
        const char *q = strchr(p + 1, '\'');
        if (!q) goto bad;
        for (p++; p < q; p++) vec_push(&w, *p);
        p++;
      } else if (*p == '"') {
        for (p++; *p && *p != '"'; p++) {
          if (*p == '\\' && p[1] && strchr("\"\\$`\n", p[1])) p++;
          vec_push(&w, *p);
        }
        if (*p != '"') goto bad;
        p++;
      } else if (*p == '\\' && p[1]) {
        vec_push(&w, p[1]);
        p += 2;
      } else {
        vec_push(&w, *p++);
      }
    }
    vec_push(&av, xstrndup(w.v ? w.v : "", w.n));
  }
  vec_free(&w);
  vec_push(&av, NULL);
  *argc = (int)av.n - 1;
  return av.v;
bad:
  vec_free(&w);
  for (size_t i = 0; i < av.n; i++) free(av.v[i]);
  vec_free(&av);
  return NULL;
}

void cdb_argv_free(char **argv, int argc)
{
  if (!argv) return;
  for (int i = 0; i < argc; i++) free(argv[i]);
  free(argv);
}
