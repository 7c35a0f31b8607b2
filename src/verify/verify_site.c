/* verify_site.c — the source line of a call the runtime located by address.
 *
 * The runtime reports where a system call was called from as an object and
 * a link-time address in it (src/rt/rt_sys.c); binutils' addr2line turns
 * that into file:line from the object's debug information. Without debug
 * information, or without addr2line, there is no line: the diagnostic
 * says what it knows without one. */
#include "verify/verify.h"
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

/* Reads all of fd into a string (caller frees), at most cap bytes. */
static char *site_read_all(int fd, size_t cap)
{
  char *buf = xmalloc(cap + 1);
  size_t n = 0;
  for (ssize_t r; n < cap && ((r = read(fd, buf + n, cap - n)) > 0 || (r < 0 && errno == EINTR));)
    if (r > 0) n += (size_t)r;
  buf[n] = '\0';
  return buf;
}

/* `path` relative to root when under it. */
static char *site_rel(const char *path, const char *root)
{
  size_t n = root ? strlen(root) : 0;
  if (n && !strncmp(path, root, n) && path[n] == '/') return xstrdup(path + n + 1);
  return xstrdup(path);
}

char *verify_site_line(const char *obj, unsigned long addr, const char *root)
{
  int fds[2];
  if (pipe(fds) != 0) return NULL;
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_adddup2(&fa, fds[1], 1);
  posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addclose(&fa, fds[0]);
  char hex[32];
  snprintf(hex, sizeof hex, "0x%lx", addr);
  char *argv[] = { "addr2line", "-e", (char *)obj, hex, NULL };
  pid_t pid;
  int rc = posix_spawnp(&pid, "addr2line", &fa, NULL, argv, environ);
  posix_spawn_file_actions_destroy(&fa);
  close(fds[1]);
  char *out = rc == 0 ? site_read_all(fds[0], 4096) : NULL;
  close(fds[0]);
  if (rc == 0)
    while (waitpid(pid, NULL, 0) < 0 && errno == EINTR) {}
  if (!out) return NULL;
  out[strcspn(out, "\n")] = '\0';
  char *disc = strstr(out, " (discriminator");   /* "file:line (discriminator N)" */
  if (disc) *disc = '\0';
  char *colon = strrchr(out, ':');
  char *line = NULL;
  if (colon && out[0] != '?' && colon[1] >= '1' && colon[1] <= '9') line = site_rel(out, root);
  free(out);
  return line;
}
