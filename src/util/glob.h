/* glob.h — matching paths and names against the globs of --exclude,
 * --include and --checks (and their .purist keys). */
#ifndef PURIST_GLOB_H
#define PURIST_GLOB_H
#include <stdbool.h>

/* Does name match pat? '*' any run of characters, '?' one, everything
 * else itself (no '/' special: for check names). */
bool glob_match_name(const char *pat, const char *name);
/* Does the relative path (a/b/c.c) match pat, as .gitignore reads a
 * pattern: '*' and '?' stop at '/', '**' spans directories ("**" + "/"
 * also matches no directory at all); a pattern matching a directory
 * matches everything under it; a pattern without '/' matches any
 * component (a file's name, or a directory's on the way). */
bool glob_match_path(const char *pat, const char *path);

#endif
