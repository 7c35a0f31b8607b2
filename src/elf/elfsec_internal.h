/* elfsec_internal.h — what the readers of elfsec_read.c and elfsec_ar.c share. */
#ifndef PURIST_ELFSEC_INTERNAL_H
#define PURIST_ELFSEC_INTERNAL_H
#include "elf/elfsec.h"
#include <libelf.h>
#include <sys/types.h>

/* The archives being read, innermost first: a thin archive names files,
 * which may be archives again, and one that names itself (directly or
 * through another) must be refused, not read forever. */
typedef struct elfsec_chain {
  dev_t dev;
  ino_t ino;
  const struct elfsec_chain *up;
  int depth;
} elfsec_chain;

/* Calls fn once with the `.purist` data of one ELF file (see elfsec_fn). */
void elfsec_scan(Elf *e, const char *name, elfsec_fn fn, void *ctx);
/* Reads the file at path (an ELF file or an archive) inside `chain`. */
elfsec_status elfsec_read_in(const char *path, const elfsec_chain *chain, elfsec_fn fn,
                             void *ctx, char **err);
/* Reads every member of the archive buf[0..len) (regular or thin) whose
 * file is path; a damaged member is passed to fn with a reason, by name. */
void elfsec_ar_read(const unsigned char *buf, size_t len, const char *path,
                    const elfsec_chain *chain, elfsec_fn fn, void *ctx);

#define ELFSEC_AR_MAGIC   "!<arch>\n"
#define ELFSEC_THIN_MAGIC "!<thin>\n"

#endif
