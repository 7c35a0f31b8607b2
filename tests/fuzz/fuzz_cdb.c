/* fuzz_cdb.c — the compile-database loader (cdb_load) and the shell-style
 * command-line splitter (cdb_split_command) on arbitrary bytes. The input
 * is the database; the same bytes as one C string are a command line. */
#include "frontend/cdb.h"
#include "fuzz_util.h"
#include <stdlib.h>
#include <string.h>

static void fuzz_split(const uint8_t *data, size_t size)
{
  char *cmd = fuzz_cstr(data, size);
  int argc = -1;
  char **argv = cdb_split_command(cmd, &argc);
  if (argv) {
    if (argc < 0 || argv[argc] != NULL) abort();
    for (int i = 0; i < argc; i++) if (!argv[i]) abort();
    cdb_argv_free(argv, argc);
  }
  free(cmd);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  fuzz_split(data, size);
  const char *path = fuzz_write_file("compile_commands.json", data, size);
  fe_jobs jobs = {0};
  char *db = NULL, *err = NULL;
  if (cdb_load(path, &jobs, &db, &err) == 0) {
    for (size_t i = 0; i < jobs.n; i++)
      if (!jobs.v[i].file || jobs.v[i].file[0] != '/' || !jobs.v[i].dir) abort();
  } else if (!err) {
    abort();
  }
  cdb_jobs_free(&jobs);
  free(db);
  free(err);
  return 0;
}
