/* cache_cmd.c — see cache_cmd.h. */
#include "cli/cache_cmd.h"
#include "cli/project.h"
#include <string.h>

cache *cache_cmd_open(const cli_opts *o, const kb *k)
{
  char *dir = o->no_cache ? NULL : project_cache_dir(o);
  /* The compiler's macros are kept beside the summaries (the directory
   * `purist cc` uses by default): a warm run asks no compiler. */
  fe_ccview_disk_cache(dir);
  cache *c = cache_new(dir, k, o->quiet);
  free(dir);
  return c;
}

void cache_cmd_close(const cli_opts *o, cache *c)
{
  const char *dir = c ? cache_dir_of(c) : NULL;
  if (dir && cache_grew(c)) {   /* only a run that wrote can have passed the limit */
    cache_usage u;
    char *err = NULL;
    if (cache_prune_grown(c, o->cache_max, &u, &err) < 0) {
      if (!o->quiet) fprintf(stderr, "purist: warning: cache: cannot prune: %s\n", err);
      free(err);
    }
  }
  cache_free(c);
}

/* "1.5 MiB": a size for people. */
static void cache_cmd_size(char *buf, size_t n, uint64_t bytes)
{
  static const char *const units[] = { "bytes", "KiB", "MiB", "GiB", "TiB" };
  double v = (double)bytes;
  int u = 0;
  while (v >= 1024 && u < 4) { v /= 1024; u++; }
  if (u == 0) snprintf(buf, n, "%llu bytes", (unsigned long long)bytes);
  else snprintf(buf, n, "%.1f %s", v, units[u]);
}

/* The cache of these options, for stats and clean; NULL after saying why. */
static char *cache_cmd_dir(const cli_opts *o, const char *sub)
{
  char *dir = project_cache_dir(o);
  if (!dir)
    fprintf(stderr, "purist: cache %s: no cache directory: set HOME or XDG_CACHE_HOME, or give "
                    "--cache-dir DIR\n", sub);
  return dir;
}

/* `purist cache stats`: where, how much, the limit (stdout). */
static int cache_cmd_stats(const cli_opts *o)
{
  char *dir = cache_cmd_dir(o, "stats"), *err = NULL;
  if (!dir) return 2;
  cache_usage u;
  if (cache_usage_of(dir, &u, &err) < 0) {
    fprintf(stderr, "purist: cache stats: %s\n", err);
    free(err);
    free(dir);
    return 2;
  }
  char size[32], max[32];
  cache_cmd_size(size, sizeof size, u.bytes);
  cache_cmd_size(max, sizeof max, o->cache_max);
  printf("cache directory: %s\n", dir);
  printf("files cached:    %llu (%llu entries)\n", (unsigned long long)u.manifests, (unsigned long long)u.files);
  printf("size:            %s (%llu bytes)\n", size, (unsigned long long)u.bytes);
  if (o->cache_max) printf("limit:           %s (%.0f%% used; --cache-max-size)\n", max,
                           100.0 * (double)u.bytes / (double)o->cache_max);
  else printf("limit:           none (--cache-max-size 0)\n");
  char *old = project_old_cache_dir(o);
  if (old) printf("old cache:       %s (no longer used: purist cache clean removes it)\n", old);
  free(old);
  free(dir);
  return ferror(stdout) || fflush(stdout) ? 2 : 0;
}

/* Empties the cache at dir; what was removed on stderr. 0 or 2. */
static int cache_cmd_clean_dir(const cli_opts *o, const char *dir)
{
  char *err = NULL;
  long n = cache_clean(dir, &err);
  if (n < 0) {
    fprintf(stderr, "purist: cache clean: %s\n", err);
    free(err);
    return 2;
  }
  if (!o->quiet) fprintf(stderr, "purist: cache: removed %ld entr%s from %s\n", n, n == 1 ? "y" : "ies", dir);
  return 0;
}

/* `purist cache clean`: the cache, and the old .purist-cache/ beside the
 * database if there is one (the migration from before issue 20). */
static int cache_cmd_clean(const cli_opts *o)
{
  char *dir = cache_cmd_dir(o, "clean");
  if (!dir) return 2;
  int rc = cache_cmd_clean_dir(o, dir);
  char *old = project_old_cache_dir(o);
  if (old && strcmp(old, dir) != 0 && cache_cmd_clean_dir(o, old) != 0) rc = 2;
  free(old);
  free(dir);
  return rc;
}

int cache_cmd_run(const cli_opts *o)
{
  if (o->files.n == 1 && !strcmp(o->files.v[0], "clean")) return cache_cmd_clean(o);
  if (o->files.n == 1 && !strcmp(o->files.v[0], "stats")) return cache_cmd_stats(o);
  fprintf(stderr, "purist: cache wants a subcommand: purist cache stats, or purist cache clean "
                  "[-p DIR] [--cache-dir DIR]\n");
  return 2;
}
