/* clobber.c — see clobber.h. */
#include "cli/clobber.h"
#include <sys/stat.h>
#include "util/xalloc.h"

void clobber_init(clobber_guard *g, const char *flag, const char *out)
{
  struct stat st;
  g->flag = flag;
  g->out = out;
  g->exists = out && stat(out, &st) == 0;
  g->dev = g->exists ? st.st_dev : 0;
  g->ino = g->exists ? st.st_ino : 0;
}

int clobber_check(const clobber_guard *g, const char *input, char **err)
{
  struct stat st;
  if (!g->exists || !input || stat(input, &st) != 0 || st.st_dev != g->dev || st.st_ino != g->ino) return 0;
  *err = xasprintf("%s %s is the input file %s: refusing to overwrite it", g->flag, g->out, input);
  return -1;
}

void clobber_outs_init(clobber_outs *c, const cli_opts *o)
{
  clobber_init(&c->g[0], "-o", o->output);
  clobber_init(&c->g[1], "--write-baseline", o->write_baseline);
}

int clobber_outs_check(const clobber_outs *c, const char *input, char **err)
{
  for (size_t i = 0; i < sizeof c->g / sizeof *c->g; i++)
    if (clobber_check(&c->g[i], input, err) < 0) return -1;
  return 0;
}

int clobber_check_options(const cli_opts *o, char **err)
{
  clobber_outs c;
  clobber_outs_init(&c, o);
  for (size_t i = 0; i < o->files.n; i++)
    if (clobber_outs_check(&c, o->files.v[i], err) < 0) return -1;
  for (size_t i = 0; i < o->kb_files.n; i++)
    if (clobber_outs_check(&c, o->kb_files.v[i], err) < 0) return -1;
  const char *named[] = { o->from, o->verify };
  for (size_t i = 0; i < sizeof named / sizeof *named; i++)
    if (clobber_outs_check(&c, named[i], err) < 0) return -1;
  /* --baseline B --write-baseline B updates the baseline: B is read first. */
  return clobber_check(&c.g[0], o->baseline, err);
}

int clobber_check_prog(const cli_opts *o, const link_prog *p, char **err)
{
  clobber_outs c;
  clobber_outs_init(&c, o);
  if (!c.g[0].exists && !c.g[1].exists) return 0;
  for (size_t i = 0; i < p->files.n; i++)
    if (clobber_outs_check(&c, strtab_get(p->strs, p->files.v[i].file), err) < 0) return -1;
  return 0;
}

int clobber_check_sums(const cli_opts *o, sum_tu *const *sums, size_t n, char **err)
{
  clobber_outs c;
  clobber_outs_init(&c, o);
  if (!c.g[0].exists && !c.g[1].exists) return 0;
  for (size_t i = 0; i < n; i++)
    for (size_t f = 0; sums[i] && f < sums[i]->files.n; f++)
      if (clobber_outs_check(&c, strtab_get(sums[i]->strs, sums[i]->files.v[f].file), err) < 0) return -1;
  return 0;
}

bool clobber_outs_exist(const cli_opts *o)
{
  clobber_outs c;
  clobber_outs_init(&c, o);
  return c.g[0].exists || c.g[1].exists;
}

int clobber_check_strtab(const cli_opts *o, const strtab *t, char **err)
{
  clobber_outs c;
  clobber_outs_init(&c, o);
  if (!c.g[0].exists && !c.g[1].exists) return 0;
  for (uint32_t i = 1; i < strtab_count(t); i++)
    if (clobber_outs_check(&c, strtab_get(t, i), err) < 0) return -1;
  return 0;
}
