/* fuzz_writers.c — the JSON, SARIF and HTML writers fed arbitrary names.
 *
 * The input is split at NUL bytes into names: file, function, global and
 * message texts of a small synthetic program and of its findings. Each
 * writer's output must parse as JSON (infer --format=json, check
 * --format=json, SARIF, the HTML page's data block), and the HTML page
 * must stay inert: its data block holds no '<', '>' or '&' and the page
 * has as many <script elements as the template alone. Every name must
 * come back out of the JSON exactly, through textenc's decoding
 * (docs/file-names.md). */
#include "fuzz_util.h"
#include "kb/kb.h"
#include "link/link.h"
#include "report/diag_out.h"
#include "report/html.h"
#include "report/infer_out.h"
#include "util/textenc.h"
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#define FUZZ_NAMES 6

static kb *fuzz_kb;

/* Splits data at NUL bytes into n names (missing ones are "x"). */
static void fuzz_names(const uint8_t *data, size_t size, char **names, int n)
{
  size_t pos = 0;
  for (int i = 0; i < n; i++) {
    size_t end = pos;
    while (end < size && data[end]) end++;
    names[i] = pos < size ? fuzz_cstr(data + pos, end - pos) : fuzz_cstr((const uint8_t *)"x", 1);
    pos = end < size ? end + 1 : size;
  }
}

/* Two functions in file names[0]: names[1] reads global names[3] and
 * calls names[2]. */
static link_prog *fuzz_prog(char **names)
{
  sum_tu *tu = summary_new();
  uint32_t file = strtab_intern(tu->strs, names[0]);
  tu->main_file = file;
  for (int i = 0; i < 2; i++) {
    sum_func f = {0};
    f.name = strtab_intern(tu->strs, names[1 + i]);
    f.loc = (sum_loc){ file, 3 + (uint32_t)i, 1 };
    f.flags = SFF_BODY;
    f.eff_off = (uint32_t)tu->effs.n;
    f.call_off = (uint32_t)tu->calls.n;
    if (i == 0) {
      sum_effect e = {0};
      e.kind = SE_READ_GLOBAL;
      e.obj = SO_GLOBAL;
      e.name = strtab_intern(tu->strs, names[3]);
      e.loc = (sum_loc){ file, 4, 5 };
      vec_push(&tu->effs, e);
      sum_call c = {0};
      c.callee = 1;
      c.loc = (sum_loc){ file, 5, 3 };
      c.eff_pos = 1;
      vec_push(&tu->calls, c);
      f.neff = 1;
      f.ncall = 1;
    }
    vec_push(&tu->funcs, f);
  }
  link_prog *p = link_new(fuzz_kb, false);
  link_add(p, tu);
  link_solve(p);
  summary_free(tu);
  return p;
}

static void fuzz_findings(char **names, diag_list *l)
{
  /* abs_file names no file, so no writer reads an arbitrary path. */
  char *abs = malloc(strlen(fuzz_tmpdir()) + 8);
  strcpy(abs, fuzz_tmpdir());
  strcat(abs, "/nosuch");
  diag *d = diag_add(l, "misuse", DIAG_WARNING, names[0], abs, 3, 1, names[1], names[4]);
  diag_add_related(d, names[5], abs, 4, 5, names[4]);
  diag_add(l, "suggest-pure", DIAG_NOTE, names[5], abs, 9, 2, names[2], names[1]);
  free(abs);
}

/* Does the JSON value v hold a string that textenc decodes to want? */
static int fuzz_json_has(const json_t *v, const char *want)
{
  if (json_is_string(v)) {
    char *raw = textenc_json_decode(json_string_value(v), json_string_length(v));
    int eq = raw && strcmp(raw, want) == 0;
    free(raw);
    return eq;
  }
  size_t i;
  const char *k;
  json_t *x;
  if (json_is_array(v)) json_array_foreach(v, i, x) if (fuzz_json_has(x, want)) return 1;
  if (json_is_object(v)) json_object_foreach((json_t *)v, k, x) if (fuzz_json_has(x, want)) return 1;
  return 0;
}

/* The output must parse; a name that must appear must come back whole. */
static json_t *fuzz_parse(const char *buf, size_t len, const char *must)
{
  json_error_t je;
  json_t *j = json_loadb(buf, len, 0, &je);
  if (!j) {
    fprintf(stderr, "output does not parse: %s (line %d)\n", je.text, je.line);
    abort();
  }
  if (must && !fuzz_json_has(j, must)) {
    fprintf(stderr, "a name is lost in the output\n");
    abort();
  }
  return j;
}

static void fuzz_html(const link_prog *p, const diag_list *l, const char *fname)
{
  static int scripts_expected = -1;
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  html_opts o = { .root = "/p", .tool_version = "fuzz", .findings = l, .max_bytes = 1 << 24 };
  if (html_write(f, p, &o) != 0) abort();
  fclose(f);
  const char *open = strstr(buf, "<script type=\"application/json\"");
  const char *start = open ? strchr(open, '>') : NULL;
  const char *end = start ? strstr(start, "</script>") : NULL;
  if (!end) abort();
  for (const char *c = start + 1; c < end; c++)
    if (*c == '<' || *c == '>' || *c == '&') abort();
  json_decref(fuzz_parse(start + 1, (size_t)(end - start - 1), fname));
  int scripts = 0;
  for (const char *c = buf; (c = strstr(c, "<script")); c++) scripts++;
  if (scripts_expected < 0) scripts_expected = scripts;
  if (scripts != scripts_expected) abort();
  free(buf);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
  char *err = NULL;
  fuzz_kb = kb_new();
  if (kb_load_builtin(fuzz_kb, &err) != 0) abort();
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  char *names[FUZZ_NAMES];
  fuzz_names(data, size, names, FUZZ_NAMES);
  link_prog *p = fuzz_prog(names);
  diag_list l = {0};
  fuzz_findings(names, &l);
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  if (infer_print(f, p, "/p", FMT_JSON, NULL) != 0) abort();
  fclose(f);
  json_decref(fuzz_parse(buf, len, names[1]));
  free(buf);
  f = open_memstream(&buf, &len);
  if (diag_print_json(f, &l, NULL) != 0) abort();
  fclose(f);
  json_decref(fuzz_parse(buf, len, names[4]));
  free(buf);
  f = open_memstream(&buf, &len);
  if (diag_print_sarif(f, &l, "/p", "fuzz", NULL) != 0) abort();
  fclose(f);
  json_decref(fuzz_parse(buf, len, names[4]));
  free(buf);
  fuzz_html(p, &l, names[1]);
  diag_list_free(&l);
  link_free(p);
  for (int i = 0; i < FUZZ_NAMES; i++) free(names[i]);
  return 0;
}
