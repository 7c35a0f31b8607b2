/* pch.c — one precompiled header per shared #include prefix (pch.h). */
#include "frontend/pch.h"
#include "frontend/fe_internal.h"
#include "util/fileio.h"
#include <ctype.h>
#include <dirent.h>
#include <fcntl.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <xxhash.h>

#define PCH_ENV_DIR "PURIST_PCH_DIR"
#define PCH_ENV_ON "PURIST_PCH"
#define PCH_PREFIX_NAME ".purist-pch-prefix.h"
#define PCH_META_MAGIC "purist-pch 1"

/* A file the PCH's build read, as clang_getInclusions reported it there. */
typedef struct {
  char *path;            /* absolute (fe_file_path) */
  unsigned depth;
  bool predefined;       /* outermost #include in the predefines buffer */
  unsigned *offs;        /* outermost first; offs[0] in the prefix header unless predefined */
  CXFile file;           /* in the TU that uses the PCH (fe_pch_usable) */
} pch_incl;

/* A prefix that ends after an #include line: its lines and header length. */
typedef struct {
  size_t lines, len;
} pch_cand;

struct fe_pch {
  char *header_path;     /* the virtual prefix header, beside the main file */
  char *header;          /* its text: the prefix's lines */
  size_t header_len;
  char *pch_path;
  VEC(unsigned) main_at, header_at;   /* where each prefix line starts in the main file, in the header */
  VEC(pch_incl) incls;
  VEC(pch_cand) cands;
  char *main_path;       /* the main file, */
  char *main_text;       /* as on disk, */
  char *main_blank;      /* and as parsed: the prefix's lines blanked (same offsets) */
  size_t main_len;
};

/* ---- the prefix ---- */

/* Skips blanks and comments from p; NULL at a comment that does not end
 * or a line splice (the prefix stops there). */
static const char *pch_skip_space(const char *p, const char *end, bool newlines)
{
  while (p < end) {
    if (*p == ' ' || *p == '\t' || *p == '\f' || *p == '\v' || *p == '\r' || (newlines && *p == '\n')) p++;
    else if (end - p >= 2 && p[0] == '/' && p[1] == '*') {
      const char *e = memmem(p + 2, (size_t)(end - p - 2), "*/", 2);
      if (!e || memchr(p, '\\', (size_t)(e - p))) return NULL;
      if (!newlines && memchr(p, '\n', (size_t)(e - p))) return NULL;   /* a comment past the line's end */
      p = e + 2;
    } else if (end - p >= 2 && p[0] == '/' && p[1] == '/') {
      const char *e = memchr(p, '\n', (size_t)(end - p));
      if (!e) e = end;
      if (memchr(p, '\\', (size_t)(e - p))) return NULL;   /* may continue on the next line */
      p = e;
    } else break;
  }
  return p;
}

/* If a one-line `#include "x"` or `#include <x>` starts at p (after the
 * line's blanks), the end of its line (its '\n'); else NULL. */
static const char *pch_include_line(const char *p, const char *end)
{
  if (p >= end || *p != '#') return NULL;
  p++;
  while (p < end && (*p == ' ' || *p == '\t')) p++;
  if (end - p < 8 || strncmp(p, "include", 7) != 0) return NULL;
  p += 7;
  while (p < end && (*p == ' ' || *p == '\t')) p++;
  if (p >= end || (*p != '"' && *p != '<')) return NULL;
  char close = *p == '"' ? '"' : '>';
  const char *q = p + 1;
  while (q < end && *q != close && *q != '\n' && *q != '\\') q++;
  if (q >= end || *q != close || q == p + 1) return NULL;
  q = pch_skip_space(q + 1, end, false);
  if (!q || q >= end || *q != '\n') return NULL;
  return q;
}

/* If a one-line `#define NAME` or `#define NAME VALUE` (VALUE one
 * identifier or number) starts at p, the end of its line; else NULL.
 * Such a define (git's USE_THE_REPOSITORY_VARIABLE, _GNU_SOURCE) may
 * steer the headers after it, so it belongs to the prefix and its key;
 * anything longer may be an attribute macro, which the front end reads
 * where it is defined. */
static const char *pch_define_line(const char *p, const char *end)
{
  if (p >= end || *p != '#') return NULL;
  p++;
  while (p < end && (*p == ' ' || *p == '\t')) p++;
  if (end - p < 7 || strncmp(p, "define", 6) != 0 || (p[6] != ' ' && p[6] != '\t')) return NULL;
  p += 6;
  for (int word = 0; word < 2; word++) {
    while (p < end && (*p == ' ' || *p == '\t')) p++;
    const char *w = p;
    while (p < end && (isalnum((unsigned char)*p) || *p == '_')) p++;
    if (p == w) {
      if (word == 0) return NULL;
      break;
    }
    if (word == 0 && isdigit((unsigned char)*w)) return NULL;
    if (word == 0 && p < end && *p == '(') return NULL;   /* function-like */
  }
  p = pch_skip_space(p, end, false);
  if (!p || p >= end || *p != '\n') return NULL;
  return p;
}

/* The main file's prefix: its leading include and simple define lines'
 * starts (main_at), the header of those lines (header, header_at), and
 * after each include line a candidate prefix (cands: lines and header
 * length). Returns the number of candidates. */
static size_t pch_scan(fe_pch *p, const char *text, size_t size)
{
  const char *end = text + size, *s = text;
  if (size >= 3 && !memcmp(s, "\xEF\xBB\xBF", 3)) return 0;   /* a BOM: the header would lack it */
  VEC(char) h = {0};
  for (;;) {
    s = pch_skip_space(s, end, true);
    if (!s) break;
    const char *ls = s;
    while (ls > text && (ls[-1] == ' ' || ls[-1] == '\t')) ls--;
    if (ls > text && ls[-1] != '\n') break;   /* a directive after a comment on its line */
    const char *eol = pch_include_line(s, end);
    bool include = eol != NULL;
    if (!eol) eol = pch_define_line(s, end);
    if (!eol || memchr(ls, '\\', (size_t)(eol - ls)) || memchr(ls, '\0', (size_t)(eol - ls))) break;
    vec_push(&p->main_at, (unsigned)(ls - text));
    vec_push(&p->header_at, (unsigned)h.n);
    for (const char *c = ls; c <= eol; c++) vec_push(&h, *c);
    if (include) vec_push(&p->cands, ((pch_cand){ p->main_at.n, h.n }));
    s = eol + 1;
  }
  vec_push(&h, '\0');
  p->header_len = h.n - 1;
  p->header = h.v;
  return p->cands.n;
}

/* Cuts p's prefix to its candidate k. */
static void pch_cut(fe_pch *p, size_t k)
{
  p->main_at.n = p->header_at.n = p->cands.v[k].lines;
  p->header_len = p->cands.v[k].len;
  p->header[p->header_len] = '\0';
}

/* The main file as the TU's parse reads it: the prefix's lines made
 * blanks (their newlines kept, so every offset, line and column stays),
 * since the PCH holds them. Its headers are not entered a second time, so
 * they need no include guard (git-compat-util.h has a pragma after its
 * guard; autoconf's config.h has none). */
static void pch_blank_main(fe_pch *p)
{
  p->main_blank = xmalloc(p->main_len + 1);
  memcpy(p->main_blank, p->main_text, p->main_len + 1);
  for (size_t i = 0; i < p->main_at.n; i++) {
    size_t end = i + 1 < p->header_at.n ? p->header_at.v[i + 1] : p->header_len;
    for (size_t c = p->main_at.v[i]; c < p->main_at.v[i] + (end - p->header_at.v[i]); c++)
      if (p->main_blank[c] != '\n') p->main_blank[c] = ' ';
  }
}

/* An offset in the prefix header as the same place in the main file. */
static unsigned pch_main_offset(const fe_pch *p, unsigned off)
{
  size_t k = 0;
  while (k + 1 < p->header_at.n && p->header_at.v[k + 1] <= off) k++;
  return p->main_at.v[k] + (off - p->header_at.v[k]);
}

/* ---- the key ---- */

static void pch_hash_str(XXH3_state_t *st, const char *s)
{
  XXH3_128bits_update(st, s, strlen(s) + 1);
}

/* The store's name for this prefix under these flags: libclang's version,
 * the directory the header stands in, the flags, the unsaved files (the
 * compiler view) and the prefix's lines. */
static char *pch_key(const fe_pch *p, size_t header_len, char *const *argv, int argc,
                     const struct CXUnsavedFile *unsaved, unsigned nunsaved, unsigned opts)
{
  XXH3_state_t *st = XXH3_createState();
  XXH3_128bits_reset(st);
  uint64_t lib = lc_identity();   /* the libclang that writes and reads the PCH */
  XXH3_128bits_update(st, &lib, sizeof lib);
  pch_hash_str(st, "purist-pch 1");
  pch_hash_str(st, p->header_path);
  for (int i = 0; i < argc; i++) pch_hash_str(st, argv[i]);
  for (unsigned i = 0; i < nunsaved; i++) {
    pch_hash_str(st, unsaved[i].Filename);
    XXH3_128bits_update(st, unsaved[i].Contents, unsaved[i].Length);
  }
  XXH3_128bits_update(st, &opts, sizeof opts);
  XXH3_128bits_update(st, p->header, header_len);
  XXH128_hash_t h = XXH3_128bits_digest(st);
  XXH3_freeState(st);
  return xasprintf("%016llx%016llx", (unsigned long long)h.high64, (unsigned long long)h.low64);
}

/* ---- the record of a PCH (KEY.meta) ----
 * "purist-pch 1", then "ok" or "no" (not shareable: do not try again),
 * then per file read "f SIZE HASH PATH" (checked before each use) and per
 * inclusion "i PREDEFINED DEPTH OFF... PATH". */

static void pch_incls_free(fe_pch *p)
{
  for (size_t i = 0; i < p->incls.n; i++) {
    free(p->incls.v[i].path);
    free(p->incls.v[i].offs);
  }
  vec_free(&p->incls);
}

/* Does the file at path still have this size and hash? */
static bool pch_file_same(const char *path, unsigned long long size, unsigned long long hash)
{
  size_t len = 0;
  char *text = file_read_all(path, &len);
  bool same = text && len == size && XXH3_64bits(text, len) == hash;
  free(text);
  return same;
}

/* Parses one "i" line into p->incls; -1 if malformed. */
static int pch_read_incl(fe_pch *p, char *line)
{
  char *s = line + 2, *e;
  pch_incl in = {0};
  in.predefined = strtoul(s, &e, 10) != 0;
  in.depth = (unsigned)strtoul(e, &e, 10);
  if (in.depth == 0 || in.depth > 4096) return -1;
  in.offs = xcalloc(in.depth, sizeof *in.offs);
  for (unsigned i = 0; i < in.depth; i++) in.offs[i] = (unsigned)strtoul(e, &e, 10);
  if (*e != ' ' || e[1] != '/') { free(in.offs); return -1; }
  in.path = xstrdup(e + 1);
  vec_push(&p->incls, in);
  return 0;
}

/* Reads KEY.meta: 1 usable (files unchanged, p->incls filled), 0 refused
 * ("no"), -1 missing, stale or damaged (build again). */
static int pch_read_meta(fe_pch *p, const char *meta)
{
  size_t len = 0;
  char *text = file_read_all(meta, &len);
  if (!text) return -1;
  int rc = -1;
  char *save = NULL, *line = strtok_r(text, "\n", &save);   /* "no" may be followed by "# WHY" */
  if (line && !strcmp(line, PCH_META_MAGIC) && (line = strtok_r(NULL, "\n", &save))) {
    if (!strcmp(line, "no")) rc = 0;
    else if (!strcmp(line, "ok")) {
      rc = 1;
      while (rc == 1 && (line = strtok_r(NULL, "\n", &save))) {
        unsigned long long size, hash;
        int at = 0;
        if (line[0] == 'f' && sscanf(line, "f %llu %llx %n", &size, &hash, &at) == 2 && at > 0) {
          if (!pch_file_same(line + at, size, hash)) rc = -1;
        } else if (line[0] != 'i' || pch_read_incl(p, line) < 0) {
          rc = -1;
        }
      }
    }
  }
  free(text);
  if (rc != 1) pch_incls_free(p);
  if (rc == 1 && access(p->pch_path, R_OK) != 0) rc = -1;
  return rc;
}

/* ---- building ---- */

typedef struct {
  CXTranslationUnit tu;
  fe_pch *p;
  FILE *meta;
  CXFile header;
  const char *refuse;    /* why the prefix cannot be shared, or NULL */
} pch_build;

/* clang_getInclusions visitor of the PCH's build: records each file (the
 * prefix header itself aside), and refuses a prefix line's header that an
 * #include in the main file would enter again (no guard). */
static void pch_build_visit(CXFile f, CXSourceLocation *stack, unsigned depth, CXClientData data)
{
  pch_build *b = data;
  if (!f || depth == 0) return;
  char *path = fe_file_path(f);
  CXFile root = NULL;
  unsigned root_off = 0;
  clang_getExpansionLocation(stack[depth - 1], &root, NULL, NULL, &root_off);
  if (root && !clang_File_isEqual(root, b->header)) b->refuse = "an inclusion from elsewhere";
  if ((strchr(path, '\n') || path[0] != '/') && !b->refuse) b->refuse = "a file name it cannot record";
  if (!fe_ccview_is_virtual(path)) {
    size_t size = 0;
    const char *text = fe_file_text(b->tu, f, &size);
    fprintf(b->meta, "f %zu %llx %s\n", size, (unsigned long long)XXH3_64bits(text ? text : "", text ? size : 0),
            path);
  }
  fprintf(b->meta, "i %d %u", root ? 0 : 1, depth);
  for (unsigned i = depth; i-- > 0;) {
    unsigned off = 0;
    clang_getExpansionLocation(stack[i], NULL, NULL, NULL, &off);
    fprintf(b->meta, " %u", off);
  }
  fprintf(b->meta, " %s\n", path);
  free(path);
}

/* Would the front end read something from the prefix's diagnostics (an
 * error, a warning about an attribute)? A PCH does not replay them.
 * Returns why, or NULL. */
static const char *pch_diags_matter(CXTranslationUnit tu)
{
  const char *matter = NULL;
  unsigned n = clang_getNumDiagnostics(tu);
  for (unsigned i = 0; i < n && !matter; i++) {
    CXDiagnostic d = clang_getDiagnostic(tu, i);
    enum CXDiagnosticSeverity sev = clang_getDiagnosticSeverity(d);
    CXString s = clang_getDiagnosticSpelling(d);
    const char *text = clang_getCString(s);
    if (sev >= CXDiagnostic_Error) matter = "an error";
    else if (sev == CXDiagnostic_Warning && text && strstr(text, "attribute")) matter = "a warning about an attribute";
    clang_disposeString(s);
    clang_disposeDiagnostic(d);
  }
  return matter;
}

/* Parses the prefix header, saves the PCH and writes its record (or a
 * refusal). Returns 1 when the PCH is ready. */
static int pch_build_now(fe_pch *p, CXIndex idx, char *const *argv, int argc, const struct CXUnsavedFile *unsaved,
                         unsigned nunsaved, unsigned opts, const char *meta)
{
  VEC(const char *) av = {0};
  for (int i = 0; i < argc; i++) vec_push(&av, argv[i]);
  vec_push(&av, "-x");
  vec_push(&av, "c-header");
  VEC(struct CXUnsavedFile) uf = {0};
  for (unsigned i = 0; i < nunsaved; i++) vec_push(&uf, unsaved[i]);
  vec_push(&uf, fe_pch_unsaved(p));
  unsigned bopts = (opts & ~CXTranslationUnit_KeepGoing) | CXTranslationUnit_ForSerialization
                 | CXTranslationUnit_Incomplete;
  CXTranslationUnit tu = NULL;
  enum CXErrorCode ec = clang_parseTranslationUnit2(idx, p->header_path, av.v, (int)av.n, uf.v, (unsigned)uf.n,
                                                    bopts, &tu);
  vec_free(&av);
  vec_free(&uf);
  char *rec = NULL;
  size_t rec_len = 0;
  FILE *m = open_memstream(&rec, &rec_len);
  const char *why = !m ? "no memory" : ec != CXError_Success || !tu ? "libclang failed" : pch_diags_matter(tu);
  if (!why) {
    pch_build b = { tu, p, m, clang_getFile(tu, p->header_path), NULL };
    clang_getInclusions(tu, pch_build_visit, &b);
    why = b.refuse ? b.refuse : !b.header ? "no prefix header" : NULL;
  }
  if (m) fclose(m);
  if (!why) {
    char *ptmp = xasprintf("%s.tmp.%ld", p->pch_path, (long)getpid());
    /* Saving registers LLVM's signal handlers, which replace this thread's
     * alternate signal stack with one from malloc: the sanitizers' runtime
     * unmaps whatever stack is set when the thread ends, and fails on it. */
    stack_t alt;
    bool had_alt = sigaltstack(NULL, &alt) == 0;
    enum CXSaveError se = clang_saveTranslationUnit(tu, ptmp, clang_defaultSaveOptions(tu));
    if (had_alt) sigaltstack(&alt, NULL);
    if (se != CXSaveError_None || rename(ptmp, p->pch_path) != 0) why = "it could not be saved";
    if (why) unlink(ptmp);
    free(ptmp);
  }
  bool ok = !why;
  if (tu) clang_disposeTranslationUnit(tu);
  /* A refusal is recorded too: the next TU with this prefix does not try again. */
  char *tmp = NULL;
  FILE *f = file_atomic_open(meta, &tmp);
  if (f) {
    fprintf(f, PCH_META_MAGIC "\n%s\n", ok ? "ok" : "no");
    if (!ok) fprintf(f, "# %s\n", why);
    if (ok && rec_len) fwrite(rec, 1, rec_len, f);
    if (file_atomic_commit(f, tmp, meta, 1) != 0) ok = false;
  } else {
    ok = false;
  }
  free(rec);
  return ok && pch_read_meta(p, meta) == 1;
}

/* ---- use ---- */

/* Flags a shared prefix cannot go with: a PCH or modules of the build's
 * own, or an -include spelled other than "-include FILE" (clang would
 * not recognise it as the PCH's). */
static bool pch_flags_ok(char *const *argv, int argc)
{
  for (int i = 0; i < argc; i++) {
    const char *a = argv[i];
    if (!strncmp(a, "-include", 8) && strcmp(a, "-include") != 0) return false;
    if (!strncmp(a, "--include", 9) || !strncmp(a, "-imacros", 8) || !strncmp(a, "--imacros", 9)) return false;
    if (!strncmp(a, "-fmodules", 9) || !strcmp(a, "-x") || !strncmp(a, "-x", 2)) return false;
    if (!strcmp(a, "-E") || !strcmp(a, "-save-temps")) return false;
  }
  return true;
}

static bool pch_enabled(void)
{
  const char *on = getenv(PCH_ENV_ON), *dir = getenv(PCH_ENV_DIR);
  return dir && dir[0] == '/' && on && !strcmp(on, "1");
}

/* Marks a candidate as had by a TU; true if one had it before (this run's
 * other TUs, or an earlier run's with the same cache). */
static bool pch_seen_before(const char *dir, const char *key)
{
  char *seen = xasprintf("%s/%s.seen", dir, key);
  int fd = open(seen, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
  bool before = fd < 0 && errno == EEXIST;
  if (fd >= 0) close(fd);
  free(seen);
  return before;
}

/* Points p at candidate k's files in the store; returns its meta's path. */
static char *pch_at(fe_pch *p, const char *dir, const char *key)
{
  free(p->pch_path);
  p->pch_path = xasprintf("%s/%s.pch", dir, key);
  return xasprintf("%s/%s.meta", dir, key);
}

/* Picks the prefix to share and readies its PCH: the longest candidate
 * whose PCH the store has; else the longest one that another TU had
 * before, built now (a PCH costs a parse of its prefix, so it pays from
 * the second TU that shares it on); else none (-1). */
static int pch_choose(fe_pch *p, CXIndex idx, char *const *argv, int argc, const struct CXUnsavedFile *unsaved,
                      unsigned nunsaved, unsigned opts)
{
  const char *dir = getenv(PCH_ENV_DIR);
  size_t n = p->cands.n;
  char **keys = xcalloc(n, sizeof *keys);
  int *state = xcalloc(n, sizeof *state);   /* pch_read_meta's answer */
  int rc = -1;
  for (size_t k = n; k-- > 0 && rc != 1;) {
    keys[k] = pch_key(p, p->cands.v[k].len, argv, argc, unsaved, nunsaved, opts);
    char *meta = pch_at(p, dir, keys[k]);
    state[k] = rc = pch_read_meta(p, meta);
    free(meta);
    if (rc == 1) pch_cut(p, k);
  }
  for (size_t k = n; k-- > 0 && rc != 1;) {
    if (!pch_seen_before(dir, keys[k]) || state[k] == 0) continue;
    pch_cut(p, k);
    char *meta = pch_at(p, dir, keys[k]);
    rc = pch_build_now(p, idx, argv, argc, unsaved, nunsaved, opts, meta) ? 1 : 0;
    free(meta);
    if (rc != 1) break;   /* a shorter prefix is read again in full: not worth a second try */
  }
  for (size_t k = 0; k < n; k++) free(keys[k]);
  free(keys);
  free(state);
  return rc;
}

fe_pch *fe_pch_for(CXIndex idx, const fe_job *job, char *const *argv, int argc,
                   const struct CXUnsavedFile *unsaved, unsigned nunsaved, unsigned opts)
{
  if (!pch_enabled() || fe_pp_wanted(job) || !pch_flags_ok(argv, argc) || job->file[0] != '/') return NULL;
  size_t size = 0;
  char *text = file_read_all(job->file, &size);
  if (!text) return NULL;
  fe_pch *p = xcalloc(1, sizeof *p);
  p->main_path = xstrdup(job->file);
  p->main_text = text;
  p->main_len = size;
  if (!pch_scan(p, text, size)) { fe_pch_free(p); return NULL; }
  const char *slash = strrchr(job->file, '/');
  p->header_path = xasprintf("%.*s/" PCH_PREFIX_NAME, (int)(slash - job->file), job->file);
  if (pch_choose(p, idx, argv, argc, unsaved, nunsaved, opts) != 1) { fe_pch_free(p); return NULL; }
  pch_blank_main(p);
  return p;
}

struct CXUnsavedFile fe_pch_unsaved(const fe_pch *p)
{
  struct CXUnsavedFile u = { p->header_path, p->header, (unsigned long)p->header_len };
  return u;
}

struct CXUnsavedFile fe_pch_main(const fe_pch *p)
{
  struct CXUnsavedFile u = { p->main_path, p->main_blank, (unsigned long)p->main_len };
  return u;
}

const char *fe_pch_file_text(const fe_pch *p, CXTranslationUnit tu, CXFile f, size_t *len)
{
  *len = 0;
  if (!f) return NULL;
  if (p && clang_File_isEqual(f, clang_getFile(tu, p->main_path))) {
    *len = p->main_len;
    return p->main_text;
  }
  return clang_getFileContents(tu, f, len);
}

const char *fe_pch_path(const fe_pch *p)
{
  return p->pch_path;
}

void fe_pch_free(fe_pch *p)
{
  if (!p) return;
  pch_incls_free(p);
  free(p->header_path);
  free(p->header);
  free(p->pch_path);
  vec_free(&p->main_at);
  vec_free(&p->header_at);
  vec_free(&p->cands);
  free(p->main_path);
  free(p->main_text);
  free(p->main_blank);
  free(p);
}

/* Does a diagnostic speak of the PCH (stale, built otherwise, unreadable)? */
static bool pch_diag_names_pch(CXTranslationUnit tu, const char *pch_path)
{
  bool names = false;
  unsigned n = clang_getNumDiagnostics(tu);
  for (unsigned i = 0; i < n && !names; i++) {
    CXDiagnostic d = clang_getDiagnostic(tu, i);
    CXString s = clang_getDiagnosticSpelling(d);
    const char *text = clang_getCString(s);
    names = text && (strstr(text, "precompiled header") || strstr(text, "PCH") || strstr(text, "AST file") ||
                     strstr(text, pch_path) || strstr(text, PCH_PREFIX_NAME));
    clang_disposeString(s);
    clang_disposeDiagnostic(d);
  }
  return names;
}

bool fe_pch_usable(const fe_pch *p, CXTranslationUnit tu)
{
  if (pch_diag_names_pch(tu, p->pch_path)) return false;
  /* Each recorded file as the TU's locations name it: clang_getFile by
   * path may give another name's entry of the same file. */
  for (size_t i = 0; i < p->incls.n; i++) {
    pch_incl *in = &p->incls.v[i];
    CXFile f = clang_getFile(tu, in->path), g = NULL;
    if (f) clang_getExpansionLocation(clang_getLocationForOffset(tu, f, 0), &g, NULL, NULL, NULL);
    if (!g) return false;
    in->file = g;
  }
  return true;
}

/* ---- inclusions ---- */

typedef struct {
  CXTranslationUnit tu;
  void (*visit)(const fe_incl *in, void *data);
  void *data;
  VEC(unsigned) offs;
} incl_ctx;

static void pch_incl_visit(CXFile f, CXSourceLocation *stack, unsigned depth, CXClientData data)
{
  incl_ctx *c = data;
  c->offs.n = 0;
  CXFile root = NULL;
  for (unsigned i = depth; i-- > 0;) {
    unsigned off = 0;
    clang_getExpansionLocation(stack[i], i == depth - 1 ? &root : NULL, NULL, NULL, &off);
    vec_push(&c->offs, off);
  }
  fe_incl in = { f, depth, depth && !root, c->offs.v };
  c->visit(&in, c->data);
}

/* With a PCH: the TU's own inclusions, the main file first, then the
 * PCH's after it, as an unshared parse enters them. */
typedef struct {
  incl_ctx *c;
  const fe_pch *p;
  bool main_seen;
} replay_ctx;

static void pch_replay_prefix(incl_ctx *c, const fe_pch *p)
{
  for (size_t i = 0; i < p->incls.n; i++) {
    const pch_incl *r = &p->incls.v[i];
    c->offs.n = 0;
    for (unsigned k = 0; k < r->depth; k++)
      vec_push(&c->offs, k == 0 && !r->predefined ? pch_main_offset(p, r->offs[0]) : r->offs[k]);
    fe_incl in = { r->file, r->depth, r->predefined, c->offs.v };
    c->visit(&in, c->data);
  }
}

static void pch_replay_visit(CXFile f, CXSourceLocation *stack, unsigned depth, CXClientData data)
{
  replay_ctx *r = data;
  pch_incl_visit(f, stack, depth, r->c);
  if (depth == 0 && !r->main_seen) {
    r->main_seen = true;
    pch_replay_prefix(r->c, r->p);
  }
}

void fe_inclusions(CXTranslationUnit tu, const fe_pch *p, void (*visit)(const fe_incl *in, void *data),
                   void *data)
{
  incl_ctx c = { tu, visit, data, {0} };
  if (!p) {
    clang_getInclusions(tu, pch_incl_visit, &c);
  } else {
    replay_ctx r = { &c, p, false };
    clang_getInclusions(tu, pch_replay_visit, &r);
    if (!r.main_seen) pch_replay_prefix(&c, p);
  }
  vec_free(&c.offs);
}

/* ---- the store ---- */

char *fe_pch_store_open(const char *cache_dir)
{
  const char *on = getenv(PCH_ENV_ON);
  if (!on || strcmp(on, "1") != 0) return NULL;   /* off by default: see docs/decisions.md */
  if (cache_dir && cache_dir[0] == '/') {
    char *dir = xasprintf("%s/pch", cache_dir);
    if (mkdir(dir, 0777) == 0 || errno == EEXIST) setenv(PCH_ENV_DIR, dir, 1);
    free(dir);
    return NULL;
  }
  const char *tmpdir = getenv("TMPDIR");
  char *dir = xasprintf("%s/purist-pch.XXXXXX", tmpdir && tmpdir[0] == '/' ? tmpdir : "/tmp");
  if (!mkdtemp(dir)) { free(dir); return NULL; }
  setenv(PCH_ENV_DIR, dir, 1);
  return dir;
}

/* Removes the run's own temporary store (its files, then itself). */
void fe_pch_store_close(char *tmp_dir)
{
  if (!tmp_dir) return;
  unsetenv(PCH_ENV_DIR);
  DIR *d = opendir(tmp_dir);
  struct dirent *e;
  while (d && (e = readdir(d)))
    if (e->d_name[0] != '.') {
      char *f = xasprintf("%s/%s", tmp_dir, e->d_name);
      unlink(f);
      free(f);
    }
  if (d) closedir(d);
  rmdir(tmp_dir);
  free(tmp_dir);
}
