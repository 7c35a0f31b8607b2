/* diff.c — `purist fix --dry-run`: a unified diff, made by libgit2 (the
 * same diff git prints; `git apply` and `patch -p1` take it). */
#include "fix/fix_internal.h"
#include <git2.h>

/* libgit2 keeps process-wide state between init and shutdown; the pair is
 * reference counted, so this is safe beside any other user. Its init is
 * not cheap (Debian's build loads the system's TLS certificates, ~8 ms),
 * so fix_plan_apply opens it once for all files, not once a file. */
void fix_diff_begin(void)
{
  git_libgit2_init();
}

void fix_diff_end(void)
{
  git_libgit2_shutdown();
}

int fix_diff_write(FILE *f, const char *rel, const char *old, size_t old_len, const char *new_text, size_t new_len)
{
  git_patch *patch = NULL;
  git_buf buf = { 0 };
  int rc = git_patch_from_buffers(&patch, old, old_len, rel, new_text, new_len, rel, NULL);
  if (rc == 0) rc = git_patch_to_buf(&buf, patch);
  if (rc == 0 && fwrite(buf.ptr, 1, buf.size, f) != buf.size) rc = -1;
  git_buf_dispose(&buf);
  git_patch_free(patch);
  return rc == 0 ? 0 : -1;
}
