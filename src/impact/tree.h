/* tree.h — a temporary copy of the project tree, and paths mapped into it.
 *
 * Layout under $TMPDIR (else /tmp):  purist-impact-PID-XXXXXX/
 *   tree/   the project root's files, same relative layout
 *   out/    what the compilers write (assembly, objects, their messages)
 *
 * What is copied: every file under the root except version-control
 * directories (.git, .hg, .svn), build products (.o, .a, .so, .gch, …) and,
 * inside a build tree (a directory holding CMakeCache.txt), everything but
 * headers and C sources — a build tree's generated headers and sources are
 * part of the sources, its objects and binaries are not. Symlinks are copied as symlinks. The whole
 * directory is removed by tree_copy_free, and on SIGINT/SIGTERM/SIGHUP
 * (util/cleanup.h). */
#ifndef PURIST_TREE_H
#define PURIST_TREE_H

typedef struct {
  char *base;       /* the temporary directory */
  char *tree;       /* base/tree: the copy of src_root */
  char *out;        /* base/out */
  char *src_root;   /* the original root, absolute, no trailing slash */
} tree_copy;

/* Creates the temporary directory, arms the signal cleanup and copies
 * root (absolute) into it. Returns NULL with *err (caller frees); nothing
 * is left behind then. */
tree_copy *tree_copy_new(const char *root, char **err);
/* Removes the temporary directory and disarms the signal cleanup. Returns 0,
 * or -1 if something could not be removed (errno set). NULL is fine. */
int tree_copy_free(tree_copy *t);

/* An absolute path under src_root mapped into the copy; any other path
 * unchanged. Caller frees. */
char *tree_map_path(const tree_copy *t, const char *path);
/* A compiler argument with the root mapped: a path argument, or an option
 * with a path glued on (-I/root/inc, -include/root/x.h, --sysroot=/root,
 * -ffile-prefix-map=/root=.). Caller frees. */
char *tree_map_arg(const tree_copy *t, const char *arg);
/* mkdir -p of an absolute path. Returns 0 or -1 with errno. */
int tree_mkdirs(const char *path);

#endif
