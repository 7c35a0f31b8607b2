/* strtab.h — string interning: each distinct string gets a small id.
 *
 * Summaries and the linker refer to names and paths by id, so equal
 * strings compare as equal integers and are stored once. Id 0 is always
 * the empty string, which doubles as "no name". Strings live in large
 * chunks owned by the table; pointers from strtab_get stay valid until
 * strtab_free. */
#ifndef PURIST_STRTAB_H
#define PURIST_STRTAB_H
#include <stddef.h>
#include <stdint.h>

typedef struct strtab strtab;

strtab *strtab_new(void);
/* The same, sized for nstr strings of bytes bytes in all (a decoded
 * summary's table): no rehash, no oversized chunk. */
strtab *strtab_new_sized(size_t nstr, size_t bytes);
void strtab_free(strtab *t);
/* Id of the string s[0..len), adding it if new. */
uint32_t strtab_intern_n(strtab *t, const char *s, size_t len);
uint32_t strtab_intern(strtab *t, const char *s);
/* strtab_intern_n of string id of src, whose hash src already knows (the
 * link interns every TU's strings into the program's table). */
uint32_t strtab_intern_from(strtab *t, const strtab *src, uint32_t id);
/* Id of s if present, else UINT32_MAX. */
uint32_t strtab_find(const strtab *t, const char *s);
const char *strtab_get(const strtab *t, uint32_t id);
size_t strtab_len(const strtab *t, uint32_t id);
uint32_t strtab_count(const strtab *t);

#endif
