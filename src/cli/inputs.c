/* inputs.c — see inputs.h. */
#include "cli/inputs.h"
#include "elf/elfsec.h"
#include "util/fileio.h"
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

enum { MAGIC_LEN = sizeof SUMMARY_MAGIC - 1, HEAD_LEN = 32 };

/* The file's first 8 bytes; returns how many could be read. Only a
 * regular file is looked into: opening a FIFO would wait for a writer. */
static size_t inputs_head(const char *path, unsigned char head[8])
{
  int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) return 0;
  struct stat st;
  ssize_t n = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) ? read(fd, head, 8) : 0;
  close(fd);
  return n > 0 ? (size_t)n : 0;
}

bool inputs_is_summary_file(const char *path)
{
  unsigned char head[8];
  size_t n = inputs_head(path, head);
  return elfsec_sniff(head, n) || (n == MAGIC_LEN && memcmp(head, SUMMARY_MAGIC, MAGIC_LEN) == 0);
}

typedef struct {
  link_prog *p;
  bool quiet;
  inputs_count *n;
  const char *path;   /* the file named, to tell it from an archive's members */
} inputs_ctx;

static uint32_t inputs_le32(const unsigned char *b)
{
  return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

/* Where reading goes on after a refused record at `at`: the next magic. */
static size_t inputs_resync(const unsigned char *buf, size_t len, size_t at)
{
  const unsigned char *next = at + 1 < len ? memmem(buf + at + 1, len - at - 1, SUMMARY_MAGIC, MAGIC_LEN) : NULL;
  return next ? (size_t)(next - buf) : len;
}

/* Says why the record at `at` is refused. A record of another format
 * version is named as such: the objects were built by another purist. */
static void inputs_refuse(const char *name, const unsigned char *buf, size_t len, size_t at, const char *err)
{
  if (len - at >= HEAD_LEN && !memcmp(buf + at, SUMMARY_MAGIC, MAGIC_LEN) &&
      inputs_le32(buf + at + 8) != SUMMARY_FORMAT)
    fprintf(stderr, "purist: %s: refused at byte %zu: summary format version %u from another purist version, "
            "this purist reads version %d: rebuild it with this purist\n",
            name, at, inputs_le32(buf + at + 8), SUMMARY_FORMAT);
  else
    fprintf(stderr, "purist: %s: refused at byte %zu: %s; its functions count as unknown\n", name, at, err);
}

/* Links the records of buf, back to back; zero bytes between records
 * (padding a linker may insert when it aligns sections) are skipped. */
static void inputs_records(inputs_ctx *c, const char *name, const unsigned char *buf, size_t len)
{
  size_t pos = 0;
  while (pos < len) {
    if (buf[pos] == 0) { pos++; continue; }
    size_t at = pos;
    char *err = NULL;
    sum_tu *tu = summary_decode(buf, len, &pos, &err);
    if (tu) {
      link_add(c->p, tu);
      summary_free(tu);
      c->n->records++;
      continue;
    }
    inputs_refuse(name, buf, len, at, err);
    free(err);
    c->n->bad++;
    pos = inputs_resync(buf, len, at);
  }
}

/* The binary `name` has no section: its summaries are in its sidecar
 * (BINARY.purist, written by the link step of `purist cc`), if there is
 * one. Returns false if there is none. */
static bool inputs_sidecar(inputs_ctx *c, const char *name)
{
  char *side = elfsec_sidecar_path(name);
  struct stat ss;
  size_t len;
  /* No staleness test by time: strip and install -s rewrite the binary
   * after the link, and are no reason to doubt the sidecar. */
  unsigned char *buf = stat(side, &ss) == 0 && S_ISREG(ss.st_mode) ? (unsigned char *)file_read_all(side, &len) : NULL;
  if (buf) {
    if (len) inputs_records(c, side, buf, len);
    else fprintf(stderr, "purist: %s: empty file: no summary records\n", side);
    if (!len) c->n->bad++;
  }
  free(buf);
  free(side);
  return buf != NULL;
}

/* A shared library that carries its objects' sections itself was linked
 * without the link step of `purist cc`, which moves them to a sidecar:
 * libtool links a shared library with the compiler configure found, not
 * the CC given to make (issue 35 item 6: 1.14x the size of the library).
 * Says so, with the two ways out. */
static void inputs_note_foreign_link(const char *name, size_t len)
{
  struct stat st;
  if (stat(name, &st) != 0 || st.st_size <= 0 || !elfsec_shared_library(name)) return;
  fprintf(stderr, "purist: note: %s holds its objects' %s sections (%zu bytes, %.0f%% of the file): it was "
          "linked without purist cc, whose link step moves them to %s.purist (libtool links shared libraries "
          "with the compiler configure found, not make's CC); configure with CC=\"purist cc gcc\", or remove "
          "them with strip -R %s once read (PURIST_CC_EMBED=1 keeps them on purpose)\n",
          name, ELFSEC_NAME, len, 100.0 * (double)len / (double)st.st_size, name, ELFSEC_NAME);
}

static void inputs_elf(void *ctx, const char *name, const unsigned char *data, size_t len, const char *bad)
{
  inputs_ctx *c = ctx;
  if (!bad && (!data || len == 0) && !strcmp(name, c->path) && inputs_sidecar(c, name)) return;
  if (bad && strncmp(bad, "damaged", 7) == 0) {
    fprintf(stderr, "purist: %s: %s; its functions count as unknown\n", name, bad);
    c->n->bad++;
  } else if (bad) {
    fprintf(stderr, "purist: %s: cannot read its ELF sections: %s\n", name, bad);
    c->n->bad++;
  } else if (!data || len == 0) {
    if (!c->quiet)
      fprintf(stderr, "purist: note: %s: no %s section (not compiled through purist cc, or stripped) "
                      "and no %s.purist beside it\n", name, ELFSEC_NAME, name);
  } else {
    if (!c->quiet && !strcmp(name, c->path)) inputs_note_foreign_link(name, len);
    inputs_records(c, name, data, len);
  }
}

void inputs_add_file(link_prog *p, const char *path, bool quiet, inputs_count *n)
{
  inputs_ctx c = { p, quiet, n, path };
  char *err = NULL;
  elfsec_status st = elfsec_read(path, inputs_elf, &c, &err);
  if (st == ELFSEC_OK) {
    /* Without this, an -flto build's binary silently yields only the TUs
     * compiled without -flto (found on redis, whose Makefile adds it). */
    if (!quiet && elfsec_lto_linked(path))
      fprintf(stderr, "purist: warning: %s was linked with -flto: the linker dropped the %s sections of "
                      "the objects compiled with -flto, so their functions are missing; "
                      "run purist link on those objects or archives\n", path, ELFSEC_NAME);
    return;
  }
  if (st == ELFSEC_ERROR) {
    fprintf(stderr, "purist: %s\n", err);
    free(err);
    n->bad++;
    return;
  }
  size_t len;
  unsigned char *buf = (unsigned char *)file_read_all(path, &len);
  if (!buf) fprintf(stderr, "purist: %s: %s\n", path, strerror(errno));
  else if (len == 0) fprintf(stderr, "purist: %s: empty file: no summary records\n", path);
  else inputs_records(&c, path, buf, len);
  if (!buf || len == 0) n->bad++;
  free(buf);
}
