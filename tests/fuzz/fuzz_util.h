/* fuzz_util.h — what the fuzz targets share: the input as a file.
 *
 * Several readers take a path, not a buffer (libelf maps the file, the
 * compile-database loader resolves paths against its directory), so the
 * input is written to a file in a private temporary directory, made once
 * per process and reused for every input. */
#ifndef PURIST_FUZZ_UTIL_H
#define PURIST_FUZZ_UTIL_H
#include <stddef.h>
#include <stdint.h>

/* A directory of this process's own, created on first use. */
const char *fuzz_tmpdir(void);
/* Writes data to fuzz_tmpdir()/name (replacing it) and returns the path
 * (static storage, valid until the next call). Aborts if it cannot. */
const char *fuzz_write_file(const char *name, const uint8_t *data, size_t size);
/* A NUL-terminated copy of data (caller frees). */
char *fuzz_cstr(const uint8_t *data, size_t size);

#endif
