/* glob.c — see glob.h. A backtracking matcher: patterns are a few
 * characters and paths a few components, so no automaton is worth it. */
#include "util/glob.h"
#include <string.h>

/* Matches pat against all of s; slash: '*' and '?' do not cross '/'. */
static bool glob_here(const char *pat, const char *s, bool slash)
{
  for (; *pat; pat++, s++) {
    if (pat[0] == '*' && pat[1] == '*' && slash) {
      pat += 2;
      if (*pat == '/' && glob_here(pat + 1, s, slash)) return true;   /* "**" + "/": no directory */
      for (;; s++) {
        if (glob_here(pat, s, slash)) return true;
        if (!*s) return false;
      }
    }
    if (*pat == '*') {
      for (;; s++) {
        if (glob_here(pat + 1, s, slash)) return true;
        if (!*s || (slash && *s == '/')) return false;
      }
    }
    if (!*s || (*pat == '?' ? slash && *s == '/' : *pat != *s)) return false;
  }
  return *s == '\0';
}

bool glob_match_name(const char *pat, const char *name)
{
  return glob_here(pat, name, false);
}

bool glob_match_path(const char *pat, const char *path)
{
  size_t plen = strlen(pat);
  char buf[4096];
  if (plen && pat[plen - 1] == '/' && plen < sizeof buf) {   /* "tests/": the directory */
    memcpy(buf, pat, plen - 1);
    buf[plen - 1] = '\0';
    pat = buf;
  }
  bool anywhere = !strchr(pat, '/');
  for (const char *start = path;;) {
    /* Each prefix ending at a '/' is a directory the file is in. */
    char prefix[4096];
    for (const char *end = start;; end++) {
      if (*end == '/' || !*end) {
        size_t n = (size_t)(end - start);
        if (n < sizeof prefix) {
          memcpy(prefix, start, n);
          prefix[n] = '\0';
          if (glob_here(pat, prefix, true)) return true;
        }
        if (!*end) break;
      }
    }
    if (!anywhere) return false;
    const char *next = strchr(start, '/');   /* no '/': try from each component on */
    if (!next) return false;
    start = next + 1;
  }
}
