/* preproc.c — preprocessed input (a `.i` file, as distcc sends to its
 * servers): the source names and lines come from the line markers the
 * preprocessor wrote (`# 12 "src/a.c" 2`), not from the `.i` file itself,
 * so that the summary names the files `purist infer` would name. */
#include "frontend/fe_internal.h"
#include <ctype.h>
#include <string.h>
#include <unistd.h>

typedef struct fe_pp {
  char *base;        /* GCC's working-directory marker (`# 1 "/dir//"`, written with -g), or NULL */
  char *dir;         /* the compile's directory */
  strtab *raw;       /* marker names as written */
  VEC(uint32_t) ids; /* raw id -> string id in the summary (0: not resolved yet) */
} fe_pp;

int fe_pp_wanted(const fe_job *job)
{
  size_t n = strlen(job->file);
  return n > 2 && strcmp(job->file + n - 2, ".i") == 0;
}

/* The quoted name of a line marker at p ("# N \"name\"…" or "#line N \"name\""),
 * or NULL. *len receives its length (escapes are kept: GCC writes them only
 * for names with quotes or backslashes). */
static const char *fe_pp_marker_name(const char *p, const char *end, size_t *len)
{
  if (p >= end || *p != '#') return NULL;
  p++;
  if (end - p > 4 && !strncmp(p, "line", 4)) p += 4;
  while (p < end && *p == ' ') p++;
  if (p >= end || *p < '0' || *p > '9') return NULL;
  while (p < end && *p >= '0' && *p <= '9') p++;
  while (p < end && *p == ' ') p++;
  if (p >= end || *p != '"') return NULL;
  const char *q = ++p;
  while (q < end && *q != '"' && *q != '\n') q += (*q == '\\' && q + 1 < end) ? 2 : 1;
  if (q >= end || *q != '"') return NULL;
  *len = (size_t)(q - p);
  return p;
}

/* Reads the leading markers: the first names the main file; GCC's second,
 * ending in "//", names the directory the preprocessor ran in. Returns
 * the main file's name as written (caller frees), or NULL. */
static char *fe_pp_scan(fe_pp *pp, const char *text, size_t size)
{
  const char *end = text + size, *p = text;
  char *main_name = NULL;
  for (int line = 0; line < 8 && p < end; line++) {
    size_t len;
    const char *name = fe_pp_marker_name(p, end, &len);
    if (name && !main_name) {
      main_name = xstrndup(name, len);
    } else if (name && len > 2 && !strncmp(name + len - 2, "//", 2) && name[0] == '/') {
      pp->base = xstrndup(name, len - 2);
      break;
    }
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    if (!nl) break;
    p = nl + 1;
  }
  return main_name;
}

/* A marker's name as an absolute path, resolved as the compile would have:
 * against the working-directory marker, else against the compile directory
 * if the file is there, else kept as written (a build farm's server has
 * neither the client's directory nor its files). Symlinks are resolved
 * when the file exists here, as libclang resolves them for `infer`. */
static char *fe_pp_resolve(const fe_pp *pp, const char *name)
{
  if (name[0] == '<') return xstrdup(name);   /* <built-in>, <command-line> */
  char *abs = NULL;
  if (name[0] == '/') abs = cdb_abspath("/", name);
  else if (pp->base) abs = cdb_abspath(pp->base, name);
  else {
    abs = cdb_abspath(pp->dir, name);
    if (access(abs, F_OK) != 0) { free(abs); return xstrdup(name); }
  }
  char *real = realpath(abs, NULL);
  if (real) { free(abs); return real; }
  return abs;
}

static uint32_t fe_pp_name_id(fe_tu *t, const char *name)
{
  fe_pp *pp = t->pp;
  uint32_t raw = strtab_intern(pp->raw, name);
  while (pp->ids.n <= raw) vec_push(&pp->ids, 0);
  if (!pp->ids.v[raw]) {
    char *path = fe_pp_resolve(pp, name);
    pp->ids.v[raw] = strtab_intern(t->sum->strs, path);
    free(path);
  }
  return pp->ids.v[raw];
}

void fe_pp_start(fe_tu *t, const fe_job *job)
{
  fe_pp *pp = xcalloc(1, sizeof *pp);
  pp->dir = xstrdup(job->dir);
  pp->raw = strtab_new();
  t->pp = pp;
  size_t size = 0;
  CXFile main_file = clang_getFile(t->tu, job->file);   /* not fe_file_text: text.c calls here */
  const char *text = main_file ? clang_getFileContents(t->tu, main_file, &size) : NULL;
  char *main_name = text ? fe_pp_scan(pp, text, size) : NULL;
  if (main_name) t->sum->main_file = fe_pp_name_id(t, main_name);
  free(main_name);
}

sum_loc fe_pp_loc(fe_tu *t, CXSourceLocation l)
{
  CXString name;
  unsigned line, col;
  clang_getPresumedLocation(l, &name, &line, &col);
  const char *s = clang_getCString(name);
  sum_loc loc = { s && *s ? fe_pp_name_id(t, s) : 0, line, col };
  clang_disposeString(name);
  return loc;
}

void fe_pp_free(fe_pp *pp)
{
  if (!pp) return;
  free(pp->base);
  free(pp->dir);
  strtab_free(pp->raw);
  vec_free(&pp->ids);
  free(pp);
}

int fe_pp_from_library(const char *text)
{
  for (const char *p = text; *p; p++) {
    int starts = p == text || !(isalnum((unsigned char)p[-1]) || p[-1] == '_');
    if (starts && p[0] == '_' && (p[1] == '_' || isupper((unsigned char)p[1]))) return 1;
  }
  return 0;
}
