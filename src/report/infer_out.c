/* infer_out.c — see infer_out.h. */
#include "report/infer_out.h"
#include "report/reason.h"
#include <jansson.h>
#include <string.h>

static int infer_cmp(const void *a, const void *b, void *ctx)
{
  const link_prog *p = ctx;
  const link_func *x = &p->funcs.v[*(const uint32_t *)a];
  const link_func *y = &p->funcs.v[*(const uint32_t *)b];
  int c = strcmp(strtab_get(p->strs, x->loc.file), strtab_get(p->strs, y->loc.file));
  if (c) return c;
  if (x->loc.line != y->loc.line) return x->loc.line < y->loc.line ? -1 : 1;
  return strcmp(strtab_get(p->strs, x->name), strtab_get(p->strs, y->name));
}

uint32_t *infer_listed(const link_prog *p, const char *root, size_t *n)
{
  uint32_t *v = xmalloc((p->funcs.n ? p->funcs.n : 1) * sizeof *v);
  size_t k = 0;
  for (size_t i = 0; i < p->funcs.n; i++) {
    const link_func *f = &p->funcs.v[i];
    if ((f->flags & SFF_BODY) && !(f->flags & SFF_SYSTEM)) v[k++] = (uint32_t)i;
  }
  qsort_r(v, k, sizeof *v, infer_cmp, (void *)p);
  *n = k;
  return v;
}

static const char *declared_name(uint8_t d)
{
  return (d & SUM_DECL_CONST) ? "const" : (d & SUM_DECL_PURE) ? "pure" : "none";
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
  if (f->declared) sb_printf(b, ", declared %s", declared_name(f->declared));
  sb_puts(b, " — ");
  reason_class(b, p, f, root);
  sb_puts(b, "\n");
}

static json_t *infer_json_func(const link_prog *p, const link_func *f, const char *root)
{
  strbuf path = {0}, why = {0}, mnr = {0};
  reason_path(&path, p, f->loc.file, root);
  reason_class(&why, p, f, root);
  json_t *o = json_object();
  json_object_set_new(o, "name", json_string(strtab_get(p->strs, f->name)));
  json_object_set_new(o, "file", json_string(sb_str(&path)));
  json_object_set_new(o, "line", json_integer(f->loc.line));
  json_object_set_new(o, "column", json_integer(f->loc.col));
  json_object_set_new(o, "linkage", json_string(f->linkage == SUM_INTERNAL ? "internal" : "external"));
  json_object_set_new(o, "class", json_string(purity_name((purity)f->cls)));
  json_object_set_new(o, "declared", json_string(declared_name(f->declared)));
  json_object_set_new(o, "may_not_return", json_boolean(f->st.mnr));
  json_object_set_new(o, "reason", json_string(sb_str(&why)));
  if (f->st.mnr) {
    reason_mnr(&mnr, p, f, root);
    json_object_set_new(o, "may_not_return_reason", json_string(sb_str(&mnr)));
  }
  sb_free(&path);
  sb_free(&why);
  sb_free(&mnr);
  return o;
}

int infer_print(FILE *out, const link_prog *p, const char *root, out_format fmt)
{
  size_t n;
  uint32_t *list = infer_listed(p, root, &n);
  int rc = 0;
  if (fmt == FMT_JSON) {
    /* Streamed, one function per line: a tree of a million functions would
     * cost more memory than the whole analysis. */
    fputs("{\n  \"version\": 1,\n  \"functions\": [", out);
    char *buf = xmalloc(4096);
    size_t cap = 4096;
    for (size_t i = 0; i < n && rc == 0; i++) {
      json_t *o = infer_json_func(p, &p->funcs.v[list[i]], root);
      /* Encoded into memory, written in one go: jansson's stream encoder
       * makes a stdio call per token. */
      size_t len = json_dumpb(o, buf, cap, JSON_PRESERVE_ORDER);
      if (len > cap) {
        buf = xrealloc(buf, cap = len * 2);
        len = json_dumpb(o, buf, cap, JSON_PRESERVE_ORDER);
      }
      json_decref(o);
      fputs(i ? ",\n    " : "\n    ", out);
      if (len == 0 || fwrite(buf, 1, len, out) != len) rc = -1;
    }
    free(buf);
    fputs(n ? "\n  ]\n}\n" : "]\n}\n", out);
  } else {
    strbuf b = {0};
    for (size_t i = 0; i < n; i++) {
      sb_clear(&b);
      infer_line(&b, p, &p->funcs.v[list[i]], root);
      fputs(sb_str(&b), out);
    }
    sb_free(&b);
  }
  free(list);
  return ferror(out) ? -1 : rc;
}
