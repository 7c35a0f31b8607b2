/* apply.c — the plan written into files (see fix.h).
 *
 * Per file: read it, check its content hash against the analysis (a file
 * edited since is refused, never merged), apply its operations, then
 * either print a diff or write the result atomically (util/replace.h: an
 * unnamed file in the target's own directory, so rename cannot cross file
 * systems, the original's owner and mode, fsync, link, rename). A reader, or a kill
 * at any moment, sees the old file or the new one, never half of either;
 * a failure leaves the original untouched. */
#include "fix/fix_internal.h"
#include "util/fileio.h"
#include "util/replace.h"
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <xxhash.h>

/* Honours the file's write bits even for root, who could write anyway: a
 * read-only file is the user saying "do not change this". */
static const char *apply_unwritable(const char *path, const struct stat *st)
{
  if (!(st->st_mode & (S_IWUSR | S_IWGRP | S_IWOTH)) || access(path, W_OK) != 0) return "the file is read-only";
  char *dir = xstrdup(path);
  char *slash = strrchr(dir, '/');
  if (slash) *(slash == dir ? slash + 1 : slash) = '\0';
  struct stat ds;
  bool bad = stat(dir, &ds) != 0 || !(ds.st_mode & (S_IWUSR | S_IWGRP | S_IWOTH)) || access(dir, W_OK) != 0;
  free(dir);
  return bad ? "its directory is not writable (the new file is written beside it, then renamed)" : NULL;
}

static void refuse(fix_result *res, const char *shown, const char *why)
{
  res->files_refused++;
  fix_note_add(&res->notes, true, "%s: error: not edited: %s", shown, why);
}

/* One file's operations, ops[0..n). */
static int apply_file(const fix_op *ops, size_t first, size_t n, const char *src_root, const char *dst_root, FILE *diff,
                      fix_result *res)
{
  const char *path = ops[0].info.file, *shown = ops[0].shown;
  const char *rel = fix_rel(path, src_root);
  if (!rel) { refuse(res, shown, "it is outside the project root"); return -1; }
  struct stat st;
  size_t len;
  char *old = stat(path, &st) == 0 ? file_read_all(path, &len) : NULL;
  if (!old) { refuse(res, shown, strerror(errno)); return -1; }
  int rc = 0;
  const char *why = NULL;
  if (!ops[0].hash) why = "its contents differed between the files that include it during the analysis";
  else if (XXH64(old, len, 0) != ops[0].hash) why = "it changed since it was analysed (run purist fix again)";
  else if (!diff && !dst_root) why = apply_unwritable(path, &st);
  if (why) { refuse(res, shown, why); free(old); return -1; }
  size_t new_len;
  bool *failed = xcalloc(n, sizeof *failed);
  char *new_text = fix_apply_text(old, len, ops, n, &new_len, failed, &res->notes);
  for (size_t i = 0; i < n; i++)
    if (failed[i]) rc = -1;
  bool changed = new_len != len || memcmp(old, new_text, len) != 0;
  if (changed && diff) {
    if (fix_diff_write(diff, rel, old, len, new_text, new_len) < 0) { refuse(res, shown, "could not make the diff"); rc = -1; changed = false; }
  } else if (changed) {
    char *dst = dst_root ? xasprintf("%s/%s", dst_root, rel) : xstrdup(path);
    if (file_replace(dst, new_text, new_len, &st, !dst_root) != 0) {
      char *msg = errno == ECANCELED ? xstrdup("it changed while it was being edited (kept as it is now; run purist fix again)")
                                     : xasprintf("could not write %s: %s", dst, strerror(errno));
      refuse(res, shown, msg);
      free(msg);
      rc = -1;
      changed = false;
    }
    free(dst);
  }
  if (changed) {
    res->files_written++;
    for (size_t i = 0; i < n; i++)
      if (!failed[i]) {
        res->edits++;
        vec_push(&res->applied, first + i);
      }
  }
  free(failed);
  free(old);
  free(new_text);
  return rc;
}

int fix_plan_apply(const fix_plan *pl, const char *src_root, const char *dst_root, FILE *diff, fix_result *res)
{
  memset(res, 0, sizeof *res);
  int rc = 0;
  if (diff) fix_diff_begin();
  for (size_t i = 0; i < pl->ops.n;) {
    size_t j = i + 1;
    while (j < pl->ops.n && !strcmp(pl->ops.v[j].info.file, pl->ops.v[i].info.file)) j++;
    if (apply_file(pl->ops.v + i, i, j - i, src_root, dst_root, diff, res) < 0) rc = -1;
    i = j;
  }
  if (diff) fix_diff_end();
  return rc;
}

void fix_result_free(fix_result *res)
{
  fix_notes_free(&res->notes);
  vec_free(&res->applied);
}
