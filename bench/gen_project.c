/* gen_project.c — writes a synthetic C project for benchmarking purist.
 *
 *   gen_project DIR NTU NFUNC_PER_TU SEED
 *
 * writes DIR/src/tu0.c … tu<NTU-1>.c, DIR/include/common.h, one header per
 * TU (DIR/include/tuN.h, the prototypes of its external functions) and
 * DIR/compile_commands.json ("arguments" form, absolute paths).
 *
 * The code is meant to look like an ordinary C project to a compiler and to
 * purist: every TU includes <stdio.h>, <string.h>, <stdlib.h>, common.h
 * (types, extern globals, two static inline helpers) and the headers of a
 * few other TUs whose functions it calls. Functions come in kinds
 * (arithmetic, loops over arrays, readers and writers of globals and
 * file statics, libc string work, struct pointer parameters, allocation,
 * self-recursion). Calls go mostly to earlier functions of the same TU,
 * some to other TUs' external functions, a few forward (through the static
 * prototypes at the top of the file) so that mutual recursion appears.
 *
 * The output depends only on the arguments, and compiles without a warning
 * with clang -std=c11 -Wall -Wextra -fsyntax-only. */
#ifndef _GNU_SOURCE
#define _XOPEN_SOURCE 700   /* open_memstream, realpath, mkdir */
#endif
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* ---- deterministic random numbers (splitmix64) ---- */

typedef struct { uint64_t s; } rng;

static uint64_t rng_next(rng *r)
{
  uint64_t z = (r->s += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

/* Uniform in [0, n). */
static unsigned rng_below(rng *r, unsigned n)
{
  return n ? (unsigned)(rng_next(r) % n) : 0;
}

/* True with probability pct/100. */
static int rng_pct(rng *r, unsigned pct)
{
  return rng_below(r, 100) < pct;
}

/* ---- the plan: kinds of functions, decided for all TUs first ---- */

/* Each kind fixes a signature (how callers call it) and a body shape. */
typedef enum {
  K_RESET,    /* void f(void): resets the TU's statics (function 0 of every TU) */
  K_ARITH,    /* int f(int a, int b): integer arithmetic only */
  K_LOOP,     /* long f(const int *arr, size_t n): sums an array */
  K_GREAD,    /* int f(int x): reads globals and file statics */
  K_GWRITE,   /* void f(int x): writes them */
  K_LIBC,     /* size_t f(const char *s): strlen, memcpy, printf */
  K_PTW,      /* void f(struct point *p, int d): writes through a pointer parameter */
  K_PTR,      /* int f(const struct point *p): reads through one */
  K_REC,      /* unsigned f(unsigned n): self-recursive */
  K_ALLOC,    /* int f(int n): malloc, fill, free */
  K_SCAN,     /* int f(const char *s): while loop over a string */
  K_NKINDS
} kind;

/* Relative frequency of each kind (K_RESET is placed by hand). */
static const unsigned kind_weight[K_NKINDS] = {
  [K_ARITH] = 22, [K_LOOP] = 12, [K_GREAD] = 10, [K_GWRITE] = 8, [K_LIBC] = 10,
  [K_PTW] = 8, [K_PTR] = 10, [K_REC] = 4, [K_ALLOC] = 5, [K_SCAN] = 6,
};

typedef struct {
  unsigned ntu, nfunc;
  unsigned char *kinds;   /* [tu * nfunc + i] */
  unsigned char *ext;     /* external linkage (else static) */
  unsigned char *attr;    /* 1: declared __attribute__((const)), 2: pure */
} plan;

static kind plan_pick_kind(rng *r)
{
  unsigned total = 0;
  for (int k = 0; k < K_NKINDS; k++) total += kind_weight[k];
  unsigned x = rng_below(r, total);
  for (int k = 0; k < K_NKINDS; k++) {
    if (x < kind_weight[k]) return (kind)k;
    x -= kind_weight[k];
  }
  return K_ARITH;
}

/* A third of the functions (every index divisible by 3) are external and may
 * be called from other TUs; statics no one calls become external later. */
static int plan_is_exported(unsigned i)
{
  return i % 3 == 0;
}

static void plan_make(plan *p, unsigned ntu, unsigned nfunc, uint64_t seed)
{
  p->ntu = ntu;
  p->nfunc = nfunc;
  size_t n = (size_t)ntu * nfunc;
  p->kinds = calloc(n, 1);
  p->ext = calloc(n, 1);
  p->attr = calloc(n, 1);
  if (!p->kinds || !p->ext || !p->attr) { perror("gen_project"); exit(1); }
  rng r = { seed * 0x2545F4914F6CDD1Dull + 1 };
  for (unsigned t = 0; t < ntu; t++)
    for (unsigned i = 0; i < nfunc; i++) {
      size_t at = (size_t)t * nfunc + i;
      p->kinds[at] = (unsigned char)(i == 0 ? K_RESET : plan_pick_kind(&r));
      p->ext[at] = (unsigned char)plan_is_exported(i);
      /* Now and then a header declares an attribute (rightly or not). */
      if (p->ext[at] && p->kinds[at] == K_ARITH && rng_pct(&r, 10)) p->attr[at] = 1;
      if (p->ext[at] && (p->kinds[at] == K_PTR || p->kinds[at] == K_GREAD) && rng_pct(&r, 10)) p->attr[at] = 2;
    }
}

static kind plan_kind(const plan *p, unsigned t, unsigned i) { return (kind)p->kinds[(size_t)t * p->nfunc + i]; }

/* ---- names and signatures ---- */

/* External functions carry their module in the name; statics reuse the same
 * names in every TU, as real projects' helpers do. */
static void func_name(char *buf, size_t len, const plan *p, unsigned t, unsigned i)
{
  if (p->ext[(size_t)t * p->nfunc + i]) snprintf(buf, len, "mod%u_fn%u", t, i);
  else snprintf(buf, len, "helper_%u", i);
}

static const char *kind_ret(kind k)
{
  switch (k) {
  case K_RESET: case K_GWRITE: case K_PTW: return "void";
  case K_LOOP: return "long";
  case K_LIBC: return "size_t";
  case K_REC: return "unsigned";
  default: return "int";
  }
}

static const char *kind_params(kind k)
{
  switch (k) {
  case K_RESET: return "void";
  case K_ARITH: return "int a, int b";
  case K_LOOP: return "const int *arr, size_t n";
  case K_GREAD: case K_GWRITE: return "int x";
  case K_LIBC: case K_SCAN: return "const char *s";
  case K_PTW: return "struct point *p, int d";
  case K_PTR: return "const struct point *p";
  case K_REC: return "unsigned n";
  case K_ALLOC: return "int n";
  default: return "void";
  }
}

static void write_proto(FILE *f, const plan *p, unsigned t, unsigned i, int is_static)
{
  char name[64];
  func_name(name, sizeof name, p, t, i);
  kind k = plan_kind(p, t, i);
  unsigned char a = p->attr[(size_t)t * p->nfunc + i];
  fprintf(f, "%s%s %s(%s)%s;\n", is_static ? "static " : "", kind_ret(k), name, kind_params(k),
          a == 1 ? " __attribute__((const))" : a == 2 ? " __attribute__((pure))" : "");
}

/* Locals a call may need, as a bit set. */
enum { L_BUF = 1, L_TEXT = 2, L_PT = 4 };

/* Writes one call statement to function (ct, ci) and returns the locals it uses. */
static unsigned write_call(FILE *f, const plan *p, unsigned ct, unsigned ci, rng *r)
{
  char name[64];
  func_name(name, sizeof name, p, ct, ci);
  unsigned k = rng_below(r, 97) + 3;
  if (rng_pct(r, 25)) fprintf(f, "  if (acc > %u)\n  ", k * 7);
  switch (plan_kind(p, ct, ci)) {
  case K_RESET: fprintf(f, "  %s();\n", name); return 0;
  case K_ARITH: fprintf(f, "  acc += %s(acc, %u);\n", name, k); return 0;
  case K_LOOP: fprintf(f, "  acc += (int)%s(buf, sizeof buf / sizeof buf[0]);\n", name); return L_BUF;
  case K_GREAD: fprintf(f, "  acc ^= %s(acc + %u);\n", name, k); return 0;
  case K_GWRITE: fprintf(f, "  %s(acc);\n", name); return 0;
  case K_LIBC: fprintf(f, "  acc += (int)%s(text);\n", name); return L_TEXT;
  case K_PTW: fprintf(f, "  %s(&pt, acc);\n", name); return L_PT;
  case K_PTR: fprintf(f, "  acc -= %s(&pt);\n", name); return L_PT;
  case K_REC: fprintf(f, "  acc += (int)%s((unsigned)acc & %uu);\n", name, k % 8 + 3); return 0;
  case K_ALLOC: fprintf(f, "  acc += %s(acc & %u);\n", name, k % 32 + 1); return 0;
  case K_SCAN: fprintf(f, "  acc += %s(text);\n", name); return L_TEXT;
  default: return 0;
  }
}

/* ---- one TU ---- */

typedef struct { unsigned t, i; } callee;

typedef struct {
  unsigned *imports;     /* TUs whose headers this TU includes */
  unsigned nimports;
  callee *calls;         /* all calls, function by function */
  unsigned *call_start;  /* [nfunc + 1] */
} tu_plan;

/* An exported function of TU t picked at random (never index 0, the reset). */
static unsigned pick_exported(const plan *p, rng *r)
{
  unsigned nexp = (p->nfunc + 2) / 3;
  if (nexp <= 1) return 0;
  return 3 * (1 + rng_below(r, nexp - 1));
}

/* Layers of kinds, as real code is layered (leaf utilities below, state and
 * I/O above): 0 touches only arguments, locals and memory its pointer
 * parameters reach; 1 also reads globals; 2 writes them, does I/O or
 * allocates. A function calls only functions of its layer or below. */
static int kind_level(kind k)
{
  switch (k) {
  case K_GREAD: return 1;
  case K_RESET: case K_GWRITE: case K_LIBC: case K_ALLOC: return 2;
  default: return 0;
  }
}

/* One callee for function i of TU t: mostly a nearby earlier function of
 * the same TU, sometimes another TU's external function, rarely a later one. */
static callee pick_callee(const plan *p, const tu_plan *tp, unsigned t, unsigned i, rng *r)
{
  unsigned nf = p->nfunc;
  callee ce = { t, 0 };
  if (tp->nimports && rng_pct(r, 12)) {
    ce.t = tp->imports[rng_below(r, tp->nimports)];
    ce.i = pick_exported(p, r);
  } else if (i + 1 < nf && rng_pct(r, 2)) {
    ce.i = i + 1 + rng_below(r, nf - i - 1);     /* forward: may close a cycle */
  } else {
    unsigned back = 1 + (rng_pct(r, 70) ? rng_below(r, 8) : rng_below(r, i));
    ce.i = back <= i ? i - back : 0;
  }
  return ce;
}

/* Decides the calls of every function of TU t; statics that end up with no
 * caller become external (so nothing is unused). */
static void tu_plan_make(tu_plan *tp, plan *p, unsigned t, rng *r)
{
  unsigned nf = p->nfunc;
  tp->nimports = p->ntu > 1 ? 2 + rng_below(r, 3) : 0;
  tp->imports = calloc(tp->nimports + 1, sizeof *tp->imports);
  for (unsigned m = 0; m < tp->nimports; m++) {
    unsigned o = rng_below(r, p->ntu - 1);
    o = o >= t ? o + 1 : o;                 /* never itself */
    for (unsigned q = 0; q < m; q++)
      if (tp->imports[q] == o) { o = UINT_MAX; break; }
    if (o == UINT_MAX) { tp->nimports--; m--; continue; }   /* already imported */
    tp->imports[m] = o;
  }
  tp->call_start = calloc(nf + 1, sizeof *tp->call_start);
  tp->calls = calloc((size_t)nf * 6 + 1, sizeof *tp->calls);
  unsigned char *called = calloc(nf + 1, 1);
  if (!tp->imports || !tp->call_start || !tp->calls || !called) { perror("gen_project"); exit(1); }
  unsigned nc = 0, oldest_uncalled = 1;
  for (unsigned i = 0; i < nf; i++) {
    tp->call_start[i] = nc;
    if (i == 0) continue;   /* the reset function calls nothing */
    int level = kind_level(plan_kind(p, t, i));
    unsigned want = 1 + rng_below(r, 5);
    for (unsigned c = 0; c < want; c++) {
      while (oldest_uncalled < i && (called[oldest_uncalled] || p->ext[(size_t)t * nf + oldest_uncalled]))
        oldest_uncalled++;
      callee ce = { t, 0 };
      if (c == 0 && oldest_uncalled < i &&
          kind_level(plan_kind(p, t, oldest_uncalled)) <= level) {
        ce.i = oldest_uncalled;                   /* keep statics used */
      } else {
        /* A few tries for a callee of a layer at or below, else no call. */
        int ok = 0;
        for (int tries = 0; tries < 8 && !ok; tries++) {
          ce = pick_callee(p, tp, t, i, r);
          ok = kind_level(plan_kind(p, ce.t, ce.i)) <= level;
        }
        if (!ok) continue;
      }
      if (ce.t == t && ce.i == i) continue;       /* self-calls only in K_REC */
      if (ce.t == t) called[ce.i] = 1;
      tp->calls[nc++] = ce;
    }
  }
  tp->call_start[nf] = nc;
  for (unsigned i = 0; i < nf; i++)
    if (!called[i]) p->ext[(size_t)t * nf + i] = 1;
  free(called);
}

static void tu_plan_free(tu_plan *tp)
{
  free(tp->imports);
  free(tp->calls);
  free(tp->call_start);
}

/* The body of function i of TU t; the calls are written where the kind's
 * shape leaves room for them. */
static void write_function(FILE *f, const plan *p, const tu_plan *tp, unsigned t, unsigned i, rng *r)
{
  kind k = plan_kind(p, t, i);
  char name[64];
  func_name(name, sizeof name, p, t, i);
  int is_static = !p->ext[(size_t)t * p->nfunc + i];
  unsigned c = rng_below(r, 90) + 7;

  /* The calls go to a buffer first: they decide which locals are needed. */
  char *calls = NULL;
  size_t calls_len = 0;
  FILE *cf = open_memstream(&calls, &calls_len);
  if (!cf) { perror("gen_project"); exit(1); }
  unsigned locals = 0;
  for (unsigned j = tp->call_start[i]; j < tp->call_start[i + 1]; j++)
    locals |= write_call(cf, p, tp->calls[j].t, tp->calls[j].i, r);
  if (rng_pct(r, 15)) fprintf(cf, "  acc = clamp_int(acc, -%u, %u);\n", c * 100, c * 100);
  if ((locals & L_TEXT) && rng_pct(r, 20)) fprintf(cf, "  acc += (int)bounded_len(text, sizeof text);\n");
  fclose(cf);

  fprintf(f, "\n/* %s: kind %d */\n%s%s %s(%s)\n{\n", name, (int)k, is_static ? "static " : "",
          kind_ret(k), name, kind_params(k));
  switch (k) {
  case K_RESET: fprintf(f, "  int acc = 0;\n"); break;
  case K_ARITH: fprintf(f, "  int acc = a * %u + (b ^ %u);\n", c, c * 3); break;
  case K_LOOP: fprintf(f, "  int acc = 0;\n"); break;
  case K_GREAD: case K_GWRITE: fprintf(f, "  int acc = x + %u;\n", c); break;
  case K_LIBC: fprintf(f, "  int acc = (int)s[0];\n"); break;
  case K_PTW: fprintf(f, "  int acc = d;\n"); break;
  case K_PTR: fprintf(f, "  int acc = p->x;\n"); break;
  case K_REC: fprintf(f, "  int acc = (int)(n * %uu);\n", c); break;
  case K_ALLOC: fprintf(f, "  int acc = n;\n"); break;
  case K_SCAN: fprintf(f, "  int acc = 0;\n"); break;
  default: break;
  }
  if (locals & L_BUF) fprintf(f, "  int buf[16] = { %u, %u, %u };\n", c, c + 1, c * 2);
  if (locals & L_TEXT) fprintf(f, "  char text[32] = \"item-%u\";\n", c);
  if (locals & L_PT) fprintf(f, "  struct point pt = { %u, %u };\n", c, c / 2);

  /* The kind's own work, before the calls. */
  switch (k) {
  case K_RESET:
    fprintf(f, "  s_state = 0;\n  memset(s_hist, 0, sizeof s_hist);\n  s_name = \"tu%u\";\n", t);
    break;
  case K_ARITH:
    fprintf(f, "  acc = (acc << %u) - (a >> 1) + b * %u;\n  if (acc < 0)\n    acc = -acc;\n",
            c % 5 + 1, c % 13 + 1);
    break;
  case K_LOOP:
    fprintf(f, "  for (size_t i = 0; i < n; i++)\n    acc += arr[i] * %u;\n", c % 9 + 1);
    break;
  case K_GREAD:
    fprintf(f, "  acc += g_table[(unsigned)acc %% 64u] + s_state * g_config.scale;\n"
               "  acc ^= s_hist[(unsigned)x %% 16u];\n");
    break;
  case K_GWRITE:
    fprintf(f, "  s_state += acc;\n  s_hist[(unsigned)acc %% 16u]++;\n  g_shared_counter++;\n");
    break;
  case K_LIBC:
    fprintf(f, "  char tmp[64];\n  size_t len = strlen(s);\n  if (len >= sizeof tmp)\n    len = sizeof tmp - 1;\n"
               "  memcpy(tmp, s, len);\n  tmp[len] = '\\0';\n  acc += (int)len;\n");
    break;
  case K_PTW:
    fprintf(f, "  p->x += acc;\n  p->y -= acc / %u;\n", c % 7 + 1);
    break;
  case K_PTR:
    fprintf(f, "  acc = acc * %u + p->y;\n", c % 11 + 1);
    break;
  case K_REC:
    fprintf(f, "  if (n < 2)\n    return n;\n  acc += (int)%s(n - 1);\n", name);
    break;
  case K_ALLOC:
    fprintf(f, "  if (n <= 0)\n    return 0;\n  int *v = malloc((size_t)n * sizeof *v);\n  if (!v)\n    return -1;\n"
               "  for (int i = 0; i < n; i++)\n    v[i] = i * %u;\n  acc = v[n - 1];\n  free(v);\n", c % 6 + 1);
    break;
  case K_SCAN:
    fprintf(f, "  while (*s) {\n    if (*s == '%c')\n      acc++;\n    s++;\n  }\n", 'a' + (int)(c % 26));
    break;
  default: break;
  }
  fwrite(calls, 1, calls_len, f);
  free(calls);

  /* … and after them. */
  switch (k) {
  case K_RESET: fprintf(f, "  s_state = acc;\n"); break;
  case K_LIBC: fprintf(f, "  if (acc == %u)\n    printf(\"%%s: %%d\\n\", tmp, acc);\n  return (size_t)acc;\n", c * 1000); break;
  case K_LOOP: fprintf(f, "  return (long)acc;\n"); break;
  case K_GWRITE: fprintf(f, "  s_state ^= acc;\n"); break;
  case K_PTW: fprintf(f, "  p->x ^= acc;\n"); break;
  case K_REC: fprintf(f, "  return (unsigned)acc;\n"); break;
  default: fprintf(f, "  return acc;\n"); break;
  }
  fprintf(f, "}\n");
}

static FILE *open_out(const char *dir, const char *sub, const char *name)
{
  char path[PATH_MAX + 128];
  snprintf(path, sizeof path, "%s/%s/%s", dir, sub, name);
  FILE *f = fopen(path, "w");
  if (!f) { fprintf(stderr, "gen_project: %s: %s\n", path, strerror(errno)); exit(1); }
  return f;
}

static void write_tu(const char *dir, plan *p, unsigned t, rng *r, unsigned long *nfuncs)
{
  tu_plan tp;
  tu_plan_make(&tp, p, t, r);
  unsigned nf = p->nfunc;
  char fname[64];

  /* The header: prototypes of the external functions. */
  snprintf(fname, sizeof fname, "tu%u.h", t);
  FILE *h = open_out(dir, "include", fname);
  fprintf(h, "/* tu%u.h — generated by gen_project */\n#ifndef GEN_TU%u_H\n#define GEN_TU%u_H\n"
             "#include <stddef.h>\n#include \"common.h\"\n\n", t, t, t);
  for (unsigned i = 0; i < nf; i++)
    if (p->ext[(size_t)t * nf + i]) write_proto(h, p, t, i, 0);
  fprintf(h, "const char *mod%u_name(void);\n\n#endif\n", t);
  fclose(h);

  snprintf(fname, sizeof fname, "tu%u.c", t);
  FILE *f = open_out(dir, "src", fname);
  fprintf(f, "/* tu%u.c — generated by gen_project */\n#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n"
             "#include \"common.h\"\n#include \"tu%u.h\"\n", t, t);
  for (unsigned m = 0; m < tp.nimports; m++) fprintf(f, "#include \"tu%u.h\"\n", tp.imports[m]);
  fprintf(f, "\nstatic int s_state;\nstatic int s_hist[16];\nstatic const char *s_name;\n\n");
  if (t == 0)
    fprintf(f, "int g_shared_counter;\nstruct config g_config = { 3, 0, \"bench\" };\n"
               "const int g_table[64] = { 1, 2, 3, 5, 8, 13, 21, 34, 55, 89 };\n\n");
  for (unsigned i = 0; i < nf; i++)
    if (!p->ext[(size_t)t * nf + i]) write_proto(f, p, t, i, 1);
  for (unsigned i = 0; i < nf; i++) write_function(f, p, &tp, t, i, r);
  fprintf(f, "\nconst char *mod%u_name(void)\n{\n  return s_name;\n}\n", t);
  fclose(f);
  *nfuncs += nf + 1;
  tu_plan_free(&tp);
}

static void write_common(const char *dir)
{
  FILE *h = open_out(dir, "include", "common.h");
  fputs("/* common.h — generated by gen_project: types, globals, helpers */\n"
        "#ifndef GEN_COMMON_H\n#define GEN_COMMON_H\n#include <stddef.h>\n\n"
        "struct point {\n  int x, y;\n};\n\n"
        "struct config {\n  int scale;\n  int verbose;\n  const char *name;\n};\n\n"
        "extern int g_shared_counter;\nextern struct config g_config;\nextern const int g_table[64];\n\n"
        "static inline int clamp_int(int v, int lo, int hi)\n{\n  return v < lo ? lo : v > hi ? hi : v;\n}\n\n"
        "static inline size_t bounded_len(const char *s, size_t max)\n{\n"
        "  size_t n = 0;\n  while (n < max && s[n])\n    n++;\n  return n;\n}\n\n"
        "#endif\n", h);
  fclose(h);
}

/* JSON string body for a path (paths here hold no control characters). */
static void json_str(FILE *f, const char *s)
{
  fputc('"', f);
  for (; *s; s++) {
    if (*s == '"' || *s == '\\') fputc('\\', f);
    fputc(*s, f);
  }
  fputc('"', f);
}

static void write_cdb(const char *dir, unsigned ntu)
{
  char path[PATH_MAX + 64];
  snprintf(path, sizeof path, "%s/compile_commands.json", dir);
  FILE *f = fopen(path, "w");
  if (!f) { fprintf(stderr, "gen_project: %s: %s\n", path, strerror(errno)); exit(1); }
  fputs("[\n", f);
  for (unsigned t = 0; t < ntu; t++) {
    char inc[PATH_MAX + 64], obj[PATH_MAX + 64], src[PATH_MAX + 64];
    snprintf(inc, sizeof inc, "-I%s/include", dir);
    snprintf(obj, sizeof obj, "%s/build/tu%u.o", dir, t);
    snprintf(src, sizeof src, "%s/src/tu%u.c", dir, t);
    fputs("  {\n    \"directory\": ", f); json_str(f, dir);
    fputs(",\n    \"arguments\": [\"cc\", \"-std=c11\", \"-O2\", \"-Wall\", \"-Wextra\", \"-DNDEBUG\", ", f);
    json_str(f, inc);
    fputs(", \"-c\", \"-o\", ", f); json_str(f, obj);
    fputs(", ", f); json_str(f, src);
    fputs("],\n    \"file\": ", f); json_str(f, src);
    fputs(",\n    \"output\": ", f); json_str(f, obj);
    fprintf(f, "\n  }%s\n", t + 1 < ntu ? "," : "");
  }
  fputs("]\n", f);
  if (fclose(f) != 0) { perror(path); exit(1); }
}

static void make_dir(const char *path)
{
  if (mkdir(path, 0777) != 0 && errno != EEXIST) {
    fprintf(stderr, "gen_project: %s: %s\n", path, strerror(errno));
    exit(1);
  }
}

static unsigned long parse_num(const char *s, const char *what)
{
  char *end;
  errno = 0;
  unsigned long v = strtoul(s, &end, 10);
  if (errno || *end || end == s) {
    fprintf(stderr, "gen_project: %s: not a number: %s\n", what, s);
    exit(2);
  }
  return v;
}

int main(int argc, char **argv)
{
  if (argc != 5) {
    fprintf(stderr, "usage: gen_project DIR NTU NFUNC_PER_TU SEED\n");
    return 2;
  }
  unsigned long ntu = parse_num(argv[2], "NTU"), nf = parse_num(argv[3], "NFUNC_PER_TU");
  unsigned long seed = parse_num(argv[4], "SEED");
  if (ntu < 1 || ntu > 100000 || nf < 1 || nf > 100000) {
    fprintf(stderr, "gen_project: NTU and NFUNC_PER_TU must be in 1..100000\n");
    return 2;
  }
  make_dir(argv[1]);
  char dir[PATH_MAX];
  if (!realpath(argv[1], dir)) { perror(argv[1]); return 1; }
  char sub[PATH_MAX + 16];
  snprintf(sub, sizeof sub, "%s/src", dir); make_dir(sub);
  snprintf(sub, sizeof sub, "%s/include", dir); make_dir(sub);
  snprintf(sub, sizeof sub, "%s/build", dir); make_dir(sub);

  plan p;
  plan_make(&p, (unsigned)ntu, (unsigned)nf, seed);
  write_common(dir);
  unsigned long total = 0;
  for (unsigned t = 0; t < ntu; t++) {
    rng r = { seed ^ ((uint64_t)(t + 1) * 0xD1B54A32D192ED03ull) };
    write_tu(dir, &p, t, &r, &total);
  }
  write_cdb(dir, (unsigned)ntu);
  free(p.kinds);
  free(p.ext);
  free(p.attr);
  printf("%s: %lu TUs, %lu functions defined\n", dir, ntu, total);
  return 0;
}
