/* verify_proto.c — the prototypes of the watched functions, for the wrappers.
 *
 * The summaries know a function's parameters only by count, so the TUs that
 * define watched external functions are parsed again, declarations only
 * (CXTranslationUnit_SkipFunctionBodies), and each function's canonical
 * types are reduced to what the x86-64/AArch64 calling conventions see: a
 * scalar keeps its C spelling, every pointer becomes `void *` (one class
 * for all pointers), an enum its integer type. Wrappers then need none of
 * the project's headers. A struct, union or vector by value would need its
 * layout: such functions are not wrapped (the hooks still watch them). */
#include "verify/verify.h"
#include "frontend/fe.h"
#include <string.h>

static const char *S(const link_prog *p, uint32_t id) { return strtab_get(p->strs, id); }

/* The plain C spelling of a canonical scalar type, or NULL. */
static const char *proto_spell(CXType t)
{
  t = clang_getCanonicalType(t);
  switch (t.kind) {
  case CXType_Void: return "void";
  case CXType_Bool: return "_Bool";
  case CXType_Char_S: case CXType_SChar: return "signed char";
  case CXType_Char_U: case CXType_UChar: return "unsigned char";
  case CXType_Short: return "short";
  case CXType_UShort: return "unsigned short";
  case CXType_Int: return "int";
  case CXType_UInt: return "unsigned int";
  case CXType_Long: return "long";
  case CXType_ULong: return "unsigned long";
  case CXType_LongLong: return "long long";
  case CXType_ULongLong: return "unsigned long long";
  case CXType_Int128: return "__int128";
  case CXType_UInt128: return "unsigned __int128";
  case CXType_Float: return "float";
  case CXType_Double: return "double";
  case CXType_LongDouble: return "long double";
  case CXType_Pointer: case CXType_BlockPointer: return "void *";
  case CXType_Enum: return proto_spell(clang_getEnumDeclIntegerType(clang_getTypeDeclaration(t)));
  default: return NULL;
  }
}

static void proto_free(verify_proto *pr)
{
  free(pr->name);
  free(pr->ret);
  for (size_t i = 0; i < pr->params.n; i++) free(pr->params.v[i]);
  vec_free(&pr->params);
}

void verify_protos_free(verify_protos *ps)
{
  for (size_t i = 0; i < ps->n; i++) proto_free(&ps->v[i]);
  vec_free(ps);
}

typedef struct {
  const link_prog *p;
  const verify_watch *w;
  bool *done;                 /* per watch entry: prototype found */
  verify_protos *out;
  verify_lines *skipped;
} proto_ctx;

/* Fills a prototype from a function declaration; false (with a reason in
 * *why) if it cannot be wrapped. */
static bool proto_from_cursor(CXCursor c, const char *name, verify_proto *pr, const char **why)
{
  CXType ft = clang_getCursorType(c);
  memset(pr, 0, sizeof *pr);
  if (clang_isFunctionTypeVariadic(ft)) { *why = "it is variadic"; return false; }
  const char *ret = proto_spell(clang_getResultType(ft));
  if (!ret || !strcmp(ret, "void")) { *why = "its result is not a scalar or a pointer"; return false; }
  pr->name = xstrdup(name);
  pr->ret = xstrdup(ret);
  int n = clang_getNumArgTypes(ft);
  for (int i = 0; i < n; i++) {
    CXType at = clang_getArgType(ft, (unsigned)i);
    const char *sp = proto_spell(at);
    if (!sp || !strcmp(sp, "void")) { *why = "a parameter is not a scalar or a pointer"; return false; }
    vec_push(&pr->params, xstrdup(sp));
    if (!strcmp(sp, "void *") && i < 64) pr->ptr_params |= (uint64_t)1 << i;
  }
  return true;
}

static enum CXChildVisitResult proto_visit(CXCursor c, CXCursor parent, CXClientData data)
{
  proto_ctx *x = data;
  if (clang_getCursorKind(c) != CXCursor_FunctionDecl || clang_getCursorLinkage(c) != CXLinkage_External)
    return CXChildVisit_Continue;
  CXString cs = clang_getCursorSpelling(c);
  const char *name = clang_getCString(cs);
  const verify_fn *v = verify_watch_find(x->w, name);
  size_t wi = v ? (size_t)(v - x->w->v) : 0;
  if (v && !x->done[wi] && x->p->funcs.v[v->fi].linkage == SUM_EXTERNAL) {
    verify_proto pr;
    const char *why = NULL;
    x->done[wi] = true;
    if (proto_from_cursor(c, name, &pr, &why)) {
      vec_push(x->out, pr);
    } else {
      vec_push(x->skipped, xasprintf("'%s' is not wrapped: %s", name, why));
      proto_free(&pr);
    }
  }
  clang_disposeString(cs);
  return CXChildVisit_Continue;
}

/* Does job define one of the watched external functions still missing? */
static bool proto_job_wanted(const link_prog *p, const verify_watch *w, const bool *done, const fe_job *job)
{
  for (size_t i = 0; i < w->n; i++) {
    const link_func *f = &p->funcs.v[w->v[i].fi];
    if (!done[i] && !strcmp(S(p, f->loc.file), job->file)) return true;
  }
  return false;
}

/* Parses one TU, declarations only, and collects the prototypes it defines. */
static void proto_parse(CXIndex idx, const fe_job *job, proto_ctx *x)
{
  int argc;
  char **argv = fe_clang_argv(job, &argc);
  CXTranslationUnit tu = NULL;
  unsigned opts = CXTranslationUnit_SkipFunctionBodies | CXTranslationUnit_KeepGoing;
  if (clang_parseTranslationUnit2(idx, job->file, (const char *const *)argv, argc, NULL, 0, opts, &tu)
      == CXError_Success && tu) {
    clang_visitChildren(clang_getTranslationUnitCursor(tu), proto_visit, x);
    clang_disposeTranslationUnit(tu);
  }
  fe_clang_argv_free(argv);
}

void verify_protos_find(const link_prog *p, const verify_watch *w, const fe_jobs *jobs,
                        verify_protos *out, verify_lines *skipped)
{
  bool *done = xcalloc(w->n ? w->n : 1, sizeof *done);
  for (size_t i = 0; i < w->n; i++) {   /* static functions cannot be wrapped: calls to them stay in their TU */
    const link_func *f = &p->funcs.v[w->v[i].fi];
    done[i] = f->linkage != SUM_EXTERNAL;
  }
  proto_ctx x = { p, w, done, out, skipped };
  CXIndex idx = clang_createIndex(0, 0);   /* loads libclang: NULL if it cannot */
  const char *why;
  if (!idx && lc_load(&why) < 0) vec_push(skipped, xasprintf("no function is wrapped: %s", why));
  for (size_t j = 0; idx && j < jobs->n; j++)
    if (proto_job_wanted(p, w, done, &jobs->v[j])) proto_parse(idx, &jobs->v[j], &x);
  if (idx) clang_disposeIndex(idx);
  for (size_t i = 0; i < w->n; i++)
    if (!done[i]) vec_push(skipped, xasprintf("'%s' is not wrapped: no compile command defines it", w->v[i].name));
  free(done);
}
