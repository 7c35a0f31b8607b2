/* elfsec.h — purist's summaries inside ELF files: the `.purist` section.
 *
 * `purist cc` appends the TU's summary records to the object the compiler
 * wrote, as a section with no flags (not loaded at run time) and alignment
 * 1, so that a linker's concatenation of every object's `.purist` into an
 * executable or shared object is the records back to back, as in a summary
 * file. Objects, archives (each member), executables and shared objects
 * are read through libelf; archives, regular and thin, by elfsec_ar.c,
 * which reports each damaged member by name.
 *
 * The folder (docs/layout.md): elfsec_read.c → elfsec_ar.c → elfsec_scan.c
 * to read, elfsec_write.c and elfsec_sidecar.c to write; it calls libelf
 * and util/ only. */
#ifndef PURIST_ELFSEC_H
#define PURIST_ELFSEC_H
#include <stddef.h>

#define ELFSEC_NAME ".purist"

/* Writes data as the `.purist` section of the relocatable object at path
 * (replacing one already there). The object is rewritten in a temporary
 * file beside it and renamed into place, so it is never left half-written:
 * on failure it is untouched. Returns 0, or -1 with *err (caller frees). */
int elfsec_embed(const char *path, const unsigned char *data, size_t len, char **err);

/* Called for each ELF file read: `name` is the file, or "lib.a(member.o)"
 * for an archive member; data/len the section's bytes, or NULL if the file
 * has no `.purist` section; bad is libelf's reason when the file's sections
 * cannot be read (then data is NULL). The data are valid only during the call. */
typedef void (*elfsec_fn)(void *ctx, const char *name, const unsigned char *data, size_t len,
                          const char *bad);

typedef enum { ELFSEC_NOT_ELF = 0, ELFSEC_OK = 1, ELFSEC_ERROR = -1 } elfsec_status;

/* Reads the `.purist` sections of an ELF file or of every ELF member of an
 * archive. Returns ELFSEC_NOT_ELF (nothing called) if the file is neither,
 * ELFSEC_ERROR with *err if it cannot be read, else ELFSEC_OK. */
elfsec_status elfsec_read(const char *path, elfsec_fn fn, void *ctx, char **err);

/* Does the executable or shared object at path hold code that GCC's link-
 * time optimiser compiled? Its DWARF then names "GNU GIMPLE" units, and the
 * linker plugin dropped the `.purist` sections of the -flto objects. Only
 * seen with debug information (-g); 0 when unknown or not linked. */
int elfsec_lto_linked(const char *path);

/* Is the file at path a shared library: ELF type ET_DYN without a
 * program interpreter (a PIE executable has one)? 0 when unknown. */
int elfsec_shared_library(const char *path);

/* The sidecar of a linked binary (elfsec_sidecar.c): BINARY.purist, a
 * summary file holding what the binary's `.purist` section held. Caller frees. */
char *elfsec_sidecar_path(const char *binary);

/* After the link step of `purist cc`: if binary is an executable or shared
 * object with a `.purist` section, writes the section to the sidecar and
 * removes it from the binary (objcopy); with embed set, or without such a
 * section, removes a sidecar an earlier link left (a summary file only).
 * Returns 1 if it wrote the sidecar, 0 if there was nothing to move, -1
 * with *err (caller frees): then the binary keeps its section. */
int elfsec_sidecar_split(const char *binary, int embed, char **err);

/* Is this the start of an ELF file or of an archive (8 bytes or more)? */
int elfsec_sniff(const unsigned char *head, size_t n);

#endif
