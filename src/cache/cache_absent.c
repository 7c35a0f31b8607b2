/* cache_absent.c — a TU that failed for a header not found is stored
 * with the directories where that header could appear (see
 * docs/decisions.md, "Failed TUs in the cache").
 *
 * A TU with errors gives the same errors as long as the files it read are
 * the same and no file it looked for and did not find has appeared. The
 * first is the manifest's file list; the second is kept here: for each name
 * clang reported "file not found", in each directory the search could have
 * looked (the job's directory, its -I/-iquote/-isystem/-idirafter
 * directories, the directory of every file the TU read, /usr/include and
 * /usr/local/include), the deepest directory of that path that exists is
 * recorded with its stamp (inode, modification time): a file or directory
 * created there changes the stamp, and the entry is a miss. On a file
 * system with whole-second times, a directory changed less than 2 s ago
 * is not trusted (the TU is not stored). */
#include "cache/cache_internal.h"
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <xxhash.h>

/* The stamp of directory path (its inode and modification time), or 0 if
 * it is not a directory now. Never 0 for a directory. */
static uint64_t cache_dir_stamp(const char *path)
{
  struct stat st;
  if (stat(path, &st) != 0 || !S_ISDIR(st.st_mode)) return 0;
  uint64_t v[4] = { (uint64_t)st.st_dev, (uint64_t)st.st_ino, (uint64_t)st.st_mtim.tv_sec,
                    (uint64_t)st.st_mtim.tv_nsec };
  return XXH3_64bits(v, sizeof v) | 1;
}

/* Is directory path's stamp one a change made within the same second
 * could leave unchanged: whole-second times (a file system without
 * nanoseconds) less than 2 s old? Such a watch is not stored. */
static bool cache_dir_coarse_recent(const char *path)
{
  struct stat st;
  struct timespec now;
  if (stat(path, &st) != 0 || clock_gettime(CLOCK_REALTIME, &now) != 0) return true;
  return st.st_mtim.tv_nsec == 0 && now.tv_sec - st.st_mtim.tv_sec < 2;
}

bool cache_dir_matches(const cache_file *f)
{
  return f->size == CACHE_DIR_WATCH && cache_dir_stamp(f->path) == f->hash;
}

/* Appends the names clang reported not found in msgs ("…: error: 'x.h'
 * file not found", with or without ", did you mean …"). */
static void cache_absent_names(const fe_msgs *msgs, cache_strs *names)
{
  for (size_t i = 0; i < msgs->n; i++) {
    const char *m = msgs->v[i], *e = strstr(m, "error: '");
    const char *end = e ? strstr(e + 8, "' file not found") : NULL;
    if (end) vec_push(names, xstrndup(e + 8, (size_t)(end - (e + 8))));
  }
}

/* The value of search-path flag i of argv ("-Idir", "-I dir", …), or NULL. */
static const char *cache_search_flag(char *const *argv, int argc, int *i)
{
  static const char *const flags[] = { "-I", "-iquote", "-isystem", "-idirafter", "--include-directory=", NULL };
  const char *a = argv[*i];
  for (int k = 0; flags[k]; k++) {
    size_t n = strlen(flags[k]);
    if (strncmp(a, flags[k], n) != 0) continue;
    if (a[n]) return a + n;
    if (flags[k][n - 1] != '=' && *i + 1 < argc) return argv[++*i];
  }
  return NULL;
}

/* Every directory a missing header might be searched in (absolute; dups
 * are harmless). */
static void cache_search_dirs(const fe_job *job, const fe_deps *deps, cache_strs *dirs)
{
  vec_push(dirs, xstrdup(job->dir));
  for (int i = 0; i < job->argc; i++) {
    const char *d = cache_search_flag(job->argv, job->argc, &i);
    if (d) vec_push(dirs, d[0] == '/' ? xstrdup(d) : xasprintf("%s/%s", job->dir, d));
  }
  for (size_t i = 0; i < deps->n; i++) {
    const char *slash = strrchr(deps->v[i].path, '/');
    if (slash && slash != deps->v[i].path) vec_push(dirs, xstrndup(deps->v[i].path, (size_t)(slash - deps->v[i].path)));
  }
  vec_push(dirs, xstrdup("/usr/local/include"));
  vec_push(dirs, xstrdup("/usr/include"));
}

/* The deepest existing directory of path (path is changed), with its
 * stamp; false if none ("/" always exists, so only on odd errors). */
static bool cache_deepest_dir(char *path, uint64_t *stamp)
{
  for (;;) {
    if ((*stamp = cache_dir_stamp(path)) != 0) return true;
    char *slash = strrchr(path, '/');
    if (!slash) return false;
    if (slash == path) { path[1] = 0; return (*stamp = cache_dir_stamp(path)) != 0; }
    *slash = 0;
  }
}

int cache_absent_watch(const fe_job *job, const fe_deps *deps, const fe_msgs *msgs, cache_files *files,
                       cache_strs *owned)
{
  cache_strs names = {0}, dirs = {0};
  cache_absent_names(msgs, &names);
  if (names.n) cache_search_dirs(job, deps, &dirs);
  ptrmap seen = {0};
  int rc = 0;
  for (size_t n = 0; n < names.n && rc == 0; n++) {
    size_t nd = names.v[n][0] == '/' ? 1 : dirs.n;   /* an absolute name: itself only */
    for (size_t d = 0; d < nd && rc == 0; d++) {
      char *path = names.v[n][0] == '/' ? xstrdup(names.v[n]) : xasprintf("%s/%s", dirs.v[d], names.v[n]);
      uint64_t stamp;
      if (!cache_deepest_dir(path, &stamp) || cache_dir_coarse_recent(path)) rc = -1;
      uint64_t h = XXH3_64bits(path, strlen(path)) | 1;
      if (rc == 0 && !ptrmap_get(&seen, h)) {
        ptrmap_put(&seen, h, 1);
        cache_file f = { path, CACHE_DIR_WATCH, stamp, 0, false };
        vec_push(files, f);
        vec_push(owned, path);
      } else {
        free(path);
      }
    }
  }
  ptrmap_free(&seen);
  for (size_t i = 0; i < names.n; i++) free(names.v[i]);
  for (size_t i = 0; i < dirs.n; i++) free(dirs.v[i]);
  vec_free(&names);
  vec_free(&dirs);
  return rc;
}
