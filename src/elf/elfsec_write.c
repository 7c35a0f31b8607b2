/* elfsec_write.c — adds the `.purist` section to a relocatable object. */
#include "elf/elfsec.h"
#include "util/fileio.h"
#include "util/xalloc.h"
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Writes a copy of src's bytes to dst with src's permissions. */
static int elfsec_copy(const char *src, const char *dst, char **err)
{
  struct stat st;
  size_t len;
  char *buf = file_read_all(src, &len);
  if (!buf || stat(src, &st) != 0) {
    *err = xasprintf("%s: %s", src, strerror(errno));
    free(buf);
    return -1;
  }
  int fd = open(dst, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, st.st_mode & 07777);
  int ok = fd >= 0 && file_write_all(fd, buf, len) == 0;
  if (fd >= 0 && close(fd) != 0) ok = 0;
  if (!ok) *err = xasprintf("%s: %s", dst, strerror(errno));
  free(buf);
  return ok ? 0 : -1;
}

/* The existing `.purist` section, or NULL. */
static Elf_Scn *elfsec_find(Elf *e, size_t shstrndx)
{
  for (Elf_Scn *s = elf_nextscn(e, NULL); s; s = elf_nextscn(e, s)) {
    GElf_Shdr sh;
    const char *name = gelf_getshdr(s, &sh) ? elf_strptr(e, shstrndx, sh.sh_name) : NULL;
    if (name && strcmp(name, ELFSEC_NAME) == 0) return s;
  }
  return NULL;
}

/* A new, empty `.purist` section: its name appended to the section-name
 * table, no flags (not loaded), alignment 1 (records back to back when a
 * linker concatenates them). */
static Elf_Scn *elfsec_add(Elf *e, size_t shstrndx)
{
  static const char name[] = ELFSEC_NAME;
  Elf_Scn *strs = elf_getscn(e, shstrndx);
  GElf_Shdr ssh;
  if (!strs || !gelf_getshdr(strs, &ssh) || !elf_getdata(strs, NULL)) return NULL;
  Elf_Data *nd = elf_newdata(strs);
  if (!nd) return NULL;
  nd->d_buf = (void *)name;
  nd->d_size = sizeof name;
  nd->d_type = ELF_T_BYTE;
  nd->d_align = 1;
  nd->d_version = EV_CURRENT;
  Elf_Scn *s = elf_newscn(e);
  GElf_Shdr sh;
  if (!s || !gelf_getshdr(s, &sh)) return NULL;
  memset(&sh, 0, sizeof sh);
  sh.sh_name = (GElf_Word)ssh.sh_size;   /* where the new name lands */
  sh.sh_type = SHT_PROGBITS;
  sh.sh_addralign = 1;
  return gelf_update_shdr(s, &sh) ? s : NULL;
}

/* Puts data into the section of the object open at fd; returns a libelf
 * error message or NULL. */
static const char *elfsec_update(int fd, const unsigned char *data, size_t len)
{
  Elf *e = elf_begin(fd, ELF_C_RDWR, NULL);
  const char *why = NULL;
  GElf_Ehdr eh;
  size_t shstrndx;
  Elf_Scn *s = NULL;
  if (!e || elf_kind(e) != ELF_K_ELF || !gelf_getehdr(e, &eh)) why = "not an ELF file";
  else if (eh.e_type != ET_REL) why = "not a relocatable object";
  else if (elf_getshdrstrndx(e, &shstrndx) != 0) why = elf_errmsg(-1);
  else if (!(s = elfsec_find(e, shstrndx)) && !(s = elfsec_add(e, shstrndx))) why = elf_errmsg(-1);
  Elf_Data *d = why ? NULL : elf_getdata(s, NULL);
  if (!why && !d && !(d = elf_newdata(s))) why = elf_errmsg(-1);
  if (!why) {
    d->d_buf = (void *)data;
    d->d_size = len;
    d->d_type = ELF_T_BYTE;
    d->d_align = 1;
    d->d_version = EV_CURRENT;
    elf_flagdata(d, ELF_C_SET, ELF_F_DIRTY);
    if (elf_update(e, ELF_C_WRITE) < 0) why = elf_errmsg(-1);
  }
  if (e) elf_end(e);
  return why;
}

int elfsec_embed(const char *path, const unsigned char *data, size_t len, char **err)
{
  if (elf_version(EV_CURRENT) == EV_NONE) { *err = xstrdup("libelf is out of date"); return -1; }
  char *tmp = xasprintf("%s.purist-tmp.%ld", path, (long)getpid());
  int rc = elfsec_copy(path, tmp, err);
  int fd = rc == 0 ? open(tmp, O_RDWR) : -1;
  if (rc == 0 && fd < 0) {
    *err = xasprintf("%s: %s", tmp, strerror(errno));
    rc = -1;
  }
  const char *why = fd >= 0 ? elfsec_update(fd, data, len) : NULL;
  if (fd >= 0 && close(fd) != 0 && !why) why = strerror(errno);
  if (rc == 0 && why) {
    *err = xasprintf("%s: %s", path, why);
    rc = -1;
  }
  if (rc == 0 && rename(tmp, path) != 0) {
    *err = xasprintf("%s: %s", path, strerror(errno));
    rc = -1;
  }
  if (rc != 0) unlink(tmp);
  free(tmp);
  return rc;
}
