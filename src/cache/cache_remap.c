/* cache_remap.c — a cached summary made before an edit that changed only
 * comments or spacing in some files: its locations in those files are
 * moved to where the same tokens are now (issue 32 item 2).
 *
 * Every line/column the summary format holds (docs/summary-format.md) is
 * at or inside a token: a function's, effect's or call's place, a
 * declaration's name, first token and end (just past its last token), an
 * attribute's name or macro use. The files' tokens are identical before
 * and after (the token hash says so), so token k of the old text is token
 * k of the new one, and a position inside a token keeps its offset. A
 * position that is neither (spacing, a comment) cannot be moved exactly:
 * the summary is refused and the TU parsed, never served with a stale
 * line. So is one that names a moved file in any other way (a string
 * holding its path, a message), or a location in a file the cache did
 * not check under that name. */
#include "cache/cache_internal.h"
#include <string.h>

/* The index of the last token starting at or before (line, col), or -1. */
static long remap_find(const clex_toks *t, uint32_t line, uint32_t col)
{
  size_t lo = 0, hi = t->n;   /* answer in [lo, hi) - 1 */
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    const clex_tok *k = &t->v[mid];
    if (k->bl < line || (k->bl == line && k->bc <= col)) lo = mid + 1;
    else hi = mid;
  }
  return (long)lo - 1;
}

/* Moves one position of file m; 0, or -1 if it is not at or in a token. */
static int remap_pos(const cache_moved *m, uint32_t *line, uint32_t *col)
{
  if (*line == 0) return 0;   /* no position recorded */
  long i = remap_find(&m->old, *line, *col);
  if (i < 0) return -1;
  const clex_tok *o = &m->old.v[i], *n = &m->cur.v[i];
  if (o->bl == *line && o->bc == *col) {
    *line = n->bl;
    *col = n->bc;
  } else if (o->bl == o->el && *line == o->bl && *col <= o->ec) {
    *line = n->bl;   /* inside a one-line token, or just past it */
    *col = n->bc + (*col - o->bc);
  } else if (*line == o->el && *col == o->ec) {
    *line = n->el;
    *col = n->ec;
  } else {
    return -1;
  }
  return 0;
}

/* The moved file a string id names, or NULL. */
static const cache_moved *remap_of(const cache_moved *mv, size_t n, uint32_t file)
{
  for (size_t i = 0; i < n; i++)
    if (mv[i].id && mv[i].id == file) return &mv[i];
  return NULL;
}

/* Is the file named by id one the variant checked (so either unchanged
 * or moved here), or no file at all ("<built-in>")? */
static bool remap_known(const sum_tu *sum, uint32_t id, const cache_files *files)
{
  const char *s = strtab_get(sum->strs, id);
  if (id == 0 || s[0] == '<') return true;
  for (size_t i = 0; i < files->n; i++)
    if (strcmp(files->v[i].path, s) == 0) return true;
  return false;
}

/* Moves a location (its line and column) if its file moved. */
static int remap_loc(const sum_tu *sum, const cache_moved *mv, size_t n, const cache_files *files, sum_loc *l)
{
  if (!remap_known(sum, l->file, files)) return -1;
  const cache_moved *m = remap_of(mv, n, l->file);
  return m ? remap_pos(m, &l->line, &l->col) : 0;
}

/* A declaration's positions and its attributes' (done marks attributes
 * already moved, should two declarations share one). */
static int remap_decl(sum_tu *sum, const cache_moved *mv, size_t n, const cache_files *files, sum_decl *d,
                      unsigned char *done)
{
  if (remap_loc(sum, mv, n, files, &d->loc) < 0) return -1;
  const cache_moved *m = remap_of(mv, n, d->loc.file);
  if (!m) return 0;
  if (remap_pos(m, &d->beg_line, &d->beg_col) < 0 || remap_pos(m, &d->end_line, &d->end_col) < 0) return -1;
  if (d->attr_off > sum->attrs.n || d->nattr > sum->attrs.n - d->attr_off) return -1;
  for (uint32_t a = d->attr_off; a < d->attr_off + d->nattr; a++) {
    if (done[a]) continue;
    done[a] = 1;
    sum_attr *at = &sum->attrs.v[a];
    if (remap_pos(m, &at->beg_line, &at->beg_col) < 0 || remap_pos(m, &at->end_line, &at->end_col) < 0) return -1;
  }
  return 0;
}

/* Does any string or message name a moved file other than as a whole
 * path (an anonymous type "at x.h:3:1", a diagnostic)? */
static bool remap_mentions(const sum_tu *sum, const fe_msgs *msgs, const cache_moved *mv, size_t n)
{
  uint32_t ns = strtab_count(sum->strs);
  for (size_t i = 0; i < n; i++) {
    for (uint32_t s = 1; s < ns; s++)
      if (s != mv[i].id && strstr(strtab_get(sum->strs, s), mv[i].path)) return true;
    for (size_t k = 0; k < msgs->n; k++)
      if (strstr(msgs->v[k], mv[i].path)) return true;
  }
  return false;
}

int cache_remap(sum_tu *sum, const fe_msgs *msgs, cache_moved *mv, size_t n, const cache_files *files,
                const char **why)
{
  *why = "a location is not at a token";
  for (size_t i = 0; i < n; i++) {
    uint32_t id = strtab_find(sum->strs, mv[i].path);
    mv[i].id = id == UINT32_MAX ? 0 : id;
    if (mv[i].id && mv[i].old.n != mv[i].cur.n) { *why = "token counts differ"; return -1; }
  }
  if (remap_mentions(sum, msgs, mv, n)) { *why = "a message or name holds the path"; return -1; }
  for (size_t i = 0; i < sum->funcs.n; i++)
    if (remap_loc(sum, mv, n, files, &sum->funcs.v[i].loc) < 0) return -1;
  for (size_t i = 0; i < sum->effs.n; i++)
    if (remap_loc(sum, mv, n, files, &sum->effs.v[i].loc) < 0) return -1;
  for (size_t i = 0; i < sum->calls.n; i++)
    if (remap_loc(sum, mv, n, files, &sum->calls.v[i].loc) < 0) return -1;
  unsigned char *done = xcalloc(sum->attrs.n + 1, 1);
  int rc = 0;
  for (size_t i = 0; i < sum->decls.n && rc == 0; i++) rc = remap_decl(sum, mv, n, files, &sum->decls.v[i], done);
  free(done);
  if (rc < 0) return -1;
  for (size_t i = 0; i < sum->files.n; i++) {
    const cache_moved *m = remap_of(mv, n, sum->files.v[i].file);
    if (!m) continue;
    if (m->gen_changed) { *why = "its first lines say otherwise about being generated"; return -1; }
    sum->files.v[i].hash = m->xxh64;   /* what fix checks the file against */
  }
  return 0;
}
