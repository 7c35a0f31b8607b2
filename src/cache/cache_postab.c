/* cache_postab.c — position tables: where each token of one version of a
 * file was, so that a summary made from it can be moved to a later
 * version whose tokens are the same (cache_remap.c).
 *
 * A table is an entry of its own (".t"), keyed by the file's path and
 * bytes, written once per version of a file that some summary names, and
 * shared by every TU that includes it: a header's table is not repeated
 * in each result. */
#include "cache/cache_internal.h"
#include "frontend/fe_internal.h"
#include <string.h>
#include <xxhash.h>

/* The file's current text if it still has the bytes f records; else NULL. */
static char *postab_text(const char *path, uint64_t size, uint64_t hash, size_t *len)
{
  const char *why;
  unsigned char *text = cache_read_file(path, false, len, &why);
  if (text && (*len != size || XXH3_64bits(text, *len) != hash)) {
    free(text);
    text = NULL;
  }
  return (char *)text;
}

/* Writes the table of f (the version on disk, if still the one recorded). */
static void postab_write(cache *c, const cache_file *f, const char *rel)
{
  size_t len = 0;
  char *text = postab_text(f->path, f->size, f->hash, &len);
  if (!text) return;
  clex_toks toks = {0};
  cache_lex(text, len, &toks);
  size_t elen = 0;
  unsigned char *rec = cache_postab_encode(&toks, fe_generated_text(text, len) != 0,
                                           cache_key_postab(f->path, f->size, f->hash), &elen);
  cache_write(c, rel, rec, elen);
  free(rec);
  vec_free(&toks);
  free(text);
}

/* Does the summary hold declarations in the file with string id (or is it
 * the main file)? The project's files: a system header holds locations
 * too (its functions'), but its table would cost more room than an edit
 * of its comments alone, which a distribution hardly ships, saves. */
static bool postab_wanted(const sum_tu *sum, uint32_t id)
{
  if (id == UINT32_MAX) return false;
  if (id == sum->main_file) return true;
  for (size_t i = 0; i < sum->files.n; i++)
    if (sum->files.v[i].file == id) return true;
  return false;
}

void cache_postab_store(cache *c, const cache_files *files, const sum_tu *sum)
{
  for (size_t i = 0; i < files->n; i++) {
    const cache_file *f = &files->v[i];
    if (!f->tok || !postab_wanted(sum, strtab_find(sum->strs, f->path))) continue;
    if (cache_postab_mark(c, f->path)) continue;   /* this run has seen to it */
    char *rel = cache_entry_path(c, cache_key_postab(f->path, f->size, f->hash), ".t");
    if (!cache_touch(c, rel)) postab_write(c, f, rel);
    free(rel);
  }
}

/* Reads the stored table of f's recorded version. */
static int postab_load(cache *c, const cache_file *f, clex_toks *toks, bool *generated)
{
  cache_key k = cache_key_postab(f->path, f->size, f->hash);
  char *rel = cache_entry_path(c, k, ".t");
  size_t len = 0;
  const char *why = NULL;
  unsigned char *buf = cache_entry_read(c, rel, &len, &why);
  int rc = buf ? cache_postab_decode(buf, len, k, toks, generated, &why) : -1;
  if (buf && rc < 0) cache_entry_unlink(c, rel);   /* damaged: the next store rewrites it */
  if (rc == 0) cache_touch(c, rel);
  free(buf);
  free(rel);
  return rc;
}

int cache_moved_load(cache *c, const cache_file *f, uint64_t size, uint64_t hash, cache_moved *m)
{
  memset(m, 0, sizeof *m);
  m->path = f->path;
  bool gen_old = false;
  if (postab_load(c, f, &m->old, &gen_old) < 0) return -1;
  size_t len = 0;
  char *text = postab_text(f->path, size, hash, &len);
  if (!text) return -1;   /* changed again since it was hashed */
  cache_lex(text, len, &m->cur);
  m->xxh64 = XXH64(text, len, 0);
  m->gen_changed = (fe_generated_text(text, len) != 0) != gen_old;
  free(text);
  return 0;
}

void cache_moved_free(cache_moved *m)
{
  vec_free(&m->old);
  vec_free(&m->cur);
}
