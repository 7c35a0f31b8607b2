/* asmscan.c — see asmscan.h. One pass over the lines; no allocation but
 * the function names. */
#include "impact/asmscan.h"
#include "util/strtab.h"
#include <ctype.h>
#include <stdbool.h>
#include <string.h>

typedef struct {
  strtab *funcs;      /* symbols declared with .type …, @function */
  strtab *bases;      /* C names seen; id i (from 1: id 0 is "") is out->v[first + i - 1] */
  size_t first;
  asmscan_fns *out;
  long cur;           /* index in out of the function being read, or -1 */
  const char *cur_sym;   /* its symbol as written, and its length */
  size_t cur_len;
} asmscan_state;

static bool asmscan_symchar(char c)
{
  return isalnum((unsigned char)c) || c == '_' || c == '.' || c == '$';
}

static size_t asmscan_symlen(const char *s)
{
  size_t n = 0;
  while (asmscan_symchar(s[n])) n++;
  return n;
}

char *asmscan_base_name(const char *sym, size_t len)
{
  const char *dot = memchr(sym, '.', len);
  return xstrndup(sym, dot && dot != sym ? (size_t)(dot - sym) : len);
}

/* ".type NAME, @function": remembers NAME as a function symbol. */
static void asmscan_type(asmscan_state *st, const char *p)
{
  p += strspn(p, " \t");
  size_t n = asmscan_symlen(p);
  const char *kind = p + n;
  kind += strspn(kind, " \t,");
  if (n && (!strncmp(kind, "@function", 9) || !strncmp(kind, "%function", 9) ||
            !strncmp(kind, "STT_FUNC", 8))) {
    strtab_intern_n(st->funcs, p, n);
  }
}

/* "NAME:" for a declared function: it becomes the current one. */
static void asmscan_label(asmscan_state *st, const char *p, size_t n)
{
  char *sym = xstrndup(p, n);
  bool is_func = strtab_find(st->funcs, sym) != UINT32_MAX;
  free(sym);
  if (!is_func) return;
  char *base = asmscan_base_name(p, n);
  uint32_t id = strtab_intern(st->bases, base);
  if (st->first + id - 1 == st->out->n) {
    asmscan_fn f = { base, 0 };
    vec_push(st->out, f);
  } else {
    free(base);
  }
  st->cur = (long)(st->first + id - 1);
  st->cur_sym = p;
  st->cur_len = n;
}

/* The operand names a symbol that is not a local label or a register. */
static bool asmscan_symbol_operand(const char *op)
{
  if (!(isalpha((unsigned char)op[0]) || op[0] == '_' || op[0] == '.' || op[0] == '$')) return false;
  if (op[0] == '.' && op[1] == 'L') return false;   /* GCC's and clang's local labels */
  size_t n = asmscan_symlen(op);
  const char *rest = op + n;
  rest += strspn(rest, " \t");
  return strncmp(rest, "PTR", 3) != 0;   /* Intel syntax: "QWORD PTR [rax]" */
}

static bool asmscan_in(const char *m, size_t n, const char *const *set)
{
  for (int i = 0; set[i]; i++)
    if (strlen(set[i]) == n && !strncmp(m, set[i], n)) return true;
  return false;
}

/* One instruction of the current function: counts it if it is a call. */
static void asmscan_insn(asmscan_state *st, const char *p)
{
  static const char *const calls[] = { "call", "callq", "calll", "bl", "blr", "blx", NULL };
  static const char *const prefixes[] = { "notrack", "bnd", "rex64", "data16", NULL };
  static const char *const regjumps[] = { "jr", "jalr", NULL };   /* RISC-V: through a register */
  size_t n = strcspn(p, " \t\n#;");
  while (asmscan_in(p, n, prefixes)) {
    p += n;
    p += strspn(p, " \t");
    n = strcspn(p, " \t\n#;");
  }
  const char *op = p + n;
  op += strspn(op, " \t");
  bool count = asmscan_in(p, n, calls);
  if (!count && !asmscan_in(p, n, regjumps) &&
      ((p[0] == 'j') || (p[0] == 'b' && (n == 1 || p[1] == '.')) || (n == 4 && !strncmp(p, "tail", 4))))
    count = asmscan_symbol_operand(op);
  if (count) st->out->v[st->cur].calls++;
}

/* One line, leading blanks removed; p points into the whole text. */
static void asmscan_line(asmscan_state *st, const char *p)
{
  if (p[0] == '.') {
    if (!strncmp(p, ".type", 5) && (p[5] == ' ' || p[5] == '\t')) { asmscan_type(st, p + 5); return; }
    if (st->cur >= 0 && !strncmp(p, ".size", 5) && (p[5] == ' ' || p[5] == '\t')) {
      const char *s = p + 5 + strspn(p + 5, " \t");
      if (asmscan_symlen(s) == st->cur_len && !strncmp(s, st->cur_sym, st->cur_len)) st->cur = -1;
      return;
    }
  }
  size_t n = asmscan_symlen(p);
  if (n && p[n] == ':') { asmscan_label(st, p, n); return; }
  if (st->cur >= 0 && isalpha((unsigned char)p[0])) asmscan_insn(st, p);
}

void asmscan_text(const char *text, asmscan_fns *out)
{
  asmscan_state st = { strtab_new(), strtab_new(), out->n, out, -1, NULL, 0 };
  for (const char *p = text; *p;) {
    const char *eol = strchr(p, '\n');
    size_t len = eol ? (size_t)(eol - p) : strlen(p);
    asmscan_line(&st, p + strspn(p, " \t"));   /* every reader stops at the '\n' */
    p += len + (eol ? 1 : 0);
  }
  strtab_free(st.funcs);
  strtab_free(st.bases);
}

void asmscan_fns_free(asmscan_fns *f)
{
  for (size_t i = 0; i < f->n; i++) free(f->v[i].name);
  vec_free(f);
}
