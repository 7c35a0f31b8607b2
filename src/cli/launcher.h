/* launcher.h — `purist cc COMPILER ARGS…`: the compiler launcher. */
#ifndef PURIST_LAUNCHER_H
#define PURIST_LAUNCHER_H

/* Runs the compile argv[0..argc) unchanged (same arguments, standard
 * streams, exit status; signals to purist are passed on to it), then, if
 * it compiled C sources to objects, embeds each TU's summary in its object
 * (section .purist). A failure to summarise warns once on stderr and
 * leaves the object as the compiler wrote it; it never changes the exit
 * status. Returns the compiler's exit status (or re-raises its signal). */
int launcher_main(int argc, char **argv);

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

/* The same with the knowledge base read now: what a launcher does when no
 * summary server answers (`purist __cc-summarize COMPILER ARGS...` is this,
 * for the front, which cannot). */
void launcher_summaries_here(int argc, char **argv);
#define LAUNCHER_SUMMARIZE_ARGV1 "__cc-summarize"

#endif
