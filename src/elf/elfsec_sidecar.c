/* elfsec_sidecar.c — the summaries of a linked binary in a file beside it.
 *
 * The linker concatenates every object's `.purist` into the executable or
 * shared object, and `strip` keeps it: the shipped binary grows by all of
 * it. The link step of `purist cc` moves the section into BINARY.purist
 * (a summary file: the records back to back) and removes it from the
 * binary with objcopy, so the binary is what the plain build makes
 * (issue 24 item 2). */
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
#include <sys/wait.h>
#include <unistd.h>

char *elfsec_sidecar_path(const char *binary)
{
  return xasprintf("%s.purist", binary);
}

/* A copy of the `.purist` section of the executable or shared object open
 * at fd (caller frees), or NULL: not such a file, or no section. */
static unsigned char *sidecar_section(int fd, size_t *len)
{
  Elf *e = elf_begin(fd, ELF_C_READ, NULL);
  GElf_Ehdr eh;
  size_t shstrndx;
  unsigned char *copy = NULL;
  if (!e || elf_kind(e) != ELF_K_ELF || !gelf_getehdr(e, &eh) || (eh.e_type != ET_EXEC && eh.e_type != ET_DYN) ||
      elf_getshdrstrndx(e, &shstrndx) != 0) {
    if (e) elf_end(e);
    return NULL;
  }
  for (Elf_Scn *s = elf_nextscn(e, NULL); s && !copy; s = elf_nextscn(e, s)) {
    GElf_Shdr sh;
    const char *name = gelf_getshdr(s, &sh) ? elf_strptr(e, shstrndx, sh.sh_name) : NULL;
    if (!name || strcmp(name, ELFSEC_NAME) != 0 || sh.sh_type == SHT_NOBITS) continue;
    Elf_Data *d = elf_rawdata(s, NULL);
    if (!d || !d->d_size) break;
    copy = xmalloc(d->d_size);
    memcpy(copy, d->d_buf, d->d_size);
    *len = d->d_size;
  }
  elf_end(e);
  return copy;
}

/* Runs objcopy to remove the section from the binary in place; returns
 * its exit status (-1: could not run it). */
static int sidecar_objcopy(const char *binary)
{
  pid_t pid = fork();
  if (pid == 0) {
    execlp("objcopy", "objcopy", "--remove-section=" ELFSEC_NAME, binary, (char *)NULL);
    fprintf(stderr, "purist cc: objcopy: %s\n", strerror(errno));
    _exit(127);
  }
  int st;
  if (pid < 0) return -1;
  while (waitpid(pid, &st, 0) < 0)
    if (errno != EINTR) return -1;
  return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* Is there a file at side that is not a summary file (one of the user's
 * that happens to have the name)? Such a file is never replaced. */
static int sidecar_foreign(const char *side)
{
  unsigned char head[8];
  int fd = open(side, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return 0;
  ssize_t n = read(fd, head, sizeof head);
  close(fd);
  return !(n == 8 && memcmp(head, "PURIST\0S", 8) == 0);
}

/* Removes a sidecar of an earlier link. */
static void sidecar_remove_stale(const char *side)
{
  if (access(side, F_OK) == 0 && !sidecar_foreign(side)) unlink(side);
}

int elfsec_sidecar_split(const char *binary, int embed, char **err)
{
  char *side = elfsec_sidecar_path(binary);
  char *tmp = xasprintf("%s.tmp.%ld", side, (long)getpid());
  int fd = elf_version(EV_CURRENT) == EV_NONE ? -1 : open(binary, O_RDONLY | O_CLOEXEC);
  size_t len = 0;
  unsigned char *data = fd >= 0 ? sidecar_section(fd, &len) : NULL;
  if (fd >= 0) close(fd);
  int rc = 0;
  if (!data || embed) {
    sidecar_remove_stale(side);   /* this binary's summaries are inside it, or it has none */
  } else if (sidecar_foreign(side)) {
    *err = xasprintf("%s exists and is not a summary file: the summaries stay inside %s", side, binary);
    rc = -1;
  } else {
    int out = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (out < 0 || file_write_all(out, data, len) != 0 || close(out) != 0) {
      *err = xasprintf("%s: %s", tmp, strerror(errno));
      rc = -1;
    } else if (sidecar_objcopy(binary) != 0) {
      *err = xasprintf("%s: objcopy could not remove the %s section; the summaries stay inside it",
                       binary, ELFSEC_NAME);
      rc = -1;
    } else if (rename(tmp, side) != 0) {
      *err = xasprintf("%s: %s", side, strerror(errno));
      rc = -1;
    } else {
      rc = 1;
    }
    if (rc != 1) unlink(tmp);
    if (rc != 1) sidecar_remove_stale(side);   /* the binary keeps its section: an old sidecar would mislead */
  }
  free(data);
  free(tmp);
  free(side);
  return rc;
}
