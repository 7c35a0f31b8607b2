/* elfsec_sidecar.c — the summaries of a linked binary in a file beside it.
 *
 * The linker concatenates every object's `.purist` into the executable or
 * shared object, and `strip` keeps it: the shipped binary grows by all of
 * it. The link step of `purist cc` moves the section into BINARY.purist
 * (a summary file: the records back to back) and removes it from the
 * binary with objcopy, so the binary is what the plain build makes
 * (issue 24 item 2).
 *
 * Order (issue 31 items 4 and 12): the sidecar is written to a fresh
 * temporary (O_EXCL|O_NOFOLLOW: never through a link another user put in
 * the output directory) and renamed into place first, then the section is
 * stripped. A build killed in between leaves the summaries twice, never
 * nowhere; temporaries of dead processes are swept at the next link. */
#include "elf/elfsec.h"
#include "util/fileio.h"
#include "util/safefs.h"
#include "util/xalloc.h"
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <dirent.h>
#include <signal.h>
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
  /* Never through a symlink, never waiting on a FIFO: anything there that
   * cannot be opened so is not ours. */
  int fd = open(side, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) return errno != ENOENT;
  ssize_t n = read(fd, head, sizeof head);
  close(fd);
  return !(n == 8 && memcmp(head, "PURIST\0S", 8) == 0);
}

/* Removes a sidecar of an earlier link. */
static void sidecar_remove_stale(const char *side)
{
  struct stat st;
  if (lstat(side, &st) == 0 && !sidecar_foreign(side)) unlink(side);
}

/* Removes BASE.purist.tmp.PID.* of processes that are gone, owned by the
 * user, in directory dfd: what a build killed mid-link left. */
static void sidecar_sweep(int dfd, const char *base)
{
  int fd = dup(dfd);
  DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
  if (!d) {
    if (fd >= 0) close(fd);
    return;
  }
  char *prefix = xasprintf("%s.purist.tmp.", base);
  size_t n = strlen(prefix);
  struct dirent *e;
  while ((e = readdir(d))) {
    if (strncmp(e->d_name, prefix, n) != 0) continue;
    char *end;
    long pid = strtol(e->d_name + n, &end, 10);
    struct stat st;
    if (pid <= 0 || end == e->d_name + n || (*end && *end != '.')) continue;
    if (kill((pid_t)pid, 0) == 0 || errno != ESRCH) continue;   /* alive, or not ours to judge */
    if (fstatat(dfd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(st.st_mode) && st.st_uid == geteuid())
      unlinkat(dfd, e->d_name, 0);
  }
  closedir(d);
  free(prefix);
}

/* Writes data to the sidecar side (in directory dfd, name sname) through
 * a fresh temporary renamed into place. 0, or -1 with *err. */
static int sidecar_write(int dfd, const char *side, const char *sname, const void *data, size_t len, char **err)
{
  char *base = xasprintf("%s.tmp.%ld", sname, (long)getpid()), *tmp = NULL;
  int out = safefs_tmp_open(dfd, base, 0644, &tmp), rc = 0;
  if (out < 0 || file_write_all(out, data, len) != 0 || close(out) != 0 || renameat(dfd, tmp, dfd, sname) != 0) {
    *err = xasprintf("%s: %s", side, strerror(errno));
    if (tmp) unlinkat(dfd, tmp, 0);
    rc = -1;
  }
  free(tmp);
  free(base);
  return rc;
}

/* The directory of path, opened; *name points at its last component. */
static int sidecar_dir(const char *path, const char **name)
{
  const char *slash = strrchr(path, '/');
  *name = slash ? slash + 1 : path;
  char *dir = slash ? (slash == path ? xstrdup("/") : xstrndup(path, (size_t)(slash - path))) : xstrdup(".");
  int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  free(dir);
  return fd;
}

int elfsec_sidecar_split(const char *binary, int embed, char **err)
{
  char *side = elfsec_sidecar_path(binary);
  int fd = elf_version(EV_CURRENT) == EV_NONE ? -1 : open(binary, O_RDONLY | O_CLOEXEC);
  size_t len = 0;
  unsigned char *data = fd >= 0 ? sidecar_section(fd, &len) : NULL;
  if (fd >= 0) close(fd);
  const char *sname, *slash = strrchr(binary, '/');
  const char *bname = slash ? slash + 1 : binary;
  int dfd = sidecar_dir(side, &sname);
  int rc = 0;
  if (dfd >= 0) sidecar_sweep(dfd, bname);
  if (!data || embed) {
    sidecar_remove_stale(side);   /* this binary's summaries are inside it, or it has none */
  } else if (sidecar_foreign(side)) {
    *err = xasprintf("%s exists and is not a summary file: the summaries stay inside %s", side, binary);
    rc = -1;
  } else if (dfd < 0) {
    *err = xasprintf("%s: %s", side, strerror(errno));
    rc = -1;
  } else if (sidecar_write(dfd, side, sname, data, len, err) != 0) {
    rc = -1;
  } else if (sidecar_objcopy(binary) != 0) {
    *err = xasprintf("%s: objcopy could not remove the %s section; the summaries stay inside it",
                     binary, ELFSEC_NAME);
    unlinkat(dfd, sname, 0);   /* the binary keeps its section: a sidecar beside it would be a second copy */
    rc = -1;
  } else {
    rc = 1;
  }
  if (dfd >= 0) close(dfd);
  free(data);
  free(side);
  return rc;
}
