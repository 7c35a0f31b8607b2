/* config.h — the configuration file `.purist` (YAML, read with libyaml):
 * the project's settings, under the command line's.
 *
 *   # .purist, at the project root (or any directory above it)
 *   checks: "*,-cheat*"          # clang-tidy's globs; or a list; or {cheat: off}
 *   exclude: [tests, third_party, "*.gen.c"]
 *   kb: [tools/mylib.kb]          # relative to this file
 *   spelling: gnu
 *   whole-program: true
 *   strict: false
 *
 * Its keys are the `config` column of the option table (cli_table.c):
 * each sets what the option of that name sets. An option given on the
 * command line wins; `checks` and `kb` are the exceptions, as in
 * clang-tidy: the command line's come after the file's (later checks
 * win, knowledge-base files add up). Paths of file-valued keys are
 * relative to the file's directory; globs to the project root. */
#ifndef PURIST_CONFIG_H
#define PURIST_CONFIG_H
#include <stdio.h>
#include "cli/options.h"

/* Reads --config FILE, else the first .purist from the project root
 * upward (project_config_start), unless --no-config, into o under what
 * the command line set. 0, or -1 after saying why (file, line, column). */
int config_apply(cli_opts *o);
/* purist config --dump: the effective settings as a .purist file. */
int config_dump(const cli_opts *o, FILE *out);

#endif
