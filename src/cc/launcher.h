/* launcher.h — `purist cc COMPILER ARGS…`: the compiler launcher. */
#ifndef PURIST_LAUNCHER_H
#define PURIST_LAUNCHER_H


#include "kb/kb.h"
#include <stddef.h>

/* The knowledge base `purist cc` summarises with: the built-in one and
 * PURIST_KB's files (colon-separated). *list and *files are the caller's
 * to free; NULL and *why if a file cannot be read. */
kb *launcher_kb_load(char **list, const char ***files, size_t *n, char **why);

/* After a successful compile argv[0..argc): embeds each C unit's summary
 * in its object, warning on stderr for any that fails (what the summary
 * server's child runs, in the build's directory and environment). */
void launcher_summaries(int argc, char **argv, const kb *k, const char *const *kb_files, size_t nkb);


#endif
