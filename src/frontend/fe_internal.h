/* fe_internal.h — state shared by the front end's files (not for other modules). */
#ifndef PURIST_FE_INTERNAL_H
#define PURIST_FE_INTERNAL_H
#include <clang-c/Index.h>
#include "frontend/fe.h"
#include "util/ptrmap.h"

/* A macro definition or declaration whose TU order fixfacts.c needs. */
typedef struct {
  size_t index;             /* into sum->macros or sum->decls */
  CXSourceLocation loc;
} fe_pending;

/* A C23 attribute clang parsed and ignored (c23attr.c). */
typedef struct {
  CXFile file;              /* expansion location: where the text is */
  unsigned off;
  uint32_t line, col, end_col;  /* its name, or the macro's use */
  uint32_t macro;           /* the macro spelling it, 0 if written out */
  uint8_t kind;             /* SUM_DECL_REPRODUCIBLE or SUM_DECL_UNSEQUENCED */
} fe_c23_attr;

/* One TU being summarised. */
typedef struct {
  CXTranslationUnit tu;
  sum_tu *sum;
  const kb *kb;
  ptrmap funcs;   /* canonical FunctionDecl → index in sum->funcs */
  ptrmap files;   /* CXFile → string id of its absolute path */
  ptrmap void_attrs;  /* location key → SUM_DECL_VOID_*: attributes clang dropped */
  strtab *weak;       /* names made weak by `#pragma weak` in the main file */
  VEC(CXCursor) defs; /* the definitions walked, for a second pass */
  VEC(uint32_t) def_funcs;
  int new_noreturn;   /* a walk found a body that never returns */
  struct fe_pp *pp;   /* preprocessed input: names from line markers (preproc.c); else NULL */
  VEC(fe_pending) fix_macros, fix_decls;   /* attribute macros and declarations, for fe_fix_finish */
  ptrmap hashed;      /* file ids whose content hash is recorded */
  CXSourceRangeList *skipped;   /* #if branches not taken (condfacts.c), once asked; else NULL */
  strtab *skipped_defs;         /* names of functions defined in them */
  VEC(fe_c23_attr) c23;         /* [[reproducible]] / [[unsequenced]] seen (c23attr.c) */
  ptrmap ro_values;   /* read-only global's definition → PROV_* of the pointers it holds (rodata.c) */
} fe_tu;

/* A key for a source location in ptrmaps. */
uint64_t fe_loc_key(sum_loc l);

/* The identity of a declaration cursor. CXCursor is a public struct whose
 * data[0] is the declaration's address for declaration cursors: unique and
 * stable for the life of the TU, so it serves as a map key. */
static inline uint64_t fe_decl_key(CXCursor c) { return (uint64_t)(uintptr_t)c.data[0]; }

/* decl.c */
/* The file's absolute path: its real path if libclang knows it, else its
 * name made absolute against the current directory. Caller frees. */
char *fe_file_path(CXFile f);
/* The text libclang parsed for file f, or NULL (and *size 0). A location
 * with no file (a command-line or built-in macro, the predefines buffer)
 * has f NULL, which clang_getFileContents would dereference. */
const char *fe_file_text(CXTranslationUnit tu, CXFile f, size_t *size);
uint32_t fe_file_id(fe_tu *t, CXFile f);
sum_loc fe_loc(fe_tu *t, CXSourceLocation l);
sum_loc fe_cursor_loc(fe_tu *t, CXCursor c);
/* Index of the function `fn` (any declaration of it) in the summary, adding
 * it with its declared facts (attributes, noreturn, linkage…) if new. */
uint32_t fe_func_for(fe_tu *t, CXCursor fn);
/* SUM_DECL_* attributes written on this one declaration. */
uint8_t fe_decl_attrs(fe_tu *t, CXCursor fn);
/* Does a token of the attribute cursor's source text equal one of words? */
int fe_attr_has_word(CXTranslationUnit tu, CXCursor attr, const char *const *words);
/* True if the function (by index) never returns: declared so or known so. */
int fe_func_noreturn(fe_tu *t, uint32_t fi);

/* spelling.c: the identifier written at l (in a macro's definition when l
 * comes from one) into buf; returns its length, 0 if none or too long. */
size_t fe_spelled_ident(CXTranslationUnit tu, CXSourceLocation l, char *buf, size_t n);
/* The outermost macro whose expansion holds l, when l is spelled inside a
 * macro (its body or an argument): its name as a string id; else 0. */
uint32_t fe_macro_of(fe_tu *t, CXSourceLocation l);

/* rodata.c: is t read-only (const at some level of an array type, never
 * volatile)? */
int fe_type_readonly(CXType t);
/* The global variable an lvalue expression lies in (`g`, `g.f`, `g[i]`,
 * not through pointers), or a null cursor. */
CXCursor fe_global_root(CXCursor e);
/* Where the pointers held by the read-only global decl point (PROV_*),
 * from its initializer: PROV_UNKNOWN if not read-only or not known. */
uint64_t fe_static_prov(fe_tu *t, CXCursor decl);

/* condfacts.c: does the class of function fn (a declaration spanning
 * [lo, hi) of file) hold only for this configuration? True when a skipped
 * #if branch defines the same name or, for a definition, lies in its body. */
int fe_cond_dependent(fe_tu *t, CXCursor fn, int is_def, CXFile file, unsigned lo, unsigned hi);
void fe_cond_free(fe_tu *t);

/* preproc.c: is the job's file preprocessed output (.i)? Then fe_pp_start
 * (after parsing) takes file names and lines from its line markers, and
 * sets the summary's main file to the first marker's. */
int fe_pp_wanted(const fe_job *job);
void fe_pp_start(fe_tu *t, const fe_job *job);
sum_loc fe_pp_loc(fe_tu *t, CXSourceLocation l);
void fe_pp_free(struct fe_pp *pp);
/* Does this expression text hold a reserved identifier (`__x`, `_X`)? In
 * preprocessed input it most likely came from a library macro (errno is
 * `(*__errno_location ())`), which infer does not name: neither do we. */
int fe_pp_from_library(const char *text);
/* fixfacts.c: what fix needs (extents, attribute spellings, macros, hashes). */
int fe_attr_in_decl(fe_tu *t, CXFile file, unsigned lo, unsigned hi, CXCursor attr);
void fe_fix_macro(fe_tu *t, CXCursor macro_definition);
void fe_fix_decl(fe_tu *t, CXCursor fn, sum_decl *d);   /* before d is pushed */
void fe_fix_finish(fe_tu *t);   /* after the last declaration */

/* c23attr.c: C23 [[reproducible]] / [[unsequenced]]. fe_c23_note_diag
 * records one from clang's "unknown attribute ignored" warning;
 * fe_c23_decl_attrs returns the SUM_DECL_* bits of those written after
 * declaration fn's declarator and, if d, appends them to its attributes
 * (call after fe_fix_decl). fe_c23_macro_kind: the attribute a macro body
 * `[[unsequenced]]` spells, 0 if not one. fe_c23_std: do the flags say C23? */
void fe_c23_note_diag(fe_tu *t, CXDiagnostic d);
uint8_t fe_c23_decl_attrs(fe_tu *t, CXCursor fn, sum_decl *d);
uint8_t fe_c23_macro_kind(char **tok, unsigned n);
int fe_c23_std(const fe_job *job);

/* walk_stmt.c: records the effects and calls of the definition `fn` into
 * sum->funcs[fi] (replacing an earlier walk's); returns non-zero if every
 * path through the body ends in a noreturn call. */
int fw_walk_function(fe_tu *t, uint32_t fi, CXCursor fn);

/* Strips parentheses and implicit casts (UnexposedExpr with one child of
 * the same extent). */
CXCursor fe_strip(CXCursor c);
CXType fe_canon_type(CXCursor c);
int fe_type_is_pointer(CXType t);
int fe_type_is_array(CXType t);

#endif
