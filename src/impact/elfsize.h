/* elfsize.h — text bytes of an object file, in total and per function.
 *
 * Read with libelf: the total is the size of every allocated, executable
 * section; a function's size is its symbol's (STT_FUNC), with the parts
 * the compiler split off (NAME.cold, NAME.part.0) added to NAME's. */
#ifndef PURIST_ELFSIZE_H
#define PURIST_ELFSIZE_H
#include "util/vec.h"

typedef struct {
  char *name;
  unsigned long bytes;
} elfsize_fn;

typedef VEC(elfsize_fn) elfsize_fns;

/* Call once before any other call, from one thread (libelf's version
 * handshake). Returns 0, or -1 if this libelf cannot read ELF. */
int elfsize_init(void);
/* Reads the object at path. Returns 0, or -1 with *err (caller frees). */
int elfsize_read(const char *path, elfsize_fns *fns, unsigned long *text, char **err);
void elfsize_fns_free(elfsize_fns *f);

#endif
