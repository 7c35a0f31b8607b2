/* tmpdir.c — see tmpdir.h. */
#include "tmpdir.h"
#include "util/xalloc.h"
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

char *tmpdir_new(void)
{
  char templ[] = "/tmp/purist-unit-XXXXXX";
  if (!mkdtemp(templ)) return NULL;
  char *real = realpath(templ, NULL);
  return real ? real : xstrdup(templ);
}

static int tmpdir_remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
  return remove(path);
}

void tmpdir_free(char *dir)
{
  if (!dir) return;
  nftw(dir, tmpdir_remove_one, 16, FTW_DEPTH | FTW_PHYS);
  free(dir);
}

char *tmpdir_write(const char *dir, const char *name, const char *text)
{
  char *path = xasprintf("%s/%s", dir, name);
  FILE *f = fopen(path, "w");
  if (!f) { free(path); return NULL; }
  int ok = fputs(text, f) >= 0;
  ok &= fclose(f) == 0;
  if (!ok) { free(path); return NULL; }
  return path;
}
