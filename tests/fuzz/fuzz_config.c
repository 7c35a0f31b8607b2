/* fuzz_config.c — the `.purist` reader (config_apply through --config) on
 * arbitrary bytes, then `config --dump` of what it set. What must hold: no
 * crash, no hang, no leak; a file that is refused leaves an exit path
 * (config_apply returns -1), never a half-read state that crashes the dump.
 * Deep nesting, duplicate keys and several documents are refused by the
 * reader itself (issue 31 items 10 and 11). */
#include "fuzz_util.h"
#include "cli/config.h"
#include "cli/options.h"
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  const char *path = fuzz_write_file(".purist", data, size);
  char *argv[] = { "purist", "config", "--config", (char *)path, NULL };
  cli_opts o;
  if (cli_parse(4, argv, &o) != 0) abort();   /* the command line is fixed and valid */
  FILE *null = fopen("/dev/null", "w");
  if (config_apply(&o) == 0 && null) config_dump(&o, null);
  if (null) fclose(null);
  cli_opts_free(&o);
  return 0;
}
