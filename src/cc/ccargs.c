/* ccargs.c — see ccargs.h. */
#include "cc/ccargs.h"
#include "frontend/cdb.h"
#include "util/fileio.h"
#include <string.h>
#include <unistd.h>

typedef VEC(char *) ccargs_words;

/* Driver options whose value is the next argument (GCC's and clang's). */
static bool ccargs_takes_value(const char *a)
{
  static const char *const v[] = {
    "-o", "-I", "-D", "-U", "-include", "-imacros", "-isystem", "-idirafter", "-iquote",
    "-iprefix", "-iwithprefix", "-iwithprefixbefore", "-isysroot", "-imultilib", "-x",
    "-MF", "-MT", "-MQ", "-MJ", "-Xpreprocessor", "-Xassembler", "-Xlinker", "-Xclang",
    "-L", "-l", "-aux-info", "-dumpbase", "-dumpbase-ext", "-dumpdir", "--param", "-T",
    "-u", "-z", "-e", "-A", "-B", "-target", "--sysroot", "-arch", "-G", NULL };
  for (int i = 0; v[i]; i++) if (!strcmp(a, v[i])) return true;
  return false;
}

/* Options that make the driver stop before an object: preprocess only,
 * assembly only, dependencies only, or a syntax check. */
static bool ccargs_no_object(const char *a)
{
  static const char *const v[] = { "-E", "-S", "-M", "-MM", "-fsyntax-only", NULL };
  for (int i = 0; v[i]; i++) if (!strcmp(a, v[i])) return true;
  return false;
}

static bool ccargs_is_wrapper(const char *a)
{
  const char *base = strrchr(a, '/');
  base = base ? base + 1 : a;
  return !strcmp(base, "ccache") || !strcmp(base, "distcc") || !strcmp(base, "icecc") ||
         !strcmp(base, "sccache");
}

/* Is this input C the driver compiles, given the -x in force (NULL: by
 * its suffix)? C++, assembly, headers (precompiled) and stdin are not. */
static bool ccargs_is_c(const char *file, const char *lang)
{
  if (!strcmp(file, "-")) return false;
  if (lang && strcmp(lang, "none") != 0) return !strcmp(lang, "c") || !strcmp(lang, "cpp-output");
  const char *dot = strrchr(file, '.');
  return dot && (!strcmp(dot, ".c") || !strcmp(dot, ".i"));
}

/* The driver's default object name: the basename, suffix replaced by .o. */
static char *ccargs_default_obj(const char *src)
{
  const char *base = strrchr(src, '/');
  base = base ? base + 1 : src;
  const char *dot = strrchr(base, '.');
  size_t stem = dot && dot != base ? (size_t)(dot - base) : strlen(base);
  return xasprintf("%.*s.o", (int)stem, base);
}

/* The arguments with @file response files replaced by their words,
 * nested ones too, with the parse's limits (frontend/cdb_rsp.c). One that
 * cannot be read (a FIFO, a device) stays a word: the compiler reports it. */
static void ccargs_expand(int argc, char *const *argv, ccargs_words *out)
{
  char cwd[4096];
  int n;
  char **words = cdb_expand_rsp(getcwd(cwd, sizeof cwd) ? cwd : "/", argv, argc, &n, NULL);
  for (int k = 0; k < n; k++) vec_push(out, words[k]);
  free(words);
}

typedef struct {
  bool compile, no_object;
  size_t inputs;           /* operands of any kind: none means no link (--version, -print-…) */
  const char *output, *lang;
  ccargs_words sources;
} ccargs_scan;

/* One argument at av[*i] (advancing past its value). */
static void ccargs_one(ccargs *out, ccargs_scan *s, char **av, size_t n, size_t *i)
{
  char *a = av[*i];
  if (a[0] != '-' || !a[1]) {
    s->inputs++;
    if (ccargs_is_c(a, s->lang)) vec_push(&s->sources, a);   /* other inputs: not ours */
    return;
  }
  vec_push(&out->flags, xstrdup(a));
  if (!strcmp(a, "-c")) s->compile = true;
  else if (ccargs_no_object(a)) s->no_object = true;
  else if (!strncmp(a, "-x", 2) && a[2]) s->lang = a + 2;
  if (ccargs_takes_value(a) && *i + 1 < n) {
    char *v = av[++*i];
    vec_push(&out->flags, xstrdup(v));
    if (!strcmp(a, "-o")) s->output = v;
    else if (!strcmp(a, "-x")) s->lang = v;
  }
}

/* Decides what is summarised once the whole line is read. */
static void ccargs_units(ccargs *out, ccargs_scan *s, const char *compiler)
{
  const char *base = strrchr(compiler, '/');
  base = base ? base + 1 : compiler;
  if (strstr(base, "++")) out->skip = "a C++ compiler";
  else if (!s->compile || s->no_object) out->skip = "not a compile to an object (-c)";
  else if (!s->sources.n) out->skip = "no C source among the inputs";
  else if (s->output && (s->sources.n > 1 || !strcmp(s->output, "-"))) out->skip = "-o with several sources, or to stdout";
  if (!s->compile && !s->no_object && s->inputs && (!s->output || strcmp(s->output, "-") != 0))
    out->linked = xstrdup(s->output ? s->output : "a.out");
  if (out->skip) return;
  for (size_t i = 0; i < s->sources.n; i++) {
    ccargs_unit u = { xstrdup(s->sources.v[i]),
                      s->output ? xstrdup(s->output) : ccargs_default_obj(s->sources.v[i]) };
    vec_push(&out->units, u);
  }
}

void ccargs_parse(int argc, char *const *argv, ccargs *out)
{
  memset(out, 0, sizeof *out);
  ccargs_words av = {0};
  ccargs_expand(argc, argv, &av);
  size_t i = 0;
  /* "ccache gcc …": wrappers, then the compiler; "distcc -c …" masquerades. */
  while (i + 1 < av.n && ccargs_is_wrapper(av.v[i]) && av.v[i + 1][0] != '-') i++;
  const char *compiler = i < av.n ? av.v[i] : "";
  ccargs_scan s = {0};
  for (i++; i < av.n; i++) ccargs_one(out, &s, av.v, av.n, &i);
  ccargs_units(out, &s, compiler);
  vec_free(&s.sources);
  for (i = 0; i < av.n; i++) free(av.v[i]);
  vec_free(&av);
}

void ccargs_free(ccargs *a)
{
  for (size_t i = 0; i < a->units.n; i++) {
    free(a->units.v[i].src);
    free(a->units.v[i].obj);
  }
  vec_free(&a->units);
  for (size_t i = 0; i < a->flags.n; i++) free(a->flags.v[i]);
  vec_free(&a->flags);
  free(a->linked);
}
