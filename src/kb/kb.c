/* kb.c — parses knowledge-base text into a name → entry table. */
#include "kb/kb.h"
#include "util/fileio.h"
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

extern const char kb_builtin_text[];
extern const size_t kb_builtin_len;

struct kb {
  strtab *names;            /* interned names; entry i belongs to name id i */
  VEC(kb_entry) ents;       /* indexed by name id; cls < 0 marks "absent" */
  VEC(unsigned char) have;  /* have[id]: an entry exists */
  strtab *texts;            /* owns reasons and origins */
  XXH64_state_t *digest;
};

kb *kb_new(void)
{
  kb *k = xcalloc(1, sizeof *k);
  k->names = strtab_new();
  k->texts = strtab_new();
  k->digest = XXH64_createState();
  XXH64_reset(k->digest, 0);
  return k;
}

void kb_free(kb *k)
{
  if (!k) return;
  strtab_free(k->names);
  strtab_free(k->texts);
  vec_free(&k->ents);
  vec_free(&k->have);
  XXH64_freeState(k->digest);
  free(k);
}

static int kb_parse_class(const char *s, size_t n, purity *out)
{
  static const char *const names[] = { "const", "pure", "normal" };
  for (int i = 0; i < 3; i++)
    if (strlen(names[i]) == n && memcmp(s, names[i], n) == 0) { *out = (purity)i; return 0; }
  return -1;
}

/* "cN:AB…": callback N's parameter i points where argument (digit i) points. */
static int kb_parse_callback_map(kb_entry *e, const char *s, size_t n)
{
  const char *colon = memchr(s, ':', n);
  size_t m = (size_t)(s + n - colon - 1);
  if (e->cb_nmap || m == 0 || m > sizeof e->cb_map) return -1;
  for (size_t i = 0; i < m; i++) {
    if (!isdigit((unsigned char)colon[1 + i])) return -1;
    e->cb_map[i] = (uint8_t)(colon[1 + i] - '0');
  }
  e->cb_nmap = (uint8_t)m;
  return (int)(colon - s);
}

/* One item of the effects column: rN, wN, r*, w*, cN, cN:AB…, noreturn, contract,
 * errno, errno=const, errno=pure, nullN, queryN, cheat, alloc, hook, fN. */
static int kb_parse_effect(kb_entry *e, const char *s, size_t n)
{
  if (n > 2 && s[0] == 'c' && memchr(s, ':', n)) {
    int len = kb_parse_callback_map(e, s, n);
    if (len < 2 || kb_parse_effect(e, s, (size_t)len) < 0) return -1;
    e->cb_arg = (uint8_t)atoi(s + 1);
    return 0;
  }
  if (n == 8 && memcmp(s, "noreturn", 8) == 0) { e->noreturn = true; return 0; }
  if (n == 5 && memcmp(s, "errno", 5) == 0) { e->math_errno = true; return 0; }
  if ((n > 4 && memcmp(s, "null", 4) == 0) || (n > 5 && memcmp(s, "query", 5) == 0)) {
    size_t at = s[0] == 'n' ? 4 : 5;
    unsigned v = 0;
    for (size_t i = at; i < n; i++) {
      if (!isdigit((unsigned char)s[i]) || v > 6) return -1;
      v = v * 10 + (unsigned)(s[i] - '0');
    }
    if (v >= 64) return -1;
    *(at == 4 ? &e->null_hidden : &e->null_query) |= (uint64_t)1 << v;
    return 0;
  }
  if (n > 6 && memcmp(s, "errno=", 6) == 0) {
    if (n == 11 && memcmp(s + 6, "const", 5) == 0) e->errno_cls = PURITY_CONST;
    else if (n == 10 && memcmp(s + 6, "pure", 4) == 0) e->errno_cls = PURITY_PURE;
    else return -1;
    e->errno_only = true;
    return 0;
  }
  if (n == 5 && memcmp(s, "cheat", 5) == 0) { e->cheat = true; return 0; }
  if (n == 5 && memcmp(s, "alloc", 5) == 0) { e->alloc = true; return 0; }
  if (n == 4 && memcmp(s, "hook", 4) == 0) { e->hook = true; return 0; }
  if (n == 8 && memcmp(s, "contract", 8) == 0) { e->contract = true; return 0; }
  if (n < 2 || (s[0] != 'r' && s[0] != 'w' && s[0] != 'c' && s[0] != 'f')) return -1;
  bool rd = s[0] == 'r';
  if (n == 2 && s[1] == '*') {
    if (s[0] == 'c' || s[0] == 'f') return -1;
    *(rd ? &e->reads_all : &e->writes_all) = true;
    return 0;
  }
  unsigned v = 0;
  for (size_t i = 1; i < n; i++) {
    if (!isdigit((unsigned char)s[i]) || v > 6) return -1;
    v = v * 10 + (unsigned)(s[i] - '0');
  }
  if (v >= 64) return -1;
  *(s[0] == 'c' ? &e->callbacks : s[0] == 'f' ? &e->frees : rd ? &e->reads : &e->writes) |= (uint64_t)1 << v;
  return 0;
}

static int kb_parse_effects(kb_entry *e, const char *s, size_t n)
{
  if (n == 1 && s[0] == '-') return 0;
  if (s[n - 1] == ',') return -1;   /* "r0, w1": the write would end up in the reason */
  while (n > 0) {
    const char *comma = memchr(s, ',', n);
    size_t len = comma ? (size_t)(comma - s) : n;
    if (kb_parse_effect(e, s, len) < 0) return -1;
    if (!comma) break;
    n -= len + 1;
    s = comma + 1;
  }
  return 0;
}

/* Splits off the next whitespace-separated token of [*p, end). */
static size_t kb_token(const char **p, const char *end, const char **tok)
{
  while (*p < end && isspace((unsigned char)**p)) (*p)++;
  *tok = *p;
  while (*p < end && !isspace((unsigned char)**p)) (*p)++;
  return (size_t)(*p - *tok);
}

static void kb_store(kb *k, kb_entry *e, const char *name, size_t nlen)
{
  uint32_t id = strtab_intern_n(k->names, name, nlen);
  e->name = strtab_get(k->names, id);
  while (k->ents.n <= id) {
    kb_entry z = {0};
    vec_push(&k->ents, z);
    vec_push(&k->have, 0);
  }
  k->ents.v[id] = *e;
  k->have.v[id] = 1;
}

/* Parses one non-comment line; returns 0, or -1 if malformed. */
static int kb_parse_line(kb *k, const char *p, const char *end, const char *origin, int lineno)
{
  const char *name, *cls, *eff;
  size_t nl = kb_token(&p, end, &name), cl = kb_token(&p, end, &cls), el = kb_token(&p, end, &eff);
  if (!nl || !cl || !el) return -1;
  kb_entry e = {0};
  if (kb_parse_class(cls, cl, &e.cls) < 0 || kb_parse_effects(&e, eff, el) < 0) return -1;
  if (e.errno_only && (e.cls != PURITY_NORMAL || e.math_errno)) return -1;   /* errno=: what normal is made of */
  if (e.null_hidden && !e.errno_only) return -1;   /* nullN qualifies errno= */
  if (e.null_query && (e.cls != PURITY_NORMAL || e.callbacks)) return -1;   /* queryN: what normal is made of */
  while (p < end && isspace((unsigned char)*p)) p++;
  const char *rend = end;
  while (rend > p && isspace((unsigned char)rend[-1])) rend--;
  if (rend == p) return -1;   /* every entry says why */
  e.reason = strtab_get(k->texts, strtab_intern_n(k->texts, p, (size_t)(rend - p)));
  char *o = xasprintf("%s:%d", origin, lineno);
  e.origin = strtab_get(k->texts, strtab_intern(k->texts, o));
  free(o);
  kb_store(k, &e, name, nl);
  return 0;
}

int kb_load_text(kb *k, const char *text, size_t len, const char *origin, char **err)
{
  XXH64_update(k->digest, text, len);
  const char *p = text, *end = text + len;
  for (int lineno = 1; p < end; lineno++) {
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    const char *le = nl ? nl : end;
    const char *q = p;
    while (q < le && isspace((unsigned char)*q)) q++;
    if (q < le && *q != '#' && kb_parse_line(k, q, le, origin, lineno) < 0) {
      *err = xasprintf("%s:%d: malformed knowledge-base entry (want: name class effects reason)",
                       origin, lineno);
      return -1;
    }
    p = nl ? nl + 1 : end;
  }
  return 0;
}

enum { KB_MAX_BYTES = 64 << 20 };

int kb_load_file(kb *k, const char *path, char **err)
{
  size_t len;
  const char *why;
  /* A regular file, read without blocking and at most KB_MAX_BYTES: a
   * FIFO or /dev/zero named as a knowledge base is refused, never read
   * for ever (issue 31 item 9). libc.kb is 100 KB. */
  char *text = file_read_regular(path, KB_MAX_BYTES, &len, &why);
  if (!text && !strcmp(why, "too large")) { *err = xasprintf("%s: larger than %d MiB", path, KB_MAX_BYTES >> 20); return -1; }
  if (!text) { *err = xasprintf("%s: %s", path, why); return -1; }
  int rc = kb_load_text(k, text, len, path, err);
  free(text);
  return rc;
}

int kb_load_builtin(kb *k, char **err)
{
  return kb_load_text(k, kb_builtin_text, kb_builtin_len, "libc.kb", err);
}

static const kb_entry *kb_lookup_exact(const kb *k, const char *name)
{
  uint32_t id = strtab_find(k->names, name);
  return id < k->have.n && k->have.v[id] ? &k->ents.v[id] : NULL;
}

/* GCC and clang define __builtin_X as the library function X, with X's
 * effects and X's errno behaviour, so a builtin spelling the file does not
 * list takes X's line: __builtin_nextafter is nextafter (JerryScript calls
 * it in a const function), not an unknown function. A spelling the file
 * lists (__builtin_alloca, __builtin_setjmp, __builtin_expect) keeps its
 * own line. */
const kb_entry *kb_lookup(const kb *k, const char *name)
{
  const kb_entry *e = kb_lookup_exact(k, name);
  if (!e && !strncmp(name, "__builtin_", 10) && name[10]) e = kb_lookup_exact(k, name + 10);
  return e;
}

size_t kb_count(const kb *k)
{
  size_t n = 0;
  for (size_t i = 0; i < k->have.n; i++) n += k->have.v[i];
  return n;
}

uint64_t kb_digest(const kb *k)
{
  return XXH64_digest(k->digest);
}

purity kb_entry_class(const kb_entry *e, bool no_math_errno)
{
  if (e->math_errno && !no_math_errno) return PURITY_NORMAL;
  purity p = e->cls;
  if (e->reads || e->reads_all) p = purity_join(p, PURITY_PURE);
  if (e->writes || e->writes_all || e->callbacks) p = PURITY_NORMAL;   /* callbacks: unknown here */
  return p;
}
