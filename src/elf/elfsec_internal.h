/* elfsec_internal.h — what the readers of elfsec_read.c and elfsec_ar.c
 * share. Calls run one way: elfsec_read.c → elfsec_ar.c → elfsec_scan.c;
 * a thin archive's member, itself a file to read, goes back to the file
 * reader through the elfsec_reader it was given. */
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

/* elfsec_scan.c: calls fn once with the `.purist` data of one ELF file
 * (see elfsec_fn). */
void elfsec_scan(Elf *e, const char *name, elfsec_fn fn, void *ctx);
/* Why the file's section headers cannot be trusted, or NULL. */
const char *elfsec_damaged(Elf *e);

/* Reads the file at path (an ELF file or an archive) inside `chain`:
 * elfsec_read_in (elfsec_read.c). */
typedef elfsec_status (*elfsec_reader)(const char *path, const elfsec_chain *chain, elfsec_fn fn,
                                       void *ctx, char **err);
elfsec_status elfsec_read_in(const char *path, const elfsec_chain *chain, elfsec_fn fn,
                             void *ctx, char **err);
/* elfsec_ar.c: reads every member of the archive buf[0..len) (regular or
 * thin) whose file is path; a damaged member is passed to fn with a
 * reason, by name; a thin archive's members are read with read_file. */
void elfsec_ar_read(const unsigned char *buf, size_t len, const char *path,
                    const elfsec_chain *chain, elfsec_fn fn, void *ctx, elfsec_reader read_file);

#define ELFSEC_AR_MAGIC   "!<arch>\n"
#define ELFSEC_THIN_MAGIC "!<thin>\n"

#endif
