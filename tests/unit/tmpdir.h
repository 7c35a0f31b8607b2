/* tmpdir.h — scratch directories for unit tests.
 *
 * tmpdir_new makes a fresh directory under /tmp (mkdtemp) and returns its
 * canonical path (realpath, so it compares equal to getcwd() inside it);
 * tmpdir_free removes it with everything in it and frees the path. */
#ifndef PURIST_UNIT_TMPDIR_H
#define PURIST_UNIT_TMPDIR_H

char *tmpdir_new(void);
void tmpdir_free(char *dir);
/* Writes `text` to dir/name (creating it) and returns the full path
 * (caller frees), or NULL if it could not be written. */
char *tmpdir_write(const char *dir, const char *name, const char *text);

#endif
