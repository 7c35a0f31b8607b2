/* fe_internal.h — state shared by the front end's files (not for other modules). */
#ifndef PURIST_FE_INTERNAL_H
#define PURIST_FE_INTERNAL_H
#include "libclang/lc.h"
#include "frontend/fe.h"
#include "util/ptrmap.h"

/* ccview.c: the build compiler's predefined macros, as a virtual header
 * under FE_CCVIEW_DIR (no such directory exists: libclang reads it from
 * memory). NULL or a view without text: clang's own view. */
#define FE_CCVIEW_DIR "/.purist-compiler-view/"
typedef struct fe_ccview fe_ccview;
/* The fallback's messages (parse.c), which fe_ccview_counted reads back;
 * FE_MSG_CLANG_MACROS ends every message saying clang's macros were used. */
#define FE_CCVIEW_FELL_BACK "does not parse with the predefined macros of"
#define FE_CCVIEW_BOTH_FAIL "nor with clang's own"
const fe_ccview *fe_ccview_for(const fe_job *job);
const char *fe_ccview_text(const fe_ccview *v, size_t *len);
const char *fe_ccview_path(const fe_ccview *v);     /* NULL: no GCC view */
const char *fe_ccview_compiler(const fe_ccview *v);
bool fe_ccview_is_virtual(const char *path);

/* cleanup.c: a macro spelling a cleanup attribute names its handler
 * (a string id), or takes it as parameter `param` (else -1). */
struct fe_cleanup_macro { uint32_t handler; int param; };

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

/* A GCC-only attribute clang ignored that hides a body from GCC's
 * callers: noipa, optimize("O0") (gnuattr.c). */
typedef struct {
  CXFile file;              /* expansion location of its name */
  unsigned off;
} fe_gnu_attr;

/* A declaration with an alias attribute (alias.c). */
typedef struct {
  uint32_t func;            /* the alias, in sum->funcs */
  uint32_t target;          /* the target's name (string id) */
} fe_alias;

/* One TU being summarised. */
/* inline.c: a call a tiny function makes, as its parameters par[0..npar)
 * passed on; and one function's run of them in fe_tu.inls. */
/* inline.c: a call a tiny function's body makes, copied where it is
 * inlined; head: the body's first call, nothing stored before it. */
struct fe_inl { uint32_t callee; uint8_t npar; int16_t par[4]; uint8_t head; };
struct fe_inl_span { uint32_t off, n; };
/* slot.c: a function's hand-back through its slot parameter `param`:
 * what `*param = v` stores (provenance in its terms), and the bits of it
 * that are no plain copy. */
struct fe_slot { uint32_t param; uint64_t back, inexact; };
/* types.c: a cursor fe_strip was asked about, and its answer. */
struct fe_strip_ent { CXCursor in, out; bool casts; };

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
  struct fe_skip { unsigned off; CXFile file; } *skipped_live;   /* where each range that is no
                                   `#if 0` starts, by offset (condfacts.c) */
  size_t nlive;
  struct fe_cfgstub *cfgstub;   /* the TU's names and macros, once a stub is judged (cfgstub.c) */
  VEC(fe_c23_attr) c23;         /* [[reproducible]] / [[unsequenced]] seen (c23attr.c) */
  VEC(fe_gnu_attr) gnu_hidden;  /* noipa / optimize("O0") seen (gnuattr.c) */
  VEC(fe_alias) aliases;        /* alias declarations seen (alias.c) */
  ptrmap init_refs;   /* name id + 1 of each variable a file-scope initializer mentions (frozen.c) */
  ptrmap ro_values;   /* read-only global's definition → PROV_* of the pointers it holds (rodata.c) */
  ptrmap static_written;   /* canonical static variable → 1: the main file writes it or takes its
                              address (staticro.c), once static_scanned */
  bool static_scanned;
  ptrmap ret_rodata;   /* function index + 1 → what every return of its body is: null or
                          read-only data, or null or a block it allocated (retro.c) */
  char *build_dir;   /* an out-of-tree build's directory (generated.c), or NULL */
  bool pic;          /* built -fPIC/-fpic (SFF_EXPORTED) */
  bool interpose;    /* and with semantic interposition (SFF_INTERPOSABLE) */
  bool no_strict_alias;  /* built -fno-strict-aliasing: any store may change a pointer (pfield.c) */
  bool args_rtl;     /* the target's GCC evaluates a call's arguments right to left
                        (x86-64, i386): sum_call.late_* (hoist.c) */
  CXFile text_file;   /* the file whose text spelling.c read last, and that text */
  const char *text;
  size_t text_size;
  ptrmap texts;       /* CXFile → index + 1 in text_v: each file's text, asked of libclang once */
  VEC(struct fe_text { const char *s; size_t n; }) text_v;
  const struct fe_pch *pch;   /* the shared prefix's PCH the TU was parsed with (pch.h), or NULL */
  /* inline.c: the calls a tiny function makes unconditionally with its own
   * parameters as arguments, which GCC copies into each caller it inlines
   * it into. inl_fns: function index + 1 → 1 + index into inl_spans. */
  ptrmap inl_fns;
  VEC(struct fe_inl_span) inl_spans;
  VEC(struct fe_inl) inls;
  /* slot.c: the hand-back of each function walked whose slot parameter
   * is used only to load its entry value and to store into it.
   * slot_fns: function index + 1 → 1 + index into slots. */
  ptrmap slot_fns;
  VEC(struct fe_slot) slots;
  /* release.c: function index + 1 → 1 + the parameters a static wrapper
   * of free releases (bit i = parameter i). */
  ptrmap rel_fns;
  ptrmap rel_pte_fns;   /* the same for wrappers releasing what a parameter points to */
  /* cleanup.c: macros that spell a cleanup attribute: name id → 1 + index. */
  ptrmap cleanup_macros;
  VEC(struct fe_cleanup_macro) cleanup_m;
  /* types.c: an UnexposedExpr with one child (by its Stmt) → 1 if it has
   * its child's extent (an implicit conversion, which fe_strip sees
   * through), 2 if not: the passes strip the same nodes again and again,
   * and each answer costs two extents (each relexes a token). */
  ptrmap strip_memo;
  /* types.c: fe_strip's answers, by a hash of the cursor stripped. */
  ptrmap strip_idx;
  VEC(struct fe_strip_ent) strip_v;
} fe_tu;

/* cleanup.c: notes a macro definition that spells a cleanup attribute;
 * its name is at offset name_at of file f (NULL: nowhere to read). */
void fe_cleanup_macro(fe_tu *t, CXFile f, unsigned name_at);

/* generated.c: files the build writes (issue 13, item 11). */
/* Do the first lines of a file say it is generated ("DO NOT EDIT")? */
int fe_generated_text(const char *text, size_t size);
/* The directory of an out-of-tree build the job ran in, or NULL (caller frees). */
char *fe_build_dir(const fe_job *job);
/* Is the file at path (absolute), with this text, generated by the build? */
int fe_generated_file(const fe_tu *t, const char *path, const char *text, size_t size);

/* A key for a source location in ptrmaps. */
uint64_t fe_loc_key(sum_loc l);

/* The identity of a declaration cursor. CXCursor is a public struct whose
 * data[0] is the declaration's address for declaration cursors: unique and
 * stable for the life of the TU, so it serves as a map key. */
static inline uint64_t fe_decl_key(CXCursor c) { return (uint64_t)(uintptr_t)c.data[0]; }

/* text.c: files, their text and locations. */
/* The file's absolute path: its real path if libclang knows it, else its
 * name made absolute against the current directory. Caller frees. */
char *fe_file_path(CXFile f);
/* The text libclang parsed for file f, or NULL (and *size 0). A location
 * with no file (a command-line or built-in macro, the predefines buffer)
 * has f NULL, which clang_getFileContents would dereference. */
const char *fe_file_text(CXTranslationUnit tu, CXFile f, size_t *size);
/* The same, kept per TU: clang_getFileContents looks the file up among
 * all the TU's source entries (every macro expansion is one), so asking
 * it per attribute or per #if range was quadratic on large TUs. */
const char *fe_tu_text(fe_tu *t, CXFile f, size_t *size);
uint32_t fe_file_id(fe_tu *t, CXFile f);
sum_loc fe_loc(fe_tu *t, CXSourceLocation l);
sum_loc fe_cursor_loc(fe_tu *t, CXCursor c);
/* The file offset of l's expansion location (where the user's text is),
 * with its file in *file if file is not NULL. */
unsigned fe_expansion_offset(CXSourceLocation l, CXFile *file);

/* attrtext.c: an attribute's words and the declaration it is written on. */
/* Does a token of the attribute cursor's source text equal one of words? */
int fe_attr_has_word(fe_tu *t, CXCursor attr, const char *const *words);
/* Is the attribute cursor written on the declaration spanning [lo, hi]
 * (file offsets) of file: inside it, or leading it? */
int fe_attr_in_decl(fe_tu *t, CXFile file, unsigned lo, unsigned hi, CXCursor attr);

/* decl.c: the function table. */
/* Index of the function `fn` (any declaration of it) in the summary, adding
 * it with its declared facts (attributes, noreturn, linkage…) if new. */
uint32_t fe_func_for(fe_tu *t, CXCursor fn);
/* fnslot.c: a read-only object's function-pointer members become slots
 * with bodies, for calls reaching them from other TUs. */
void fe_slot_define(fe_tu *t, CXCursor var);
/* SUM_DECL_* attributes written on this one declaration. */
uint8_t fe_decl_attrs(fe_tu *t, CXCursor fn);
/* True if the function (by index) never returns: declared so or known so. */
int fe_func_noreturn(fe_tu *t, uint32_t fi);

/* spelling.c: the identifier written at l (in a macro's definition when l
 * comes from one) into buf; returns its length, 0 if none or too long. */
size_t fe_spelled_ident(fe_tu *t, CXSourceLocation l, char *buf, size_t n);
/* The outermost macro whose expansion holds l, when l is spelled inside a
 * macro (its body or an argument): its name as a string id; else 0. */
uint32_t fe_macro_of(fe_tu *t, CXSourceLocation l);
uint32_t fe_spelling_macro_of(fe_tu *t, CXSourceLocation l);

/* spelling.c: may c be part of a C identifier? */
int fe_ident_char(char c);
/* fixrename.c: the name as written at a declaration whose name token is
 * an object-like macro renaming it to fname (`#define ecc_size
 * nettle_ecc_size`), as a string id; 0 for any other macro. */
uint32_t fe_fix_renamed(fe_tu *t, CXSourceLocation name, CXFile file, unsigned name_off, const char *fname);
/* retro.c: fe_retro_note records, after the walk of function fi (its
 * scratch and pointer-block facts final), whether every value its body
 * returns (ret_mask, PROV_*) is null or read-only data, or null or a block
 * it allocated and lets out no other way; fe_retro_returns_rodata and
 * fe_retro_returns_fresh answer for a call's value. */
void fe_retro_note(fe_tu *t, uint32_t fi, uint64_t ret_mask);
bool fe_retro_returns_rodata(const fe_tu *t, uint32_t fi);
bool fe_retro_returns_fresh(const fe_tu *t, uint32_t fi);
/* rodata.c: is t read-only (const at some level of an array type, never
 * volatile)? */
int fe_type_readonly(CXType t);
/* The global variable an lvalue expression lies in (`g`, `g.f`, `g[i]`,
 * not through pointers), or a null cursor. */
CXCursor fe_global_root(fe_tu *t, CXCursor e);
/* Where the pointers held by the read-only global decl point (PROV_*),
 * from its initializer: PROV_UNKNOWN if not read-only or not known. */
uint64_t fe_static_prov(fe_tu *t, CXCursor decl);
/* staticro.c: is decl a static variable of the main file that no code of
 * the TU writes or takes the address of (so it keeps its initializer's
 * value for the whole run)? */
bool fe_static_unwritten(fe_tu *t, CXCursor decl);

/* attrtext.c: the first offset from i (at most n) of s that is no blank,
 * escaped newline or comment. */
size_t fe_skip_space(const char *s, size_t i, size_t n);

/* condfacts.c: does the class of function fn (a declaration spanning
 * [lo, hi) of file) hold only for this configuration? SDF_CONFIG when a
 * skipped #if branch defines the same name or, for a definition, lies in
 * its body; with SDF_CFG_PURE_OK / SDF_CFG_CONST_OK when those branches
 * are stubs that keep a pure / const class (cfgstub.c); else 0. */
int fe_cond_dependent(fe_tu *t, CXCursor fn, int is_def, CXFile file, unsigned lo, unsigned hi);
void fe_cond_free(fe_tu *t);

/* cfgstub.c: the #if constructs of a definition's text [lo, hi) of file
 * that hold one of the skipped ranges starting at skip[0..nskip), read
 * token by token: FE_STUB_CONST if no branch writes, calls, loops,
 * declares or reads anything but parameters, locals, enumerators and
 * literals; FE_STUB_PURE if they may read memory besides; else
 * FE_STUB_NONE. */
enum { FE_STUB_NONE, FE_STUB_PURE, FE_STUB_CONST };
int fe_cfg_stub_level(fe_tu *t, CXCursor fn, CXFile file, unsigned lo, unsigned hi,
                      const unsigned *skip, size_t nskip);
void fe_cfg_stub_free(fe_tu *t);

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
/* fieldfn.c: function pointers in struct fields (issue 30, item 5). The
 * field a member expression names (its USR's string id), 0 if it is no
 * function-pointer field of a struct of ours. */
uint32_t fe_fnfield_key(fe_tu *t, CXCursor member_expr);
/* The key of a union whose members are all pointers (SUM_UNION_FNFIELD and
 * its USR), 0 for any other union or one inside a union. */
uint32_t fe_fnfield_union_key(fe_tu *t, CXCursor union_decl);
/* The stores an initializer list of a struct makes (w: the walk it is in,
 * NULL at file scope). */
struct fw;
void fe_fnfield_init(fe_tu *t, struct fw *w, CXCursor list);
/* Function fn's address is taken (w as above). */
void fe_fnfield_fn_addr(fe_tu *t, const struct fw *w, CXCursor fn);
/* The stores and function addresses in a file-scope or static variable's
 * initializer. */
void fe_fnfield_scan_init(fe_tu *t, CXCursor var);
/* fixfacts.c: what fix needs (extents, attribute spellings, macros, hashes). */
/* fe_fix_macro: f and name_at as for fe_cleanup_macro. */
void fe_fix_macro(fe_tu *t, CXCursor macro_definition, CXFile f, unsigned name_at);
void fe_fix_decl(fe_tu *t, CXCursor fn, sum_decl *d);   /* before d is pushed */
void fe_fix_finish(fe_tu *t);   /* after the last declaration */

/* c23attr.c: C23 [[reproducible]] / [[unsequenced]]. fe_c23_note_diag
 * records one from clang's "unknown attribute ignored" warning;
 * fe_c23_decl_attrs returns the SUM_DECL_* bits of those written after
 * declaration fn's declarator and, if d, appends them to its attributes
 * (call after fe_fix_decl) and marks those written before the declaration
 * (SUM_DECL_LEAD_*). fe_c23_macro_kind: the attribute a macro body
 * `[[unsequenced]]` spells, 0 if not one. fe_c23_std: do the flags say C23? */
void fe_c23_note_diag(fe_tu *t, CXDiagnostic d);
/* The attribute's name in clang's "unknown attribute 'NAME' ignored"
 * (text), *len its length; NULL if text is another message. */
const char *fe_unknown_attr(const char *text, size_t *len);
uint8_t fe_c23_decl_attrs(fe_tu *t, CXCursor fn, sum_decl *d);
uint8_t fe_c23_macro_kind(char **tok, unsigned n);
int fe_c23_std(const fe_job *job);

/* gnuattr.c: noipa and optimize("O0"), which clang drops. fe_gnu_note_diag
 * records one from clang's "unknown attribute ignored" warning;
 * fe_gnu_body_hidden: is one written on any of the declarations given
 * (the first, the one in use, the definition; null cursors skipped)? */
void fe_gnu_note_diag(fe_tu *t, CXDiagnostic d);
int fe_gnu_body_hidden(fe_tu *t, CXCursor canon, CXCursor use, CXCursor def);

/* alias.c: fe_alias_note records declaration fn (function fi) if it is an
 * alias; fe_alias_finish, after every definition was walked, gives each
 * alias whose target is defined in the TU its body (SFF_ALIAS). */
void fe_alias_note(fe_tu *t, CXCursor fn, uint32_t fi);
void fe_alias_finish(fe_tu *t);

/* rotable.c: a read-only table with external linkage defined here whose
 * pointers all point to read-only data gets the empty slot "NAME.*". */
void fe_rotable_define(fe_tu *t, CXCursor var);
/* rotable.c: after the last walk, vouch for each external lookup of the
 * TU whose returns are all null or read-only data ("NAME.*"). */
void fe_rotable_lookups(fe_tu *t);

/* frozen.c: fe_frozen_note_init records the variables a file-scope
 * variable's initializer mentions; fe_frozen_finish, after the last walk,
 * turns reads of statics that no code writes into SE_READ_CONST with
 * SEF_FROZEN. */
void fe_frozen_note_init(fe_tu *t, CXCursor var);
void fe_frozen_finish(fe_tu *t);

/* walk_stmt.c: records the effects and calls of the definition `fn` into
 * sum->funcs[fi] (replacing an earlier walk's); returns non-zero if every
 * path through the body ends in a noreturn call. */
int fw_walk_function(fe_tu *t, uint32_t fi, CXCursor fn);

/* Strips parentheses, implicit casts (UnexposedExpr with one child of
 * the same extent) and C casts; fe_strip_implicit keeps C casts (which
 * change the value's type, and maybe the value). */
CXCursor fe_strip(fe_tu *t, CXCursor c);   /* t: its memo (types.c), or NULL */
/* Does c, an UnexposedExpr whose one child is kid, have kid's extent (an
 * implicit conversion, not va_arg and the like)? Remembered in t's
 * strip_memo by c's Stmt (data[1]), which decides the answer alone; a
 * NULL t (a helper of rarely stripped nodes, given no TU) asks libclang. */
bool fe_same_extent(fe_tu *t, CXCursor c, CXCursor kid);
CXCursor fe_strip_implicit(fe_tu *t, CXCursor c);
/* The first max children of c into out; returns how many c has. */
typedef struct { CXCursor *out; unsigned max, n; } fe_kids_buf;
unsigned fe_kids(CXCursor c, CXCursor *out, unsigned max);
CXType fe_canon_type(CXCursor c);
int fe_type_is_pointer(CXType t);
/* A union whose members are all pointers (a transparent union such as
 * FRR's union prefixptr): one pointer, whichever member is read. */
int fe_type_is_pointer_union(CXType t);
int fe_type_is_array(CXType t);
/* The value of the expression c is a pointer / c designates an array
 * object. libclang shows a decayed array parameter (`int a[4]`, and
 * `a + 1`, `c ? a : b` made from it) as the array: these see through it.
 * Ask these, not the type, about an expression. */
int fe_expr_is_pointer(CXCursor c);
int fe_expr_is_array(CXCursor c);

/* ccview_disk.c: the output of `argv -dM -E` run in dir, as an earlier
 * process stored it (caller frees; NULL: none, or no cache), and storing it. */
char *fe_ccview_disk_get(char *const *argv, const char *dir, size_t *len);
void fe_ccview_disk_put(char *const *argv, const char *dir, const char *text, size_t len);

#endif
