/* otherdefs.c — definitions of the analysed functions in files the
 * database does not compile (issue 29, item 6).
 *
 * A library with one implementation file per platform (src/unix/thread.c
 * and src/win/thread.c behind one prototype in include/uv.h) is analysed
 * in one configuration: the database compiles the Unix file only. The
 * Windows definition of the same function may memoise where the Unix one
 * is const, and an attribute on the shared prototype binds both. So the
 * .c files beside the compiled ones (in their directories and in the
 * directories next to those, under the root) that no TU read are scanned
 * for top-level function definitions; an external function with a body
 * defined there too, in its definition's directory or one next to it (a
 * test's mock elsewhere in the tree is no platform), gets p->other_def, and checks/cfgdep.c treats it as a
 * class that holds only in the configuration analysed: no suggestion at
 * the prototype, a note naming the other file, and fix leaves it alone.
 * The scan is textual (comments, strings and preprocessor lines skipped;
 * `name ( … ) {` at brace depth 0 is a definition): a file the build does
 * not compile may not even preprocess here. */
#include "cli/cmd.h"
#include "cli/project.h"
#include "util/strbuf.h"
#include "util/strtab.h"
#include "util/xalloc.h"
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

enum { OD_MAX_FILE = 8 << 20 };   /* a larger .c is generated data, not an implementation */

typedef VEC(char *) strvec;

static bool od_has(const strvec *v, const char *s)
{
  for (size_t i = 0; i < v->n; i++)
    if (!strcmp(v->v[i], s)) return true;
  return false;
}

static int od_strcmp(const void *a, const void *b)
{
  return strcmp(*(char *const *)a, *(char *const *)b);
}

static int od_idcmp(const void *a, const void *b)
{
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return x < y ? -1 : x > y;
}

/* Is s in the sorted vector v? */
static bool od_sorted_has(const strvec *v, const char *s)
{
  return v->n && bsearch(&s, v->v, v->n, sizeof *v->v, od_strcmp) != NULL;
}

static void od_add(strvec *v, const char *s)
{
  if (!od_has(v, s)) vec_push(v, xstrdup(s));
}

static void od_free(strvec *v)
{
  for (size_t i = 0; i < v->n; i++) free(v->v[i]);
  vec_free(v);
}

/* realpath() of many files in few directories: each directory resolved
 * once (glibc's realpath reads every component of every path as a link,
 * and this scan resolves every file a TU read). */
typedef struct {
  strtab *dirs;
  VEC(char *) real;   /* per dirs id: its real path, NULL if none, OD_UNSEEN before asked */
} od_paths;

static char od_unseen;
#define OD_UNSEEN (&od_unseen)

static void od_paths_free(od_paths *m)
{
  for (size_t i = 0; i < m->real.n; i++)
    if (m->real.v[i] != OD_UNSEEN) free(m->real.v[i]);
  vec_free(&m->real);
  strtab_free(m->dirs);
}

/* The real path of directory dir (len bytes), memoised; NULL if none. */
static const char *od_real_dir(od_paths *m, const char *dir, size_t len)
{
  uint32_t id = strtab_intern_n(m->dirs, dir, len);
  while (m->real.n <= id) vec_push(&m->real, OD_UNSEEN);
  if (m->real.v[id] == OD_UNSEEN) {
    char buf[PATH_MAX];
    m->real.v[id] = realpath(strtab_get(m->dirs, id), buf) ? xstrdup(buf) : NULL;
  }
  return m->real.v[id];
}

/* realpath(path, out), the same answer: a name that is no symbolic link,
 * in a directory, is the directory's real path and the name. */
static bool od_realpath(od_paths *m, const char *path, char out[PATH_MAX])
{
  const char *slash = strrchr(path, '/'), *base = slash ? slash + 1 : NULL;
  if (!slash || slash == path || !*base || !strcmp(base, ".") || !strcmp(base, ".."))
    return realpath(path, out) != NULL;
  struct stat st;
  if (lstat(path, &st) != 0) return false;
  if (S_ISLNK(st.st_mode)) return realpath(path, out) != NULL;
  const char *dir = od_real_dir(m, path, (size_t)(slash - path));
  if (!dir) return false;
  int n = snprintf(out, PATH_MAX, "%s/%s", strcmp(dir, "/") ? dir : "", base);
  return n > 0 && n < PATH_MAX;
}

/* Is path under dir (dir itself included)? */
static bool od_under(const char *path, const char *dir)
{
  size_t n = strlen(dir);
  return !strncmp(path, dir, n) && (path[n] == '/' || path[n] == 0);
}

/* The directory part of path, in buf (PATH_MAX); false if it has none. */
static bool od_dirname(const char *path, char *buf)
{
  const char *slash = strrchr(path, '/');
  if (!slash || slash == path || (size_t)(slash - path) >= PATH_MAX) return false;
  memcpy(buf, path, (size_t)(slash - path));
  buf[slash - path] = 0;
  return true;
}

/* Skips a comment, string, character constant or preprocessor line at
 * s[i] (at a line's start for the latter); returns the index after it, or
 * i when there is none. Counts the newlines it passes in *line. */
static size_t od_skip(const char *s, size_t n, size_t i, bool bol, unsigned *line)
{
  size_t j = i;
  if (s[j] == '/' && j + 1 < n && s[j + 1] == '*') {
    for (j += 2; j + 1 < n && !(s[j] == '*' && s[j + 1] == '/'); j++) *line += s[j] == '\n';
    return j + 2 <= n ? j + 2 : n;
  }
  if ((s[j] == '/' && j + 1 < n && s[j + 1] == '/') || (bol && s[j] == '#')) {
    for (; j < n && s[j] != '\n'; j++)
      if (s[j] == '\\' && j + 1 < n && s[j + 1] == '\n') { j++; (*line)++; }
    return j;
  }
  if (s[j] == '"' || s[j] == '\'') {
    char q = s[j];
    for (j++; j < n && s[j] != q && s[j] != '\n'; j++)
      if (s[j] == '\\' && j + 1 < n) j++;
    return j < n ? j + 1 : n;
  }
  return i;
}

/* Calls back for each top-level function definition of the text s. */
typedef void (*od_def_fn)(void *ctx, const char *name, size_t len, unsigned line);

/* A static function's definition is no definition of the external one of
 * the same name (zstd's legacy/zstd_v01.c keeps its own static
 * FSE_isError): `static` at depth 0 since the last `;` or `}` there marks
 * the declaration. A macro that stands for it (`#define local static`) is
 * not seen: conservative. */
static void od_scan_text(const char *s, size_t n, od_def_fn fn, void *ctx)
{
  unsigned line = 1, id_line = 0;
  int depth = 0, paren = 0;
  size_t id = 0, idlen = 0, cand = 0, candlen = 0;
  bool bol = true, after_params = false, is_static = false;
  for (size_t i = 0; i < n;) {
    size_t j = od_skip(s, n, i, bol, &line);
    if (j != i) { i = j; continue; }
    char c = s[i];
    if (c == '\n') { line++; bol = true; i++; continue; }
    if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') { i++; continue; }
    bol = false;
    if (c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')) {
      size_t k = i;
      while (k < n && (s[k] == '_' || (s[k] >= 'a' && s[k] <= 'z') || (s[k] >= 'A' && s[k] <= 'Z') ||
                       (s[k] >= '0' && s[k] <= '9')))
        k++;
      id = i; idlen = k - i; id_line = line;
      if (depth == 0 && paren == 0 && idlen == 6 && !strncmp(s + i, "static", 6)) is_static = true;
      after_params = false;
      i = k;
      continue;
    }
    if (depth == 0 && c == '(') {
      if (paren == 0) { cand = idlen ? id : 0; candlen = idlen; }
      paren++;
    } else if (depth == 0 && c == ')' && paren > 0) {
      if (--paren == 0) after_params = candlen > 0;
    } else if (c == '{') {
      if (depth == 0 && paren == 0 && after_params && !is_static) fn(ctx, s + cand, candlen, id_line);
      depth++;
    } else if (c == '}' && depth > 0) {
      if (--depth == 0) is_static = false;
    } else if (c == ';' && depth == 0) {
      is_static = false;
    }
    if (c != ')') after_params = false;
    idlen = 0;
    i++;
  }
}

typedef struct {
  link_prog *p;
  od_paths *paths;
  const char *rel;   /* the file, relative to the root */
  const char *dir;   /* its directory */
} od_file_ctx;

/* Are directories a and b the same, or next to each other (one parent)? */
static bool od_beside(const char *a, const char *b)
{
  char pa[PATH_MAX], pb[PATH_MAX];
  return !strcmp(a, b) || (od_dirname(a, pa) && od_dirname(b, pb) && !strcmp(pa, pb));
}

static void od_found(void *vctx, const char *name, size_t len, unsigned line)
{
  od_file_ctx *x = vctx;
  char buf[256];
  if (len >= sizeof buf) return;
  memcpy(buf, name, len);
  buf[len] = 0;
  long fi = link_find(x->p, buf);
  if (fi < 0) return;
  const link_func *f = &x->p->funcs.v[fi];
  if (f->linkage != SUM_EXTERNAL || !(f->flags & SFF_BODY) || x->p->other_def[fi]) return;
  char real[PATH_MAX], dir[PATH_MAX];
  if (!od_realpath(x->paths, strtab_get(x->p->strs, f->loc.file), real) || !od_dirname(real, dir) || !od_beside(dir, x->dir))
    return;
  strbuf w = {0};
  sb_printf(&w, "%s:%u", x->rel, line);
  x->p->other_def[fi] = strtab_intern(x->p->strs, sb_str(&w));
  sb_free(&w);
}

/* Scans one file no TU read. */
static void od_scan_file(link_prog *p, od_paths *paths, const char *path, const char *root)
{
  FILE *fp = fopen(path, "rb");
  if (!fp) return;
  struct stat st;
  if (fstat(fileno(fp), &st) != 0 || !S_ISREG(st.st_mode) || st.st_size <= 0 || st.st_size > OD_MAX_FILE) {
    fclose(fp);
    return;
  }
  char *text = xmalloc((size_t)st.st_size);
  size_t n = fread(text, 1, (size_t)st.st_size, fp);
  fclose(fp);
  char dir[PATH_MAX];
  if (!od_dirname(path, dir)) { free(text); return; }
  od_file_ctx x = { p, paths, path + strlen(root) + (path[strlen(root)] == '/'), dir };
  od_scan_text(text, n, od_found, &x);
  free(text);
}

/* The .c files of dir that no TU read. */
static void od_scan_dir(link_prog *p, od_paths *paths, const char *dir, const strvec *read,
                        const char *root)
{
  DIR *d = opendir(dir);
  if (!d) return;
  strvec names = {0};
  for (struct dirent *e; (e = readdir(d));) {
    size_t n = strlen(e->d_name);
    if (n > 2 && !strcmp(e->d_name + n - 2, ".c")) od_add(&names, e->d_name);
  }
  closedir(d);
  if (names.n) qsort(names.v, names.n, sizeof *names.v, od_strcmp);   /* the first file named: the same every run */
  for (size_t i = 0; i < names.n; i++) {
    strbuf path = {0};
    sb_printf(&path, "%s/%s", dir, names.v[i]);
    char real[PATH_MAX];
    if (od_realpath(paths, sb_str(&path), real) && !od_sorted_has(read, real))
      od_scan_file(p, paths, real, root);
    sb_free(&path);
  }
  od_free(&names);
}

/* The directories beside dir (its parent's subdirectories), under root. */
static void od_siblings(const char *dir, const char *root, strvec *dirs)
{
  char parent[PATH_MAX];
  if (!od_dirname(dir, parent) || !od_under(parent, root)) return;
  DIR *d = opendir(parent);
  if (!d) return;
  for (struct dirent *e; (e = readdir(d));) {
    if (e->d_name[0] == '.') continue;   /* ., .., .git and the like */
    strbuf s = {0};
    sb_printf(&s, "%s/%s", parent, e->d_name);
    struct stat st;
    if (stat(sb_str(&s), &st) == 0 && S_ISDIR(st.st_mode)) od_add(dirs, sb_str(&s));
    sb_free(&s);
  }
  closedir(d);
}

void cmd_mark_other_defs(const cli_opts *o, link_prog *p, const char *root)
{
  char rroot[PATH_MAX];
  if (!root || !realpath(root, rroot) || !p->funcs.n) return;
  free(p->other_def);
  p->other_def = xcalloc(p->funcs.n, sizeof *p->other_def);
  strvec read = {0}, dirs = {0};
  char real[PATH_MAX], dir[PATH_MAX];
  /* Every file a TU read (the definitions', declarations' and the
   * project's files), each name resolved once. */
  VEC(uint32_t) ids = {0}, defs = {0};
  for (size_t i = 0; i < p->funcs.n; i++) {
    vec_push(&ids, p->funcs.v[i].loc.file);
    if (p->funcs.v[i].linkage == SUM_EXTERNAL && (p->funcs.v[i].flags & SFF_BODY)) vec_push(&defs, p->funcs.v[i].loc.file);
  }
  for (size_t i = 0; i < p->decls.n; i++) vec_push(&ids, p->decls.v[i].loc.file);
  for (size_t i = 0; i < p->files.n; i++) vec_push(&ids, p->files.v[i].file);
  /* And every file the database compiles, even one whose functions an #if
   * of this configuration leaves out (gnulib's binary-io.c): the list the
   * analysis read, else the database again. */
  od_paths paths = { strtab_new(), {0} };
  if (p->db_files_set) {
    for (size_t i = 0; i < p->db_files.n; i++)
      if (od_realpath(&paths, p->db_files.v[i], real)) vec_push(&read, xstrdup(real));
  } else {
    fe_jobs jobs = {0};
    char *jroot = NULL, *err = NULL;
    if (project_jobs(o, &jobs, &jroot, &err, NULL) == 0)
      for (size_t i = 0; i < jobs.n; i++)
        if (od_realpath(&paths, jobs.v[i].file, real)) vec_push(&read, xstrdup(real));
    free(jroot);
    free(err);
    cdb_jobs_free(&jobs);
  }
  if (ids.n) qsort(ids.v, ids.n, sizeof *ids.v, od_idcmp);
  for (size_t i = 0; i < ids.n; i++)
    if ((i == 0 || ids.v[i] != ids.v[i - 1]) && od_realpath(&paths, strtab_get(p->strs, ids.v[i]), real))
      vec_push(&read, xstrdup(real));
  if (read.n) qsort(read.v, read.n, sizeof *read.v, od_strcmp);
  /* The directories of the compiled external definitions, and those beside them. */
  if (defs.n) qsort(defs.v, defs.n, sizeof *defs.v, od_idcmp);
  for (size_t i = 0; i < defs.n; i++) {
    if (i && defs.v[i] == defs.v[i - 1]) continue;
    if (!od_realpath(&paths, strtab_get(p->strs, defs.v[i]), real) || !od_under(real, rroot) || !od_dirname(real, dir))
      continue;
    if (od_has(&dirs, dir)) continue;
    od_add(&dirs, dir);
    od_siblings(dir, rroot, &dirs);
  }
  vec_free(&ids);
  vec_free(&defs);
  for (size_t i = 0; i < dirs.n; i++) od_scan_dir(p, &paths, dirs.v[i], &read, rroot);
  od_paths_free(&paths);
  od_free(&read);
  od_free(&dirs);
}
