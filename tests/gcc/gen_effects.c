/* gen_effects.c — writes a C translation unit of small functions that
 * combine the forms purity depends on, for the differential test against
 * GCC's own verdicts (tests/gcc/differential.sh).
 *
 *   usage: gen_effects SEED [NFUNCS]     (the program on stdout)
 *
 * Every function has one signature, so any may call any other; what
 * varies is how each parameter is declared (a pointer, an array, an array
 * with a size, [static 1], a 2-D array or a pointer to rows) and what the
 * body does: reads and writes through the parameters, through locals
 * derived from them, through truly local arrays and structs, of globals,
 * statics and const tables, of fields and union members, after casts,
 * pointer arithmetic, ?:, ++ and --, with library calls (memcpy, memset,
 * strlen, abs) and calls of other generated functions, in loops. The same
 * SEED writes the same program; names carry the seed, so several programs
 * can be analysed in one run. */
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>

static uint64_t rng;

static unsigned pick(unsigned n)
{
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return (unsigned)(rng % n);
}

static unsigned seed_id;
static unsigned nfuncs;

/* What the function being written passes to calls: a pointer to its own
 * locals or to read-only data (tracked_args), and which generated
 * functions it calls. */
static int tracked_args;
static unsigned char *calls;

/* ---- pointer expressions: where an `int *` points ---- */

enum origin { O_PARAM, O_LOCAL, O_GLOBAL, O_RODATA };

/* An `int *` expression with the given origin, written to out. Parameter
 * forms: p (int *, any declarator), a (int [] / [4] / [static 1]), m
 * (2-D), sp (struct), u (union), q (a local derived from a parameter).
 * Local forms: buf (int[8]), ls (a local struct), lu (a local union), r
 * (a local pointer derived from buf). */
static void ptr_expr(enum origin o, char *out, size_t n)
{
  unsigned k = pick(2);   /* every access stays inside its object */
  switch (o) {
  case O_PARAM: {
    static const char *const forms[] = {
      "p", "p + %u", "&p[%u]", "(int *)(void *)(a + %u)", "a + %u", "&a[%u]",
      "(x ? p : a + %u)", "*(m + %u)", "m[%u]", "sp->b + %u", "&sp->a", "&(sp + %u)->a",
      "u->i + %u", "q + %u", "(int *)(char *)p + %u", "&*(a + %u)",
    };
    snprintf(out, n, forms[pick(sizeof forms / sizeof *forms)], k);
    return;
  }
  case O_LOCAL: {
    static const char *const forms[] = {
      "buf", "buf + %u", "&buf[%u]", "r + %u", "ls.b + %u", "&ls.a", "lu.i + %u",
      "(x ? buf : buf + %u)", "(int *)(void *)(buf + %u)", "*(lm + %u)",
    };
    snprintf(out, n, forms[pick(sizeof forms / sizeof *forms)], k);
    return;
  }
  case O_GLOBAL: {
    static const char *const forms[] = {
      "g%u_arr + %u", "&g%u_val", "g%u_st.b + %u", "s%u_arr + %u", "&s%u_val", "g%u_ptr",
    };
    snprintf(out, n, forms[pick(sizeof forms / sizeof *forms)], seed_id, k);
    return;
  }
  case O_RODATA:
    snprintf(out, n, pick(2) ? "(int *)k%u_tab + %u" : "(int *)&k%u_tab[%u]", seed_id, k);
    return;
  }
}

static enum origin any_origin(int writable)
{
  for (;;) {
    enum origin o = (enum origin)pick(4);
    if (!(writable && o == O_RODATA)) return o;
  }
}

/* ---- statements ---- */

static void stmt_write(void)
{
  char p[96], p2[96];
  enum origin o = any_origin(1), o2 = any_origin(0);
  ptr_expr(o, p, sizeof p);
  ptr_expr(o2, p2, sizeof p2);
  unsigned form = pick(7);
  if ((form == 4 || form == 5) && o == O_LOCAL) tracked_args = 1;
  if (form == 4 && (o2 == O_LOCAL || o2 == O_RODATA)) tracked_args = 1;
  switch (form) {
  case 0: printf("  *(%s) = x;\n", p); break;
  case 1: printf("  (%s)[1] = acc;\n", p); break;
  case 2: printf("  (*(%s))++;\n", p); break;
  case 3: printf("  --*(%s);\n", p); break;
  case 4: printf("  memcpy(%s, %s, sizeof(int));\n", p, p2); break;
  case 5: printf("  memset(%s, 0, sizeof(int));\n", p); break;
  default: printf("  *(%s) += acc;\n", p); break;
  }
}

static void stmt_read(void)
{
  char p[96];
  enum origin o = any_origin(0);
  ptr_expr(o, p, sizeof p);
  unsigned form = pick(3);
  if (form == 2 && (o == O_LOCAL || o == O_RODATA)) tracked_args = 1;
  switch (form) {
  case 0: printf("  acc += *(%s);\n", p); break;
  case 1: printf("  acc ^= (%s)[2];\n", p); break;
  default: printf("  acc += (int)strlen((const char *)(%s));\n", p); break;
  }
}

static void stmt_scalar(void)
{
  switch (pick(8)) {
  case 0: printf("  acc += g%u_val;\n", seed_id); break;
  case 1: printf("  g%u_val = acc;\n", seed_id); break;
  case 2: printf("  acc += s%u_val;\n", seed_id); break;
  case 3: printf("  s%u_val += x;\n", seed_id); break;
  case 4: printf("  acc += k%u_tab[x & 3];\n", seed_id); break;
  case 5: printf("  acc = abs(acc - x);\n"); break;
  case 6: printf("  acc += g%u_st.a;\n", seed_id); break;
  default: printf("  acc = acc * 3 + x;\n"); break;
  }
}

/* A call of another generated function, with the caller's parameters or
 * with pointers to its locals. */
static void stmt_call(unsigned self)
{
  unsigned callee = pick(nfuncs);
  if (callee == self) callee = (callee + 1) % nfuncs;
  calls[callee] = 1;
  if (pick(2))
    printf("  acc += g%u_f%u(x + 1, p, a, m, sp, u);\n", seed_id, callee);
  else {
    printf("  acc += g%u_f%u(acc, buf, buf + 2, lm, &ls, &lu);\n", seed_id, callee);
    tracked_args = 1;
  }
}

static void stmt_loop(unsigned self)
{
  printf("  for (int i = 0; i < (x & 3); i++) {\n  ");
  switch (pick(3)) {
  case 0: stmt_write(); break;
  case 1: stmt_read(); break;
  default: stmt_call(self); break;
  }
  printf("  }\n");
}

/* ---- functions ---- */

static const char *decl_p(void)
{
  static const char *const d[] = { "int *p", "int p[]", "int p[4]", "int p[static 1]" };
  return d[pick(4)];
}

static const char *decl_a(void)
{
  static const char *const d[] = { "int a[]", "int a[8]", "int *a", "int a[static 2]" };
  return d[pick(4)];
}

static const char *decl_m(void)
{
  return pick(2) ? "int m[][4]" : "int (*m)[4]";
}

static const char *decl_sp(void)
{
  return pick(2) ? "struct g%u_s *sp" : "struct g%u_s sp[]";
}

static void signature(unsigned i, int proto)
{
  printf("%sint g%u_f%u(int x, %s, %s, %s, ", i % 5 == 4 ? "static " : "", seed_id, i,
         proto ? "int *p" : decl_p(), proto ? "int a[]" : decl_a(), proto ? "int m[][4]" : decl_m());
  printf(proto ? "struct g%u_s *sp" : decl_sp(), seed_id);
  printf(", union g%u_u *u)", seed_id);
}

/* After each function, what differential.sh needs to know of it:
 *   // differential: NAME [tracked-args] calls NAME...
 * tracked-args: it passes pointers to its own locals or to read-only data
 * to a call (memcpy, memset, strlen or a generated function); purist
 * follows where those pointers point at each call, GCC's pure-const pass
 * does not. */
static void function(unsigned i)
{
  tracked_args = 0;
  for (unsigned j = 0; j < nfuncs; j++) calls[j] = 0;
  signature(i, 0);
  printf("\n{\n  int acc = x, buf[8] = {0}, lm[2][4] = {{0}};\n");
  printf("  struct g%u_s ls = {0};\n  union g%u_u lu = {0};\n", seed_id, seed_id);
  printf("  int *q = a + 1, *r = buf + 1;\n");
  printf("  (void)q; (void)r; (void)lm; (void)ls; (void)lu;\n");
  unsigned n = 1 + pick(4);
  for (unsigned s = 0; s < n; s++) {
    switch (pick(10)) {
    case 0: case 1: case 2: stmt_write(); break;
    case 3: case 4: stmt_read(); break;
    case 5: case 6: stmt_scalar(); break;
    case 7: case 8: if (nfuncs > 1) { stmt_call(i); break; } /* fall through */
    default: stmt_loop(i); break;
    }
  }
  printf("  return acc + buf[1] + ls.a + lu.i[0] + lm[1][1];\n}\n");
  printf("// differential: g%u_f%u%s calls", seed_id, i, tracked_args ? " tracked-args" : "");
  for (unsigned j = 0; j < nfuncs; j++)
    if (calls[j]) printf(" g%u_f%u", seed_id, j);
  printf("\n\n");
}

int main(int argc, char **argv)
{
  if (argc < 2 || argc > 3) {
    fprintf(stderr, "usage: gen_effects SEED [NFUNCS]\n");
    return 2;
  }
  seed_id = (unsigned)strtoul(argv[1], NULL, 10);
  nfuncs = argc > 2 ? (unsigned)strtoul(argv[2], NULL, 10) : 12;
  if (nfuncs == 0 || nfuncs > 1000) {
    fprintf(stderr, "gen_effects: NFUNCS must be 1..1000\n");
    return 2;
  }
  calls = calloc(nfuncs, 1);
  if (!calls) return 1;
  rng = 0x9e3779b97f4a7c15ull ^ ((uint64_t)seed_id * 0xbf58476d1ce4e5b9ull);
  if (!rng) rng = 1;
  printf("/* written by tests/gcc/gen_effects %u %u */\n", seed_id, nfuncs);
  printf("#include <string.h>\n#include <stdlib.h>\n\n");
  printf("struct g%u_s { int a; int b[4]; };\nunion g%u_u { int i[4]; unsigned char c[16]; };\n", seed_id, seed_id);
  printf("int g%u_val, g%u_arr[8];\nstruct g%u_s g%u_st;\nint *g%u_ptr = g%u_arr;\n", seed_id, seed_id, seed_id, seed_id, seed_id, seed_id);
  printf("static int s%u_val, s%u_arr[8];\nconst int k%u_tab[8] = {1, 2, 3, 4, 5, 6, 7, 8};\n\n", seed_id, seed_id, seed_id);
  /* Statics written somewhere, so that GCC cannot take them for read-only. */
  printf("void g%u_touch(int v) { s%u_val = v; s%u_arr[v & 7] = v; }\n\n", seed_id, seed_id, seed_id);
  for (unsigned i = 0; i < nfuncs; i++) {
    signature(i, 1);
    printf(";\n");
  }
  printf("\n");
  for (unsigned i = 0; i < nfuncs; i++) function(i);
  free(calls);
  return 0;
}
