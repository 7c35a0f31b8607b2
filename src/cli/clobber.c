/* clobber.c — see clobber.h. */
#include "cli/clobber.h"
#include <sys/stat.h>
#include "util/xalloc.h"

void clobber_init(clobber_guard *g, const char *out)
{
  struct stat st;
  g->out = out;
  g->exists = out && stat(out, &st) == 0;
  g->dev = g->exists ? st.st_dev : 0;
  g->ino = g->exists ? st.st_ino : 0;
}

int clobber_check(const clobber_guard *g, const char *input, char **err)
{
  struct stat st;
  if (!g->exists || !input || stat(input, &st) != 0 || st.st_dev != g->dev || st.st_ino != g->ino) return 0;
  *err = xasprintf("-o %s is the input file %s: refusing to overwrite it", g->out, input);
  return -1;
}

int clobber_check_options(const cli_opts *o, char **err)
{
  clobber_guard g;
  clobber_init(&g, o->output);
  if (!g.exists) return 0;
  for (size_t i = 0; i < o->files.n; i++)
    if (clobber_check(&g, o->files.v[i], err) < 0) return -1;
  for (size_t i = 0; i < o->kb_files.n; i++)
    if (clobber_check(&g, o->kb_files.v[i], err) < 0) return -1;
  const char *named[] = { o->baseline, o->from, o->verify };
  for (size_t i = 0; i < sizeof named / sizeof *named; i++)
    if (clobber_check(&g, named[i], err) < 0) return -1;
  return 0;
}
