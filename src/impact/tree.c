/* tree.c — see tree.h. */
#include "impact/tree.h"
#include "util/cleanup.h"
#include "util/xalloc.h"
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* What the copy walk needs besides the paths. */
typedef struct {
  dev_t base_dev;   /* the temporary directory: never copied into itself */
  ino_t base_ino;
  char *err;
} tree_walk;

static bool tree_has_suffix(const char *name, const char *const *sfx)
{
  size_t n = strlen(name);
  for (int i = 0; sfx[i]; i++) {
    size_t k = strlen(sfx[i]);
    if (n > k && strcmp(name + n - k, sfx[i]) == 0) return true;
  }
  return false;
}

/* Build products and version control: never needed to compile. */
static bool tree_skip(const char *name, bool is_dir)
{
  static const char *const vcs[] = { ".git", ".hg", ".svn", NULL };
  static const char *const products[] = { ".o", ".obj", ".a", ".so", ".lo", ".la", ".gch", ".pch",
                                          ".gcno", ".gcda", ".d", NULL };
  if (is_dir) {
    for (int i = 0; vcs[i]; i++) if (strcmp(name, vcs[i]) == 0) return true;
    return false;
  }
  return tree_has_suffix(name, products);
}

/* What a build tree holds that the compiler reads: generated headers and
 * generated sources (curl's tool_hugehelp.c, a CMake unity file). */
static bool tree_is_source(const char *name)
{
  static const char *const src[] = { ".h", ".hh", ".hpp", ".inc", ".def", ".c", ".i", NULL };
  return tree_has_suffix(name, src);
}

/* Copies one regular file's bytes and mode; copy_file_range where the
 * kernel can, read/write where it cannot (another file system, old kernel). */
static int tree_copy_file(const char *from, const char *to, mode_t mode)
{
  int in = open(from, O_RDONLY | O_CLOEXEC);
  if (in < 0) return -1;
  int out = open(to, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode & 07777);
  if (out < 0) { close(in); return -1; }
  int rc = 0;
  ssize_t n;
  bool plain = false;
  for (;;) {
    if (!plain) {
      n = copy_file_range(in, NULL, out, NULL, 1 << 30, 0);
      if (n < 0 && (errno == EXDEV || errno == ENOSYS || errno == EINVAL || errno == EOPNOTSUPP)) {
        plain = true;
        continue;
      }
      if (n <= 0) { rc = n < 0 ? -1 : 0; break; }
      continue;
    }
    char buf[65536];
    n = read(in, buf, sizeof buf);
    if (n <= 0) { rc = n < 0 ? -1 : 0; break; }
    for (ssize_t off = 0; off < n;) {
      ssize_t w = write(out, buf + off, (size_t)(n - off));
      if (w < 0) { rc = -1; break; }
      off += w;
    }
    if (rc) break;
  }
  int saved = errno;
  close(in);
  if (close(out) != 0 && rc == 0) { rc = -1; saved = errno; }
  errno = saved;
  return rc;
}

static int tree_copy_dir(tree_walk *w, const char *from, const char *to, bool in_build);

/* Copies one directory entry (name) from `from` to `to`. */
static int tree_copy_entry(tree_walk *w, const char *from, const char *to, const char *name, bool in_build)
{
  char *src = xasprintf("%s/%s", from, name), *dst = xasprintf("%s/%s", to, name);
  struct stat st;
  int rc = 0;
  if (lstat(src, &st) != 0) {
    rc = errno == ENOENT ? 0 : -1;   /* vanished while we copied: nothing to copy */
  } else if (S_ISDIR(st.st_mode)) {
    if (!(st.st_dev == w->base_dev && st.st_ino == w->base_ino) && !tree_skip(name, true))
      rc = tree_copy_dir(w, src, dst, in_build);
  } else if (S_ISLNK(st.st_mode)) {
    char target[4096];
    ssize_t n = readlink(src, target, sizeof target - 1);
    if (n < 0) rc = -1;
    else { target[n] = '\0'; rc = symlink(target, dst); }
  } else if (S_ISREG(st.st_mode) && !tree_skip(name, false) && (!in_build || tree_is_source(name))) {
    rc = tree_copy_file(src, dst, st.st_mode);
  }
  if (rc != 0 && !w->err) w->err = xasprintf("%s: could not copy: %s", src, strerror(errno));
  free(src);
  free(dst);
  return rc;
}

static int tree_copy_dir(tree_walk *w, const char *from, const char *to, bool in_build)
{
  DIR *d = opendir(from);
  if (!d) {
    w->err = xasprintf("%s: could not read the directory: %s", from, strerror(errno));
    return -1;
  }
  if (mkdir(to, 0700) != 0 && errno != EEXIST) {
    w->err = xasprintf("%s: %s", to, strerror(errno));
    closedir(d);
    return -1;
  }
  char *cache = xasprintf("%s/CMakeCache.txt", from);
  in_build = in_build || access(cache, F_OK) == 0;
  free(cache);
  int rc = 0;
  struct dirent *e;
  while (rc == 0 && (e = readdir(d)))
    if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
      rc = tree_copy_entry(w, from, to, e->d_name, in_build);
  closedir(d);
  return rc;
}

int tree_mkdirs(const char *path)
{
  char *p = xstrdup(path);
  int rc = 0;
  for (char *s = p + 1; rc == 0; s++) {
    if (*s != '/' && *s != '\0') continue;
    char c = *s;
    *s = '\0';
    if (mkdir(p, 0700) != 0 && errno != EEXIST) rc = -1;
    *s = c;
    if (!c) break;
  }
  free(p);
  return rc;
}

tree_copy *tree_copy_new(const char *root, char **err)
{
  const char *tmp = getenv("TMPDIR");
  /* The PID in the name: a later run removes the copy of one killed by
   * SIGKILL (cleanup_sweep_stale), which no handler could. */
  cleanup_sweep_stale(tmp && *tmp ? tmp : "/tmp");
  char *base = xasprintf("%s/purist-impact-%ld-XXXXXX", tmp && *tmp ? tmp : "/tmp", (long)getpid());
  if (!mkdtemp(base)) {
    *err = xasprintf("%s: could not create a temporary directory: %s", base, strerror(errno));
    free(base);
    return NULL;
  }
  tree_copy *t = xcalloc(1, sizeof *t);
  t->base = base;
  t->tree = xasprintf("%s/tree", base);
  t->out = xasprintf("%s/out", base);
  size_t rl = strlen(root);
  while (rl > 1 && root[rl - 1] == '/') rl--;
  t->src_root = xstrndup(root, rl);
  if (cleanup_install(base) != 0) {
    *err = xasprintf("%s: temporary directory path too long", base);
    goto fail;
  }
  struct stat st;
  tree_walk w = { 0 };
  if (stat(base, &st) == 0) { w.base_dev = st.st_dev; w.base_ino = st.st_ino; }
  if (mkdir(t->out, 0700) != 0 || tree_copy_dir(&w, t->src_root, t->tree, false) != 0) {
    *err = w.err ? w.err : xasprintf("%s: %s", t->out, strerror(errno));
    goto fail;
  }
  return t;
fail:
  tree_copy_free(t);
  return NULL;
}

int tree_copy_free(tree_copy *t)
{
  if (!t) return 0;
  cleanup_uninstall();
  int rc = cleanup_rmtree(t->base);
  free(t->base);
  free(t->tree);
  free(t->out);
  free(t->src_root);
  free(t);
  return rc;
}

/* Length of the root prefix if path lies under the root (path == root or
 * root + "/…"), else 0. */
static size_t tree_under_root(const tree_copy *t, const char *path)
{
  size_t n = strlen(t->src_root);
  if (strncmp(path, t->src_root, n) != 0) return 0;
  if (path[n] != '\0' && path[n] != '/' && path[n] != '=' && path[n] != ':') return 0;
  return n;
}

char *tree_map_path(const tree_copy *t, const char *path)
{
  size_t n = tree_under_root(t, path);
  return n ? xasprintf("%s%s", t->tree, path + n) : xstrdup(path);
}

char *tree_map_arg(const tree_copy *t, const char *arg)
{
  static const char *const glued[] = { "-I", "-iquote", "-isystem", "-idirafter", "-include",
                                       "-imacros", "-iprefix", "-L", "-B", NULL };
  if (arg[0] == '/') return tree_map_path(t, arg);
  if (arg[0] != '-') return xstrdup(arg);
  const char *eq = strchr(arg, '=');
  size_t at = 0;
  if (eq && eq[1] == '/') at = (size_t)(eq + 1 - arg);
  for (int i = 0; !at && glued[i]; i++) {
    size_t k = strlen(glued[i]);
    if (strncmp(arg, glued[i], k) == 0 && arg[k] == '/') at = k;
  }
  if (!at || !tree_under_root(t, arg + at)) return xstrdup(arg);
  char *tail = tree_map_path(t, arg + at);
  char *out = xasprintf("%.*s%s", (int)at, arg, tail);
  free(tail);
  return out;
}
