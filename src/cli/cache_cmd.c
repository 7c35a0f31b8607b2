/* cache_cmd.c — see cache_cmd.h. */
#include "cli/cache_cmd.h"
#include "cli/project.h"
#include <string.h>

cache *cache_cmd_open(const cli_opts *o, const kb *k)
{
  char *dir = o->no_cache ? NULL : project_cache_dir(o);
  cache *c = cache_new(dir, k, o->quiet);
  free(dir);
  return c;
}

/* Where `cache clean` cleans: the cache infer would use here. The word
 * "clean" is not a file, so the database is looked up as for infer. */
static char *cache_cmd_dir(const cli_opts *o)
{
  cli_opts db = *o;
  memset(&db.files, 0, sizeof db.files);
  return project_cache_dir(&db);
}

int cache_cmd_run(const cli_opts *o)
{
  if (o->files.n != 1 || strcmp(o->files.v[0], "clean") != 0) {
    fprintf(stderr, "purist: cache wants a subcommand: purist cache clean [-p DIR | --cache-dir DIR]\n");
    return 2;
  }
  char *dir = cache_cmd_dir(o);
  if (!dir) {
    fprintf(stderr, "purist: cache clean: no compile_commands.json in . or build/ and no cache "
                    "directory given: use -p DIR or --cache-dir DIR\n");
    return 2;
  }
  char *err = NULL;
  long n = cache_clean(dir, &err);
  int rc = 0;
  if (n < 0) {
    fprintf(stderr, "purist: cache clean: %s\n", err);
    free(err);
    rc = 2;
  } else if (!o->quiet) {
    fprintf(stderr, "purist: cache: removed %ld entr%s from %s\n", n, n == 1 ? "y" : "ies", dir);
  }
  free(dir);
  return rc;
}
