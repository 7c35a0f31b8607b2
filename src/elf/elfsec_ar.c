/* elfsec_ar.c — archives (`ar`), member by member, every header checked.
 *
 * libelf passes over a member whose header is damaged without a word (its
 * TU then vanishes from the link), and it cannot read thin archives. So
 * purist walks the archive itself: each member header (60 bytes: name,
 * date, uid, gid, mode, size, the end marker "`\n") is checked, and a
 * damaged one is reported by name through the callback's `bad`. Where
 * the next member cannot be found any more (a size that is not a number,
 * a bad end marker) the reason says the rest is unread. A thin archive's
 * members are files named relative to the archive: each is read there. */
#include "elf/elfsec_internal.h"
#include "util/xalloc.h"
#include <ctype.h>
#include <stdbool.h>
#include <stdint.h>
#include <errno.h>
#include <string.h>
#include <sys/stat.h>

enum { AR_HDR = 60, AR_NAME = 16, AR_SIZE_AT = 48, AR_SIZE_W = 10, AR_FMAG_AT = 58 };

typedef struct {
  const unsigned char *buf;
  size_t len;
  const char *path;
  bool thin;
  const char *names;        /* the long-name table ("//"), or NULL */
  size_t nnames;
  const elfsec_chain *chain;
  elfsec_fn fn;
  void *ctx;
  elfsec_reader read_file;  /* a thin archive's member files */
} ar_walk;

/* The decimal field f[0..w), space padded. Returns 0, or -1 if it is
 * empty, holds anything but digits, or overflows. */
static int ar_number(const unsigned char *f, size_t w, size_t *out)
{
  size_t i = 0, v = 0;
  while (i < w && f[i] >= '0' && f[i] <= '9') {
    if (v > (SIZE_MAX - 9) / 10) return -1;
    v = v * 10 + (size_t)(f[i++] - '0');
  }
  if (i == 0) return -1;
  for (; i < w; i++) if (f[i] != ' ') return -1;
  *out = v;
  return 0;
}

/* The header's name field as printable text, for naming a member whose
 * header is damaged ("member at byte N" if it has none). Caller frees. */
static char *ar_field_name(const ar_walk *w, size_t at)
{
  const unsigned char *h = w->buf + at;
  size_t n = 0;
  while (n < AR_NAME && at + n < w->len && isgraph(h[n]) && h[n] != '/') n++;
  if (n == 0) return xasprintf("member at byte %zu", at);
  return xasprintf("%.*s", (int)n, (const char *)h);
}

static void ar_bad(const ar_walk *w, const char *member, const char *why)
{
  char *name = xasprintf("%s(%s)", w->path, member);
  char *msg = xasprintf("damaged archive member: %s", why);
  w->fn(w->ctx, name, NULL, 0, msg);
  free(msg);
  free(name);
}

/* The member's name from its header (GNU: "name/", "/N" into the long-name
 * table; BSD: "#1/N", the name being the data's first N bytes, *skip set
 * to N). Returns NULL with *why if it cannot be had. Caller frees. */
static char *ar_member_name(const ar_walk *w, const unsigned char *h, size_t size, size_t *skip,
                            const char **why)
{
  size_t n = AR_NAME, off;
  while (n > 0 && h[n - 1] == ' ') n--;
  *skip = 0;
  if (n > 1 && h[0] == '/' && isdigit(h[1])) {
    if (ar_number(h + 1, AR_NAME - 1, &off) != 0) { *why = "bad long name (not a number)"; return NULL; }
    if (!w->names || off >= w->nnames) { *why = "bad long name (past the long-name table)"; return NULL; }
    const char *s = w->names + off, *e = memchr(s, '\n', w->nnames - off);
    if (!e || e == s) { *why = "bad long name (not terminated)"; return NULL; }
    if (e[-1] == '/') e--;
    if (e == s || memchr(s, '\0', (size_t)(e - s))) { *why = "bad long name (empty)"; return NULL; }
    return xasprintf("%.*s", (int)(e - s), s);
  }
  if (n > 3 && memcmp(h, "#1/", 3) == 0) {
    if (ar_number(h + 3, AR_NAME - 3, skip) != 0 || *skip == 0 || *skip > size) {
      *why = "bad BSD long name";
      return NULL;
    }
    return xasprintf("%.*s", (int)*skip, (const char *)h + AR_HDR);
  }
  if (n > 0 && h[n - 1] == '/') n--;
  if (n == 0) { *why = "empty name"; return NULL; }
  return xasprintf("%.*s", (int)n, (const char *)h);
}

/* One ELF member held in the archive: read from a copy (libelf wants
 * memory it may own). Members that are not ELF are passed over. */
static void ar_member_elf(const ar_walk *w, const char *member, const unsigned char *data, size_t size)
{
  char *copy = xmalloc(size);
  memcpy(copy, data, size);
  Elf *e = elf_memory(copy, size);
  if (e && elf_kind(e) == ELF_K_ELF) {
    char *name = xasprintf("%s(%s)", w->path, member);
    elfsec_scan(e, name, w->fn, w->ctx);
    free(name);
  }
  if (e) elf_end(e);
  free(copy);
}

/* One member of a thin archive: the file it names, relative to the
 * archive's directory unless absolute. */
static void ar_member_thin(const ar_walk *w, const char *member)
{
  const char *slash = strrchr(w->path, '/');
  char *file = member[0] == '/' || !slash ? xstrdup(member)
                                          : xasprintf("%.*s/%s", (int)(slash - w->path), w->path, member);
  char *err = NULL;
  elfsec_status st = w->read_file(file, w->chain, w->fn, w->ctx, &err);
  if (st == ELFSEC_ERROR) {
    ar_bad(w, member, err);
  } else if (st == ELFSEC_NOT_ELF) {
    char *why = xasprintf("thin archive member %s is not an object", file);
    ar_bad(w, member, why);
    free(why);
  }
  free(err);
  free(file);
}

/* The member whose header is at `at`. Returns the offset of the next
 * header, or 0 when the rest of the archive cannot be read. */
static size_t ar_member(ar_walk *w, size_t at)
{
  const unsigned char *h = w->buf + at;
  size_t size, skip;
  const char *why = NULL;
  if (w->len - at < AR_HDR) why = "the archive is cut short inside its header; nothing after it is read";
  else if (h[AR_FMAG_AT] != '`' || h[AR_FMAG_AT + 1] != '\n')
    why = "bad end marker (fmag) in its header; nothing after it is read";
  else if (ar_number(h + AR_SIZE_AT, AR_SIZE_W, &size) != 0)
    why = "its size is not a number; nothing after it is read";
  if (why) {
    char *member = ar_field_name(w, at);
    ar_bad(w, member, why);
    free(member);
    return 0;
  }
  bool special = h[0] == '/' && (h[1] == ' ' || h[1] == '/' || memcmp(h, "/SYM64/", 7) == 0);
  bool inside = !w->thin || special;   /* a thin archive holds only its tables */
  size_t avail = w->len - at - AR_HDR;
  if (inside && size > avail) {
    char *member = ar_field_name(w, at);
    char *msg = xasprintf("cut short: its header says %zu bytes, the archive holds %zu more", size, avail);
    ar_bad(w, member, msg);
    free(msg);
    free(member);
    return 0;
  }
  size_t next = at + AR_HDR + (inside ? size + (size & 1) : 0);
  if (special) {
    if (h[1] == '/' && h[2] == ' ') { w->names = (const char *)h + AR_HDR; w->nnames = size; }
    return next > w->len ? w->len : next;
  }
  char *member = ar_member_name(w, h, size, &skip, &why);
  if (!member) {
    char *at_name = xasprintf("member at byte %zu", at);
    ar_bad(w, at_name, why);
    free(at_name);
  } else if (size - skip == 0 && inside) {
    ar_bad(w, member, "its size is 0: no object");
  } else if (w->thin) {
    ar_member_thin(w, member);
  } else {
    ar_member_elf(w, member, h + AR_HDR + skip, size - skip);
  }
  free(member);
  return next > w->len ? w->len : next;
}

void elfsec_ar_read(const unsigned char *buf, size_t len, const char *path,
                    const elfsec_chain *chain, elfsec_fn fn, void *ctx, elfsec_reader read_file)
{
  ar_walk w = { buf, len, path, memcmp(buf, ELFSEC_THIN_MAGIC, 8) == 0, NULL, 0, chain, fn, ctx, read_file };
  size_t at = 8;
  while (at < len) {
    /* A newline between members is padding some writers add. */
    if (buf[at] == '\n') { at++; continue; }
    size_t next = ar_member(&w, at);
    if (next == 0) break;
    at = next;
  }
}
