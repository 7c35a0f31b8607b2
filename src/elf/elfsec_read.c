/* elfsec_read.c — finds the `.purist` sections of ELF files and archives. */
#include "elf/elfsec.h"
#include "util/xalloc.h"
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <string.h>
#include <unistd.h>

int elfsec_sniff(const unsigned char *head, size_t n)
{
  return n >= 8 && (memcmp(head, "\177ELF", 4) == 0 || memcmp(head, "!<arch>\n", 8) == 0);
}

/* Why the file's section headers cannot be trusted, or NULL. libelf
 * reads a truncated file as one without sections: the table must fit. */
static const char *elfsec_damaged(Elf *e)
{
  GElf_Ehdr eh;
  size_t size = 0, nscn = 0;
  if (!gelf_getehdr(e, &eh) || elf_getshdrnum(e, &nscn) != 0) return elf_errmsg(-1);
  elf_rawfile(e, &size);
  if (eh.e_shoff > size || (uint64_t)nscn * eh.e_shentsize > size - eh.e_shoff)
    return "truncated: its section headers lie past its end";
  return NULL;
}

/* Calls fn with one ELF file's `.purist` data (NULL if it has none). */
static void elfsec_scan(Elf *e, const char *name, elfsec_fn fn, void *ctx)
{
  size_t shstrndx;
  const unsigned char *data = NULL;
  size_t len = 0;
  const char *bad = elfsec_damaged(e);
  if (!bad && elf_getshdrstrndx(e, &shstrndx) != 0) bad = elf_errmsg(-1);
  if (bad) {
    fn(ctx, name, NULL, 0, bad);
    return;
  }
  {
    for (Elf_Scn *s = elf_nextscn(e, NULL); s; s = elf_nextscn(e, s)) {
      GElf_Shdr sh;
      const char *sname = gelf_getshdr(s, &sh) ? elf_strptr(e, shstrndx, sh.sh_name) : NULL;
      if (!sname || strcmp(sname, ELFSEC_NAME) != 0 || sh.sh_type == SHT_NOBITS) continue;
      /* Raw bytes: the records are byte strings, whatever the ELF class. */
      Elf_Data *d = elf_rawdata(s, NULL);
      data = d && d->d_buf ? d->d_buf : (const unsigned char *)"";
      len = d ? d->d_size : 0;
      break;
    }
  }
  fn(ctx, name, data, len, NULL);
}

/* Every ELF member of an archive, in order. Members that are not ELF
 * (the symbol table, the long-name table) are passed over. */
static void elfsec_archive(int fd, Elf *ar, const char *path, elfsec_fn fn, void *ctx)
{
  Elf_Cmd cmd = ELF_C_READ_MMAP;
  Elf *m;
  while ((m = elf_begin(fd, cmd, ar)) != NULL) {
    Elf_Arhdr *h = elf_getarhdr(m);
    if (elf_kind(m) == ELF_K_ELF && h && h->ar_name && h->ar_name[0] != '/') {
      char *name = xasprintf("%s(%s)", path, h->ar_name);
      elfsec_scan(m, name, fn, ctx);
      free(name);
    }
    cmd = elf_next(m);
    elf_end(m);
  }
}

elfsec_status elfsec_read(const char *path, elfsec_fn fn, void *ctx, char **err)
{
  if (elf_version(EV_CURRENT) == EV_NONE) { *err = xstrdup("libelf is out of date"); return ELFSEC_ERROR; }
  int fd = open(path, O_RDONLY);
  if (fd < 0) {
    *err = xasprintf("%s: %s", path, strerror(errno));
    return ELFSEC_ERROR;
  }
  Elf *e = elf_begin(fd, ELF_C_READ_MMAP, NULL);
  elfsec_status st = ELFSEC_OK;
  Elf_Kind k = e ? elf_kind(e) : ELF_K_NONE;
  if (k == ELF_K_AR) elfsec_archive(fd, e, path, fn, ctx);
  else if (k == ELF_K_ELF) elfsec_scan(e, path, fn, ctx);
  else st = ELFSEC_NOT_ELF;
  if (e) elf_end(e);
  close(fd);
  return st;
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
