/* parse.c — runs libclang on one job and hands the AST to the walker. */
#include "frontend/fe_internal.h"
#include "frontend/pch.h"
#include "util/fileio.h"
#include <ctype.h>
#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <xxhash.h>

void fe_msgs_free(fe_msgs *m)
{
  for (size_t i = 0; i < m->n; i++) free(m->v[i]);
  vec_free(m);
}

/* The flags libclang gets: the build's, then ours, which must win. With
 * a GCC view (ccview.c): -undef, and its header before the build's own
 * -include's. */
static char **fe_argv_view(const fe_job *job, const fe_ccview *view, int *argc)
{
  VEC(char *) av = {0};
  char *wd = xasprintf("-working-directory=%s", job->dir);
  vec_push(&av, wd);                 /* libclang does not chdir to the entry's directory */
  if (fe_ccview_path(view)) {
    vec_push(&av, "-undef");
    vec_push(&av, "-include");
    vec_push(&av, (char *)fe_ccview_path(view));
  }
  for (int i = 0; i < job->argc; i++)
    if (strcmp(job->argv[i], "-w") != 0) vec_push(&av, job->argv[i]);   /* c23attr.c needs a warning */
  vec_push(&av, "-resource-dir");    /* stddef.h & co */
  vec_push(&av, PURIST_RESOURCE_DIR);
  vec_push(&av, "-Wno-error");       /* -Werror must not fail a parse */
  vec_push(&av, "-Wno-unknown-warning-option");   /* GCC's -W flags clang lacks */
  /* GCC 12 only warns about these; clang 16+ makes them errors. Code that
   * GCC builds must parse: an implicitly declared function is simply an
   * unknown external (normal). */
  vec_push(&av, "-Wno-error=implicit-function-declaration");
  vec_push(&av, "-Wno-error=implicit-int");
  vec_push(&av, "-Wno-error=int-conversion");
  vec_push(&av, "-Wno-error=incompatible-pointer-types");
  vec_push(&av, "-ferror-limit=0");
  vec_push(&av, "-Wunknown-attributes");   /* [[unsequenced]] is seen only through it (c23attr.c) */
  vec_push(&av, "-Wno-error=unknown-attributes");
  *argc = (int)av.n;
  return av.v;
}

/* Other passes (verify's prototypes) parse with clang's view: they pass
 * no unsaved files, so the GCC view's header would not be found. */
char **fe_clang_argv(const fe_job *job, int *argc)
{
  return fe_argv_view(job, NULL, argc);
}

void fe_clang_argv_free(char **argv)
{
  free(argv[0]);   /* the -working-directory= flag; the rest are borrowed */
  free(argv);
}

/* Last of -f[no-]math-errno / -f[no-]fast-math wins; GCC's default is errno. */
static int fe_no_math_errno(const fe_job *job)
{
  int no = 0;
  for (int i = 0; i < job->argc; i++) {
    const char *a = job->argv[i];
    if (!strcmp(a, "-fno-math-errno") || !strcmp(a, "-ffast-math") || !strcmp(a, "-Ofast")) no = 1;
    if (!strcmp(a, "-fmath-errno") || !strcmp(a, "-fno-fast-math")) no = 0;
  }
  return no;
}

/* Does GCC for the TU's target evaluate a call's arguments right to left?
 * It gimplifies them in reverse where arguments are pushed
 * (PUSH_ARGS_REVERSED): x86-64 and i386, measured with GCC 12 -O2 (`f(a(),
 * b())` calls b first). Other targets: unknown, so no order is assumed. */
static bool fe_args_right_to_left(CXTranslationUnit tu)
{
  CXTargetInfo ti = clang_getTranslationUnitTargetInfo(tu);
  if (!ti) return false;
  CXString tr = clang_TargetInfo_getTriple(ti);
  const char *s = clang_getCString(tr);
  bool rtl = s && (!strncmp(s, "x86_64", 6) || (s[0] == 'i' && strchr("3456", s[1]) && !strncmp(s + 2, "86", 2)));
  clang_disposeString(tr);
  clang_TargetInfo_dispose(ti);
  return rtl;
}

/* Is the TU built for a shared library (-fPIC or -fpic last among the
 * code-model flags; -fPIE code goes into an executable), and may another
 * library interpose its external functions (no -fno-semantic-interposition
 * after -fsemantic-interposition)? */
static void fe_pic_flags(const fe_job *job, bool *pic_out, bool *interpose_out)
{
  bool pic = false, interpose = true;
  for (int i = 0; i < job->argc; i++) {
    const char *a = job->argv[i];
    if (!strcmp(a, "-fPIC") || !strcmp(a, "-fpic")) pic = true;
    if (!strcmp(a, "-fno-PIC") || !strcmp(a, "-fno-pic") || !strcmp(a, "-fPIE") || !strcmp(a, "-fpie") ||
        !strcmp(a, "-fno-PIE") || !strcmp(a, "-fno-pie"))
      pic = false;
    if (!strcmp(a, "-fno-semantic-interposition")) interpose = false;
    if (!strcmp(a, "-fsemantic-interposition")) interpose = true;
  }
  *pic_out = pic;
  *interpose_out = pic && interpose;
}

/* Does the build say -fno-strict-aliasing (the last of -f[no-]strict-aliasing)? */
static bool fe_no_strict_alias(const fe_job *job)
{
  bool off = false;
  for (int i = 0; i < job->argc; i++) {
    if (!strcmp(job->argv[i], "-fno-strict-aliasing")) off = true;
    if (!strcmp(job->argv[i], "-fstrict-aliasing")) off = false;
  }
  return off;
}

/* Errors located in the code make the TU unusable; diagnostics without a
 * location come from the driver (flags clang does not know) and are only
 * worth a warning. Returns the number of errors in the code. */
/* clang drops pure/const from a function returning void, and pure from a
 * declaration that also says const, and only warns ("'pure' attribute on
 * function returning 'void'; attribute ignored"): the warning's location is
 * the function's name, which fe_top matches. */
static void fe_note_void_attr(fe_tu *t, CXDiagnostic d)
{
  CXString s = clang_getDiagnosticSpelling(d);
  const char *text = clang_getCString(s);
  uint8_t bit = 0;
  if (strstr(text, "attribute on function returning 'void'"))
    bit = strncmp(text, "'const'", 7) == 0 ? SUM_DECL_VOID_CONST : SUM_DECL_VOID_PURE;
  else if (strstr(text, "imposes more restrictions; 'pure' attribute ignored"))
    bit = SUM_DECL_PURE;   /* both written on one declaration: clang kept only const */
  if (bit) {
    uint64_t key = fe_loc_key(fe_loc(t, clang_getDiagnosticLocation(d)));
    uint32_t *have = ptrmap_get(&t->void_attrs, key);
    ptrmap_put(&t->void_attrs, key, (have ? *have : 0) | bit);
  }
  clang_disposeString(s);
}

/* A diagnostic's text. clang's formatting leaves out a location with no
 * file: one in a -D macro's expansion gets the place of the expansion,
 * one in the predefines buffer (an -include line) the file compiled and
 * the buffer's part ("<built-in>", "<command line>"). */
static char *fe_diag_text(const fe_job *job, CXSourceLocation l, const char *text)
{
  CXFile f;
  clang_getSpellingLocation(l, &f, NULL, NULL, NULL);
  if (f) return xstrdup(text);
  CXString name;
  unsigned line = 0, col = 0;
  clang_getPresumedLocation(l, &name, &line, &col);
  const char *n = clang_getCString(name);
  char *out = n && *n && *n != '<' ? xasprintf("%s:%u:%u: %s (in a macro of the compile command)", n, line, col, text)
                                   : xasprintf("%s: %s:%u:%u: %s", job->file, n && *n ? n : "<command line>", line,
                                               col, text);
  clang_disposeString(name);
  return out;
}

/* Errors shown per TU, as clang's -ferror-limit: a random 1 MB file gave
 * 81,260 lines. The parse itself is not limited (-ferror-limit=0), since
 * errors that do not count (GCC-only code in system headers) must not stop
 * it. */
enum { FE_MAX_ERRORS = 20 };

static int fe_collect_diags(fe_tu *t, const fe_job *job, fe_msgs *msgs)
{
  int errors = 0;
  CXTranslationUnit tu = t->tu;
  unsigned n = clang_getNumDiagnostics(tu);
  for (unsigned i = 0; i < n; i++) {
    CXDiagnostic d = clang_getDiagnostic(tu, i);
    enum CXDiagnosticSeverity sev = clang_getDiagnosticSeverity(d);
    if (sev == CXDiagnostic_Warning) fe_note_void_attr(t, d);
    if (sev == CXDiagnostic_Warning) fe_c23_note_diag(t, d);
    if (sev == CXDiagnostic_Warning) fe_gnu_note_diag(t, d);
    /* GCC's preprocessed system headers hold what only GCC accepts
     * (_Float32, malloc(fclose)): such a declaration is lost, not the TU. */
    int gcc_only = t->pp && clang_Location_isInSystemHeader(clang_getDiagnosticLocation(d));
    if (sev >= CXDiagnostic_Error && !gcc_only) {
      /* The driver's diagnostics have no location at all; one in a macro
       * from the command line (-D) or a missing -include'd file has a
       * location without a file, and is an error in the code. */
      int located = !clang_equalLocations(clang_getDiagnosticLocation(d), clang_getNullLocation());
      CXString s = clang_formatDiagnostic(d, CXDiagnostic_DisplaySourceLocation | CXDiagnostic_DisplayColumn);
      if (located) {
        if (++errors <= FE_MAX_ERRORS)
          vec_push(msgs, fe_diag_text(job, clang_getDiagnosticLocation(d), clang_getCString(s)));
      } else {
        vec_push(msgs, xasprintf("%s: warning: compiler flags: %s", job->file, clang_getCString(s)));
      }
      clang_disposeString(s);
    }
    clang_disposeDiagnostic(d);
  }
  if (errors > FE_MAX_ERRORS)
    vec_push(msgs, xasprintf("%s: error: too many errors emitted, %d more not shown", job->file,
                             errors - FE_MAX_ERRORS));
  return errors;
}

/* `#pragma weak name` (and `#pragma weak name = target`) makes a function
 * replaceable at link time, with no attribute in the AST: found in the
 * main file's text. */
static void fe_scan_pragma_weak(fe_tu *t, const char *path)
{
  size_t size = 0;
  const char *text = fe_file_text(t->tu, clang_getFile(t->tu, path), &size);
  if (!text) return;
  const char *end = text + size;
  for (const char *p = text; p < end && (p = memmem(p, (size_t)(end - p), "pragma", 6)); p += 6) {
    const char *q = p + 6;
    while (q < end && (*q == ' ' || *q == '\t')) q++;
    if (end - q < 5 || strncmp(q, "weak", 4) != 0 || !(q[4] == ' ' || q[4] == '\t')) continue;
    q += 4;
    while (q < end && (*q == ' ' || *q == '\t')) q++;
    const char *id = q;
    while (q < end && (isalnum((unsigned char)*q) || *q == '_')) q++;
    if (q > id) {
      if (!t->weak) t->weak = strtab_new();
      strtab_intern_n(t->weak, id, (size_t)(q - id));
    }
  }
}

/* A function whose every path ends in a noreturn call never returns, as if
 * declared so (GCC infers this too): its callers' paths into it end there.
 * Walks again, until no new such function appears, when the first pass
 * found some (the usual fatal()/die() helper without _Noreturn). Earlier
 * walks' records stay in the vectors unused: summaries are written per
 * function range. */
static void fe_walk_def(fe_tu *t, size_t i)
{
  uint32_t fi = t->def_funcs.v[i];
  if (fw_walk_function(t, fi, t->defs.v[i]) && !(t->sum->funcs.v[fi].flags & SFF_NORETURN)) {
    t->sum->funcs.v[fi].flags |= SFF_NORETURN;
    t->new_noreturn = 1;
  }
}

static void fe_infer_noreturn(fe_tu *t)
{
  for (int round = 0; round < 8 && t->new_noreturn; round++) {
    t->new_noreturn = 0;
    for (size_t i = 0; i < t->defs.n; i++) fe_walk_def(t, i);
  }
}

typedef struct { fe_tu *t; } top_ctx;

/* Every function declared or defined at file scope: definitions are walked,
 * declarations the project wrote are recorded for `suggest` and `fix`. */
static enum CXChildVisitResult fe_top(CXCursor c, CXCursor parent, CXClientData d)
{
  fe_tu *t = ((top_ctx *)d)->t;
  if (clang_getCursorKind(c) == CXCursor_MacroDefinition) {
    /* Where its name is: both readers start there (one libclang call). */
    CXFile f = NULL;
    unsigned at = fe_expansion_offset(clang_getCursorLocation(c), &f);
    fe_fix_macro(t, c, f, at);
    fe_cleanup_macro(t, f, at);
  }
  if (clang_getCursorKind(c) == CXCursor_VarDecl) {
    fe_slot_define(t, c);
    fe_frozen_note_init(t, c);
    fe_rotable_define(t, c);
    fe_fnfield_scan_init(t, c);
  }
  if (clang_getCursorKind(c) != CXCursor_FunctionDecl) return CXChildVisit_Continue;
  int is_def = clang_isCursorDefinition(c);
  int sys = clang_Location_isInSystemHeader(clang_getCursorLocation(c));
  if (sys && !is_def) return CXChildVisit_Continue;   /* added when called */
  uint32_t fi = fe_func_for(t, c);
  if (!sys) {
    sum_decl decl = { .func = fi, .loc = fe_cursor_loc(t, c), .declared = fe_decl_attrs(t, c), .is_def = (uint8_t)is_def };
    uint32_t *dropped = ptrmap_get(&t->void_attrs, fe_loc_key(decl.loc));
    if (dropped) {
      decl.declared |= (uint8_t)*dropped;
      t->sum->funcs.v[fi].declared |= (uint8_t)*dropped;
    }
    fe_fix_decl(t, c, &decl);
    uint8_t c23 = fe_c23_decl_attrs(t, c, &decl);
    decl.declared |= c23;
    t->sum->funcs.v[fi].declared |= c23;
    vec_push(&t->sum->decls, decl);
  }
  if (!is_def) fe_alias_note(t, c, fi);
  if (is_def && !(t->sum->funcs.v[fi].flags & SFF_BODY)) {
    vec_push(&t->defs, c);
    vec_push(&t->def_funcs, fi);
    fe_walk_def(t, t->defs.n - 1);
  }
  return CXChildVisit_Continue;
}

void fe_deps_free(fe_deps *d)
{
  for (size_t i = 0; i < d->n; i++) free(d->v[i].path);
  vec_free(d);
}

typedef struct { CXTranslationUnit tu; const fe_pch *pch; fe_deps *deps; ptrmap seen; } deps_ctx;

/* fe_inclusions visitor: one fe_dep per file, hashed from the buffer
 * libclang parsed (not re-read from disk, which may have changed since). */
static void fe_dep_visit(const fe_incl *in, void *data)
{
  deps_ctx *c = data;
  uint64_t key = (uint64_t)(uintptr_t)in->file;
  if (!in->file || ptrmap_get(&c->seen, key)) return;
  ptrmap_put(&c->seen, key, 1);
  char *path = fe_file_path(in->file);
  if (fe_ccview_is_virtual(path)) { free(path); return; }   /* in memory: the cache keys on its digest */
  size_t size = 0;
  const char *text = fe_pch_file_text(c->pch, c->tu, in->file, &size);
  fe_dep d = { path, size, XXH3_64bits(text ? text : "", text ? size : 0), in->depth == 0 };
  vec_push(c->deps, d);
}

static void fe_collect_deps(CXTranslationUnit tu, const fe_pch *pch, fe_deps *deps)
{
  deps_ctx c = { tu, pch, deps, {0} };
  fe_inclusions(tu, pch, fe_dep_visit, &c);
  ptrmap_free(&c.seen);
}

fe_status fe_summarize(CXIndex idx, const fe_job *job, const kb *kb, sum_tu **out, fe_msgs *msgs)
{
  return fe_summarize_deps(idx, job, kb, out, msgs, NULL);
}

/* An @FILE argument still in the flags is one cdb_expand_rsp could not
 * read: gcc fails ("No such file or directory"), libclang silently drops
 * it, and with it the flags it held. A FIFO or a device would block or
 * never end, a file naming itself never stop (issue 23 item 13): the TU
 * fails, naming the file and why. */
static int fe_check_response_files(const fe_job *job, fe_msgs *msgs)
{
  int n;
  char *why = NULL;
  char **argv = cdb_expand_rsp(job->dir, job->argv, job->argc, &n, &why);
  cdb_argv_free(argv, n);
  if (!why) return 0;
  vec_push(msgs, xasprintf("%s: error: %s", job->file, why));
  free(why);
  return -1;
}

fe_status fe_parse_in_process(void *idx, const fe_job *job, const kb *kb, sum_tu **out, fe_msgs *msgs,
                              fe_deps *deps)
{
  return fe_summarize_deps((CXIndex)idx, job, kb, out, msgs, deps);
}

/* Parses job with its prefix's PCH (pch.h): the flags plus -include-pch,
 * the unsaved files plus the prefix header. Fails (the TU disposed) when
 * the result would not be an unshared parse's. */
static enum CXErrorCode fe_parse_with_pch(CXIndex idx, const fe_job *job, char **argv, int argc,
                                          const struct CXUnsavedFile *unsaved, unsigned nunsaved, unsigned opts,
                                          const fe_pch *pch, CXTranslationUnit *tu)
{
  VEC(const char *) av = {0};
  for (int i = 0; i < argc; i++) vec_push(&av, argv[i]);
  vec_push(&av, "-include-pch");
  vec_push(&av, fe_pch_path(pch));
  struct CXUnsavedFile uf[3];
  unsigned n = 0;
  for (unsigned i = 0; i < nunsaved && n < 1; i++) uf[n++] = unsaved[i];
  uf[n++] = fe_pch_unsaved(pch);
  uf[n++] = fe_pch_main(pch);
  enum CXErrorCode ec = clang_parseTranslationUnit2(idx, job->file, av.v, (int)av.n, uf, n, opts, tu);
  vec_free(&av);
  if (ec == CXError_Success && *tu && !fe_pch_usable(pch, *tu)) {
    clang_disposeTranslationUnit(*tu);
    *tu = NULL;
    ec = CXError_Failure;
  }
  return ec;
}

/* Parses and summarises job with one view of the preprocessor. */
static fe_status fe_summarize_view(CXIndex idx, const fe_job *job, const fe_ccview *view, const kb *kb,
                                   sum_tu **out, fe_msgs *msgs, fe_deps *deps)
{
  int argc;
  char **argv = fe_argv_view(job, view, &argc);
  CXTranslationUnit tu = NULL;
  struct CXUnsavedFile vh = { fe_ccview_path(view), NULL, 0 };
  size_t vlen = 0;
  vh.Contents = fe_ccview_text(view, &vlen);
  vh.Length = (unsigned long)vlen;
  /* The detailed preprocessing record shows macro definitions: fix uses
   * the project's own attribute macros (frontend/fixfacts.c). */
  unsigned opts = CXTranslationUnit_KeepGoing | CXTranslationUnit_VisitImplicitAttributes
                | CXTranslationUnit_DetailedPreprocessingRecord;
  fe_pch *pch = fe_pch_for(idx, job, argv, argc, &vh, vh.Filename ? 1 : 0, opts);
  enum CXErrorCode ec = pch ? fe_parse_with_pch(idx, job, argv, argc, &vh, vh.Filename ? 1 : 0, opts, pch, &tu)
                            : CXError_Failure;
  if (ec != CXError_Success) {   /* no shared prefix, or it did not serve: as before */
    fe_pch_free(pch);
    pch = NULL;
    ec = clang_parseTranslationUnit2(idx, job->file, (const char *const *)argv, argc, vh.Filename ? &vh : NULL,
                                     vh.Filename ? 1 : 0, opts, &tu);
  }
  free(argv[0]);
  free(argv);
  *out = NULL;
  if (ec != CXError_Success || !tu) {
    fe_pch_free(pch);
    vec_push(msgs, xasprintf("%s: error: libclang could not parse this file (error %d)", job->file, (int)ec));
    return FE_FAILED;
  }
  fe_tu t;
  memset(&t, 0, sizeof t);
  t.tu = tu;
  t.pch = pch;
  t.kb = kb;
  t.sum = summary_new();
  t.build_dir = fe_build_dir(job);
  fe_pic_flags(job, &t.pic, &t.interpose);
  t.no_strict_alias = fe_no_strict_alias(job);
  t.args_rtl = fe_args_right_to_left(tu);
  t.sum->main_file = fe_file_id(&t, clang_getFile(tu, job->file));
  if (!t.sum->main_file) t.sum->main_file = strtab_intern(t.sum->strs, job->file);
  if (fe_pp_wanted(job)) fe_pp_start(&t, job);
  if (fe_no_math_errno(job)) t.sum->flags |= STF_NO_MATH_ERRNO;
  if (fe_c23_std(job)) t.sum->flags |= STF_STD_C23;
  fe_status st = FE_OK;
  if (fe_collect_diags(&t, job, msgs) > 0) {
    /* With errors the AST has holes (calls to implicitly declared functions,
     * dropped statements): none of its bodies can be trusted. */
    t.sum->flags |= STF_PARSE_FAILED;
    st = FE_ERRORS;
  } else {
    fe_scan_pragma_weak(&t, job->file);
    top_ctx ctx = { &t };
    clang_visitChildren(clang_getTranslationUnitCursor(tu), fe_top, &ctx);
    fe_alias_finish(&t);
    fe_fix_finish(&t);
    fe_infer_noreturn(&t);
    fe_rotable_lookups(&t);
    fe_frozen_finish(&t);
  }
  if (deps) fe_collect_deps(tu, t.pch, deps);
  ptrmap_free(&t.funcs);
  ptrmap_free(&t.files);
  ptrmap_free(&t.void_attrs);
  ptrmap_free(&t.hashed);
  ptrmap_free(&t.texts);
  vec_free(&t.text_v);
  ptrmap_free(&t.inl_fns);
  ptrmap_free(&t.slot_fns);
  ptrmap_free(&t.rel_fns);
  ptrmap_free(&t.rel_pte_fns);
  ptrmap_free(&t.cleanup_macros);
  ptrmap_free(&t.strip_memo);
  ptrmap_free(&t.strip_idx);
  vec_free(&t.strip_v);
  vec_free(&t.cleanup_m);
  vec_free(&t.slots);
  vec_free(&t.inl_spans);
  vec_free(&t.inls);
  free(t.build_dir);
  ptrmap_free(&t.ro_values);
  ptrmap_free(&t.static_written);
  ptrmap_free(&t.ret_rodata);
  vec_free(&t.fix_macros);
  vec_free(&t.fix_decls);
  strtab_free(t.weak);
  fe_cond_free(&t);
  fe_pp_free(t.pp);
  vec_free(&t.defs);
  vec_free(&t.def_funcs);
  vec_free(&t.c23);
  vec_free(&t.gnu_hidden);
  vec_free(&t.aliases);
  ptrmap_free(&t.init_refs);
  clang_disposeTranslationUnit(tu);
  fe_pch_free(pch);
  *out = t.sum;
  return st;
}

/* Moves into deps the files of more it does not list yet (the summary
 * cache must see every file either view read). */
static void fe_deps_merge(fe_deps *deps, fe_deps *more)
{
  ptrmap seen = {0};
  for (size_t i = 0; i < deps->n; i++) ptrmap_put(&seen, XXH3_64bits(deps->v[i].path, strlen(deps->v[i].path)) | 1, 1);
  for (size_t i = 0; i < more->n; i++) {
    fe_dep *d = &more->v[i];
    uint64_t h = XXH3_64bits(d->path, strlen(d->path)) | 1;
    if (ptrmap_get(&seen, h)) continue;
    ptrmap_put(&seen, h, 1);
    d->main = false;   /* the main file is listed once, first */
    vec_push(deps, *d);
    d->path = NULL;
  }
  ptrmap_free(&seen);
}

/* The first error among msgs, for the fallback's message. */
static const char *fe_first_error(const fe_msgs *m)
{
  for (size_t i = 0; i < m->n; i++)
    if (strstr(m->v[i], "error: ") && !strstr(m->v[i], ": warning: ")) return m->v[i];
  return m->n ? m->v[0] : "(no message)";
}

/* The fallback's warning, quoting the first error with the compiler's
 * macros without its "error: " (the line is a warning: scripts count
 * errors by that word). */
static char *fe_fallback_text(const fe_job *job, const char *cc, const char *err)
{
  const char *e = strstr(err, " error: ");
  return xasprintf("%s: warning: " FE_CCVIEW_FELL_BACK " %s, its compiler (%.*s%s), so it was %s; "
                   "#if tests of __GNUC__ or __clang__ in it follow clang (--compiler-view=clang: "
                   "every file so, without this warning)",
                   job->file, cc, e ? (int)(e - err + 1) : 0, err, e ? e + 8 : err,
                   FE_MSG_CLANG_MACROS);
}

/* "UTF-16LE"/"UTF-16BE" (or UTF-32) if the file starts with that byte
 * order mark, else NULL. libclang reads such a file as garbage and only
 * the compiler-view check said anything ("warning: compiler flags"), with
 * exit 0 and nothing analysed. */
static const char *fe_utf16_bom(const char *path)
{
  unsigned char b[4] = {0};
  FILE *f = fopen(path, "rb");
  size_t n = f ? fread(b, 1, sizeof b, f) : 0;
  if (f) fclose(f);
  if (n >= 4 && !memcmp(b, "\xFF\xFE\0\0", 4)) return "UTF-32LE";
  if (n >= 4 && !memcmp(b, "\0\0\xFE\xFF", 4)) return "UTF-32BE";
  if (n >= 2 && b[0] == 0xFF && b[1] == 0xFE) return "UTF-16LE";
  if (n >= 2 && b[0] == 0xFE && b[1] == 0xFF) return "UTF-16BE";
  return NULL;
}

fe_status fe_summarize_deps(CXIndex idx, const fe_job *job, const kb *kb, sum_tu **out, fe_msgs *msgs,
                            fe_deps *deps)
{
  *out = NULL;
  const char *lc_why;
  if (!idx && lc_load(&lc_why) < 0) {   /* clang_createIndex gave none: libclang is not there */
    vec_push(msgs, xasprintf("%s: error: %s; it is not analysed", job->file, lc_why));
    return FE_FAILED;
  }
  if (access(job->file, R_OK) != 0) {   /* libclang would only say "error 1" */
    vec_push(msgs, xasprintf("%s: error: %s", job->file, strerror(errno)));
    return FE_FAILED;
  }
  if (fe_check_response_files(job, msgs) < 0) return FE_FAILED;
  struct stat sb;   /* a FIFO would block libclang's read until a writer comes */
  if (stat(job->file, &sb) == 0 && !S_ISREG(sb.st_mode)) {
    vec_push(msgs, xasprintf("%s: error: %s", job->file,
                             S_ISDIR(sb.st_mode) ? "is a directory" : "not a regular file"));
    return FE_FAILED;
  }
  const char *enc = fe_utf16_bom(job->file);
  if (enc) {
    vec_push(msgs, xasprintf("%s: error: the file is %s (it starts with a byte order mark); C compilers "
                             "read UTF-8: convert it (iconv -f %s -t UTF-8)", job->file, enc, enc));
    return FE_FAILED;
  }
  const fe_ccview *view = fe_ccview_for(job);
  if (!fe_ccview_path(view)) return fe_summarize_view(idx, job, NULL, kb, out, msgs, deps);
  fe_msgs gcc_msgs = {0};
  fe_status st = fe_summarize_view(idx, job, view, kb, out, &gcc_msgs, deps);
  if (st == FE_OK) {
    for (size_t i = 0; i < gcc_msgs.n; i++) vec_push(msgs, gcc_msgs.v[i]);
    vec_free(&gcc_msgs);
    return st;
  }
  /* GCC's macros made clang fail (a GCC-only builtin or type in a
   * header): clang's view, as before, and say so. If that fails too, its
   * errors are the ones shown: they are in the code, not in the view. */
  summary_free(*out);
  *out = NULL;
  fe_deps gcc_deps = {0};   /* kept if clang's view fails too: both failures are the result */
  if (deps) { gcc_deps = *deps; memset(deps, 0, sizeof *deps); }
  fe_msgs clang_msgs = {0};
  st = fe_summarize_view(idx, job, NULL, kb, out, &clang_msgs, deps);
  if (deps && st != FE_OK) fe_deps_merge(deps, &gcc_deps);
  fe_deps_free(&gcc_deps);
  if (st == FE_OK)
    vec_push(msgs, fe_fallback_text(job, fe_ccview_compiler(view), fe_first_error(&gcc_msgs)));
  else
    vec_push(msgs, xasprintf("%s: note: it parses neither with the predefined macros of %s, its compiler, "
                             FE_CCVIEW_BOTH_FAIL ": the errors below are in the code or in its flags "
                             "(include paths, -D)", job->file, fe_ccview_compiler(view)));
  for (size_t i = 0; i < clang_msgs.n; i++) vec_push(msgs, clang_msgs.v[i]);
  vec_free(&clang_msgs);
  fe_msgs_free(&gcc_msgs);
  return st;
}
