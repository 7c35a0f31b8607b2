/* elfsec_read.c — finds the `.purist` sections of ELF files and archives. */
#include "elf/elfsec_internal.h"
#include "util/xalloc.h"
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

int elfsec_sniff(const unsigned char *head, size_t n)
{
  return n >= 8 && (memcmp(head, "\177ELF", 4) == 0 || memcmp(head, ELFSEC_AR_MAGIC, 8) == 0 ||
                    memcmp(head, ELFSEC_THIN_MAGIC, 8) == 0);
}

/* An archive, regular or thin, read whole and walked by elfsec_ar.c;
 * refused if it is one of the archives being read already (a thin archive
 * that names itself) or nested absurdly deep. */
static elfsec_status elfsec_archive(int fd, const char *path, const elfsec_chain *up, elfsec_fn fn,
                                    void *ctx, char **err)
{
  struct stat st;
  if (fstat(fd, &st) != 0) { *err = xasprintf("%s: %s", path, strerror(errno)); return ELFSEC_ERROR; }
  for (const elfsec_chain *c = up; c; c = c->up)
    if (c->dev == st.st_dev && c->ino == st.st_ino) {
      *err = xasprintf("%s: a thin archive that names itself", path);
      return ELFSEC_ERROR;
    }
  if (up && up->depth >= 8) { *err = xasprintf("%s: thin archives nested too deep", path); return ELFSEC_ERROR; }
  /* Mapped, not read: archives of large projects run to gigabytes. */
  size_t len = (size_t)st.st_size;
  void *buf = len ? mmap(NULL, len, PROT_READ, MAP_PRIVATE, fd, 0) : MAP_FAILED;
  if (buf == MAP_FAILED) { *err = xasprintf("%s: %s", path, strerror(len ? errno : EINVAL)); return ELFSEC_ERROR; }
  elfsec_chain me = { st.st_dev, st.st_ino, up, up ? up->depth + 1 : 1 };
  elfsec_ar_read(buf, len, path, &me, fn, ctx, elfsec_read_in);
  munmap(buf, len);
  return ELFSEC_OK;
}

/* The first 8 bytes of fd: is it an archive (regular or thin)? */
static int elfsec_is_archive(int fd)
{
  unsigned char head[8];
  ssize_t n = pread(fd, head, sizeof head, 0);
  return n == 8 && (memcmp(head, ELFSEC_AR_MAGIC, 8) == 0 || memcmp(head, ELFSEC_THIN_MAGIC, 8) == 0);
}

elfsec_status elfsec_read_in(const char *path, const elfsec_chain *chain, elfsec_fn fn, void *ctx,
                             char **err)
{
  if (elf_version(EV_CURRENT) == EV_NONE) { *err = xstrdup("libelf is out of date"); return ELFSEC_ERROR; }
  /* Not blocking in open() on a FIFO a thin archive may name, and only
   * regular files: a device or a directory is no object. */
  int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  struct stat sb;
  if (fd < 0 || fstat(fd, &sb) != 0) {
    *err = xasprintf("%s: %s", path, strerror(errno));
    if (fd >= 0) close(fd);
    return ELFSEC_ERROR;
  }
  if (!S_ISREG(sb.st_mode)) {
    *err = xasprintf("%s: %s", path, S_ISDIR(sb.st_mode) ? "is a directory" : "not a regular file");
    close(fd);
    return ELFSEC_ERROR;
  }
  if (elfsec_is_archive(fd)) {
    elfsec_status st = elfsec_archive(fd, path, chain, fn, ctx, err);
    close(fd);
    return st;
  }
  Elf *e = elf_begin(fd, ELF_C_READ_MMAP, NULL);
  elfsec_status st = ELFSEC_OK;
  if (e && elf_kind(e) == ELF_K_ELF) elfsec_scan(e, path, fn, ctx);
  else st = ELFSEC_NOT_ELF;
  if (e) elf_end(e);
  close(fd);
  return st;
}

elfsec_status elfsec_read(const char *path, elfsec_fn fn, void *ctx, char **err)
{
  return elfsec_read_in(path, NULL, fn, ctx, err);
}

/* Does the section named sname of e hold the bytes of needle? */
static int elfsec_section_has(Elf *e, size_t shstrndx, const char *sname, const char *needle)
{
  size_t nl = strlen(needle);
  for (Elf_Scn *s = elf_nextscn(e, NULL); s; s = elf_nextscn(e, s)) {
    GElf_Shdr sh;
    const char *n = gelf_getshdr(s, &sh) ? elf_strptr(e, shstrndx, sh.sh_name) : NULL;
    if (!n || strcmp(n, sname) != 0 || sh.sh_type == SHT_NOBITS) continue;
    Elf_Data *d = elf_rawdata(s, NULL);
    return d && d->d_buf && memmem(d->d_buf, d->d_size, needle, nl) != NULL;
  }
  return 0;
}

int elfsec_lto_linked(const char *path)
{
  if (elf_version(EV_CURRENT) == EV_NONE) return 0;
  int fd = open(path, O_RDONLY);
  if (fd < 0) return 0;
  Elf *e = elf_begin(fd, ELF_C_READ_MMAP, NULL);
  GElf_Ehdr eh;
  size_t shstrndx;
  int lto = e && elf_kind(e) == ELF_K_ELF && !elfsec_damaged(e) && gelf_getehdr(e, &eh)
            && (eh.e_type == ET_EXEC || eh.e_type == ET_DYN) && elf_getshdrstrndx(e, &shstrndx) == 0
            && elfsec_section_has(e, shstrndx, ".debug_str", "GNU GIMPLE");
  if (e) elf_end(e);
  close(fd);
  return lto;
}
