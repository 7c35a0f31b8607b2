/* inputs.h — summaries from any file that carries them: summary files
 * (purist summarize), objects built through `purist cc`, archives of them,
 * and the executables and shared objects linked from them. */
#ifndef PURIST_INPUTS_H
#define PURIST_INPUTS_H
#include <stdbool.h>
#include "link/link.h"

/* Does the file hold summaries rather than C source: a summary file, an
 * ELF file or an archive (judged by its first bytes)? */
bool inputs_is_summary_file(const char *path);

typedef struct {
  int records;    /* records linked */
  int bad;        /* records or files refused (reported on stderr) */
} inputs_count;

/* Links every summary record the file holds. A damaged record is reported
 * (file, byte offset, why), skipped, and reading goes on at the next
 * record: its TU's functions count as unknown. An ELF file without a
 * `.purist` section gets a note (unless quiet). */
void inputs_add_file(link_prog *p, const char *path, bool quiet, inputs_count *n);

#endif
