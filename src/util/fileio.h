/* fileio.h — whole-file reads. */
#ifndef PURIST_FILEIO_H
#define PURIST_FILEIO_H
#include <stddef.h>

/* Reads the whole file into a fresh buffer (NUL-terminated for text use;
 * *len excludes the NUL). Returns NULL with errno set on failure. */
char *file_read_all(const char *path, size_t *len);

#endif
