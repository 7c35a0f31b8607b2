/* infer_out.c — see infer_out.h. */
#include "report/infer_out.h"
#include "util/textenc.h"
#include "report/diag_out.h"
#include "report/reason.h"
#include "report/c23_reason.h"
#include <jansson.h>
#include <string.h>

typedef struct { const link_prog *p; const uint32_t *rank; } sort_ctx;

static int infer_cmp(const void *a, const void *b, void *ctx)
{
  const sort_ctx *c = ctx;
  const link_func *x = &c->p->funcs.v[*(const uint32_t *)a];
  const link_func *y = &c->p->funcs.v[*(const uint32_t *)b];
  if (x->loc.file != y->loc.file) return c->rank[x->loc.file] < c->rank[y->loc.file] ? -1 : 1;
  if (x->loc.line != y->loc.line) return x->loc.line < y->loc.line ? -1 : 1;
  return strcmp(strtab_get(c->p->strs, x->name), strtab_get(c->p->strs, y->name));
}

static int file_cmp(const void *a, const void *b, void *ctx)
{
  const link_prog *p = ctx;
  return strcmp(strtab_get(p->strs, *(const uint32_t *)a), strtab_get(p->strs, *(const uint32_t *)b));
}

/* rank[file id] = position of the file's path in sorted order, so the sort
 * of a million functions compares integers, not paths. */
static uint32_t *infer_file_ranks(const link_prog *p, const uint32_t *v, size_t k)
{
  uint32_t nstr = strtab_count(p->strs);
  uint32_t *rank = xcalloc(nstr ? nstr : 1, sizeof *rank);
  VEC(uint32_t) files = {0};
  for (size_t i = 0; i < k; i++) {
    uint32_t f = p->funcs.v[v[i]].loc.file;
    if (!rank[f]) { rank[f] = 1; vec_push(&files, f); }
  }
  if (files.n) qsort_r(files.v, files.n, sizeof *files.v, file_cmp, (void *)p);
  for (size_t i = 0; i < files.n; i++) rank[files.v[i]] = (uint32_t)i;
  vec_free(&files);
  return rank;
}

uint32_t *infer_listed(const link_prog *p, const char *root, size_t *n)
{
  uint32_t *v = xmalloc((p->funcs.n ? p->funcs.n : 1) * sizeof *v);
  size_t k = 0;
  for (size_t i = 0; i < p->funcs.n; i++) {
    const link_func *f = &p->funcs.v[i];
    if ((f->flags & SFF_BODY) && !(f->flags & SFF_SYSTEM)) v[k++] = (uint32_t)i;
  }
  sort_ctx ctx = { p, infer_file_ranks(p, v, k) };
  qsort_r(v, k, sizeof *v, infer_cmp, &ctx);
  free((void *)ctx.rank);
  *n = k;
  return v;
}

/* The GNU attribute if there is one, else the C23 one (issue 15): a
 * function may carry both; declared_c23 then names the C23 one. */
static const char *declared_name(uint8_t d)
{
  if (d & SUM_DECL_CONST) return "const";
  if (d & SUM_DECL_PURE) return "pure";
  return declared_c23_name(d);
}

static void infer_line(strbuf *b, const link_prog *p, const link_func *f, const char *root)
{
  reason_path(b, p, f->loc.file, root);
  sb_printf(b, ":%u: %s: %s", f->loc.line, strtab_get(p->strs, f->name), purity_name((purity)f->cls));
  if (f->st.mnr) {
    sb_puts(b, ", may not return (");
    reason_mnr(b, p, f, root);
    sb_puts(b, ")");
  }
  if (f->declared & SUM_DECL_GNU) sb_printf(b, ", declared %s", declared_name(f->declared));
  if (f->declared & SUM_DECL_C23) sb_printf(b, ", declared [[%s]]", declared_c23_name(f->declared));
  sb_puts(b, " — ");
  reason_class(b, p, f, root);
  sb_puts(b, "\n");
}

/* A JSON string. Printable ASCII without quotes or backslashes is its own
 * encoding; anything else is encoded by jansson (escaping and UTF-8
 * validation are the library's job). */
static void json_put_string(strbuf *b, const char *s)
{
  size_t n = 0;
  while (s[n] >= 0x20 && s[n] < 0x7f && s[n] != '"' && s[n] != '\\') n++;
  if (s[n] == '\0') {
    sb_puts(b, "\"");
    sb_puts(b, s);
    sb_puts(b, "\"");
    return;
  }
  json_t *j = diag_json_str(s);   /* textenc's rule for bytes that are not UTF-8 */
  char small[512];
  size_t len = j ? json_dumpb(j, small, sizeof small, JSON_ENCODE_ANY) : 0;
  if (len > 0 && len < sizeof small) {
    small[len] = '\0';
    sb_puts(b, small);
  } else if (j) {
    char *big = json_dumps(j, JSON_ENCODE_ANY);
    sb_puts(b, big ? big : "\"\"");
    free(big);
  } else {
    sb_puts(b, "\"\"");   /* out of memory */
  }
  json_decref(j);
}

/* One function as a JSON object on one line, keys in the contract's order.
 * Values from a fixed vocabulary (class, linkage…) need no escaping. */
static void infer_json_func(strbuf *b, const link_prog *p, const link_func *f, const char *root)
{
  strbuf tmp = {0};
  sb_puts(b, "{\"name\": ");
  json_put_string(b, strtab_get(p->strs, f->name));
  reason_path(&tmp, p, f->loc.file, root);
  sb_puts(b, ", \"file\": ");
  json_put_string(b, sb_str(&tmp));
  sb_printf(b, ", \"line\": %u, \"column\": %u, \"linkage\": \"%s\", \"class\": \"%s\", "
               "\"declared\": \"%s\", \"may_not_return\": %s, \"reason\": ",
            f->loc.line, f->loc.col, f->linkage == SUM_INTERNAL ? "internal" : "external",
            purity_name((purity)f->cls), declared_name(f->declared), f->st.mnr ? "true" : "false");
  sb_clear(&tmp);
  reason_class(&tmp, p, f, root);
  json_put_string(b, sb_str(&tmp));
  if (f->st.mnr) {
    sb_clear(&tmp);
    reason_mnr(&tmp, p, f, root);
    sb_puts(b, ", \"may_not_return_reason\": ");
    json_put_string(b, sb_str(&tmp));
  }
  sb_printf(b, ", \"declared_c23\": \"%s\"", declared_c23_name(f->declared));
  uint32_t fi = (uint32_t)(f - p->funcs.v);
  sb_printf(b, ", \"c23\": \"%s\", \"c23_reason\": ", c23_class_name((c23_class)p->c23[fi].cls));
  sb_clear(&tmp);
  c23_reason(&tmp, p, fi, root);
  json_put_string(b, sb_str(&tmp));
  sb_puts(b, "}");
  sb_free(&tmp);
}

int infer_print(FILE *out, const link_prog *p, const char *root, out_format fmt, const run_info *ri)
{
  return infer_print_some(out, p, root, fmt, NULL, NULL, ri);
}

int infer_print_some(FILE *out, const link_prog *p, const char *root, out_format fmt, infer_want_fn want,
                     const void *ctx, const run_info *ri)
{
  size_t n, k = 0;
  uint32_t *list = infer_listed(p, root, &n);
  for (size_t i = 0; i < n; i++)
    if (!want || want(ctx, strtab_get(p->strs, p->funcs.v[list[i]].loc.file))) list[k++] = list[i];
  n = k;
  int rc = 0;
  if (fmt == FMT_JSON) {
    /* Streamed, one function per line: a tree of a million functions would
     * cost more memory than the whole analysis. */
    fputs("{\n  \"version\": 1,\n  \"functions\": [", out);
    strbuf b = {0};
    for (size_t i = 0; i < n; i++) {
      sb_puts(&b, i ? ",\n    " : "\n    ");
      infer_json_func(&b, p, &p->funcs.v[list[i]], root);
      if (b.n > (1 << 16)) { fwrite(b.s, 1, b.n, out); sb_clear(&b); }
    }
    fwrite(sb_str(&b), 1, b.n, out);
    sb_free(&b);
    fputs(n ? "\n  ]" : "]", out);
    rc = run_info_print_json(out, ri);
    fputs("\n}\n", out);
  } else {
    strbuf b = {0};
    for (size_t i = 0; i < n; i++) {
      sb_clear(&b);
      infer_line(&b, p, &p->funcs.v[list[i]], root);
      size_t n = b.n && b.s[b.n - 1] == '\n' ? b.n - 1 : b.n;
      textenc_put_text(out, sb_str(&b), n, 1);   /* control characters in names escaped */
      if (n < b.n) fputc('\n', out);
    }
    sb_free(&b);
  }
  free(list);
  return ferror(out) ? -1 : rc;
}
