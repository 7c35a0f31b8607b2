/* html_source.c — the source lines around a finding, for the page.
 *
 * Files are read once each and kept with the offsets of their lines. The
 * lines go into the page's JSON as strings: escaping them for HTML is the
 * page's business (it sets them with textContent). */
#include "report/html_internal.h"
#include "report/diag_out.h"
#include "util/fileio.h"
#include "util/ptrmap.h"
#include <string.h>
#include <sys/stat.h>

/* Longer lines are cut: a minified or generated line must not bloat the
 * page. Larger files are not read at all. */
enum { HTML_SRC_MAX_LINE = 400, HTML_SRC_MAX_FILE = 32 << 20 };

typedef struct {
  char *text;            /* NULL: could not be read */
  VEC(uint32_t) lines;   /* offset of each line's first byte */
} html_src_file;

struct html_src_cache {
  strtab *paths;         /* path -> id */
  ptrmap index;          /* id + 1 -> position in files */
  VEC(html_src_file) files;
};

html_src_cache *html_src_cache_new(void)
{
  html_src_cache *c = xcalloc(1, sizeof *c);
  c->paths = strtab_new();
  return c;
}

void html_src_cache_free(html_src_cache *c)
{
  if (!c) return;
  for (size_t i = 0; i < c->files.n; i++) {
    free(c->files.v[i].text);
    vec_free(&c->files.v[i].lines);
  }
  vec_free(&c->files);
  ptrmap_free(&c->index);
  strtab_free(c->paths);
  free(c);
}

/* Reads a regular file of reasonable size and finds its lines. */
static html_src_file html_src_read(const char *path)
{
  html_src_file f = {0};
  struct stat st;
  size_t len;
  if (stat(path, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size > HTML_SRC_MAX_FILE) return f;
  if (!(f.text = file_read_all(path, &len))) return f;
  vec_push(&f.lines, 0);
  for (size_t i = 0; i < len; i++)
    if (f.text[i] == '\n' && i + 1 < len) vec_push(&f.lines, (uint32_t)(i + 1));
  return f;
}

static html_src_file *html_src_get(html_src_cache *c, const char *path)
{
  uint32_t id = strtab_intern(c->paths, path);
  uint32_t *at = ptrmap_get(&c->index, (uint64_t)id + 1);
  if (at) return &c->files.v[*at];
  ptrmap_put(&c->index, (uint64_t)id + 1, (uint32_t)c->files.n);
  vec_push(&c->files, html_src_read(path));
  return &c->files.v[c->files.n - 1];
}

/* Line n (1-based) of f, without its newline, cut to the maximum. */
static json_t *html_src_line(const html_src_file *f, size_t n)
{
  const char *s = f->text + f->lines.v[n - 1];
  size_t len = strcspn(s, "\n");
  if (len && s[len - 1] == '\r') len--;
  if (len > HTML_SRC_MAX_LINE) len = HTML_SRC_MAX_LINE;
  char *cut = xstrndup(s, len);
  json_t *j = diag_json_str(cut);
  free(cut);
  return j;
}

json_t *html_src_lines(html_src_cache *c, const char *abs_path, unsigned line, unsigned around)
{
  if (!abs_path || !*abs_path || line == 0) return NULL;
  html_src_file *f = html_src_get(c, abs_path);
  if (!f->text || line > f->lines.n) return NULL;
  size_t first = line > around ? line - around : 1;
  size_t last = line + around < f->lines.n ? line + around : f->lines.n;
  json_t *lines = json_array();
  for (size_t n = first; n <= last; n++) json_array_append_new(lines, html_src_line(f, n));
  return json_pack("{s:I,s:o}", "first", (json_int_t)first, "lines", lines);
}
