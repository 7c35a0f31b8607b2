/* fix_internal.h — the plan's representation, shared by src/fix's files. */
#ifndef PURIST_FIX_INTERNAL_H
#define PURIST_FIX_INTERNAL_H
#include "fix/fix.h"
#include "util/ptrmap.h"
#include "util/strbuf.h"

/* What an operation does to the text; positions are 1-based line and byte
 * column, as in the summaries. */
typedef enum {
  FOP_INSERT,        /* insert text at (line, col) */
  FOP_INSERT_END,    /* insert text at (line, col), the end of a prototype:
                        only if `;` or `,` follows (else refused) */
  FOP_REPLACE,       /* replace [ (line, col), (end_line, end_col) ) by text */
  FOP_REMOVE_ATTR,   /* remove the attribute whose name or macro is that range,
                        with its __attribute__((…)) or [[…]] if it is alone there */
  FOP_INSERT_DECLARATOR  /* insert text right after the parameter list that follows the
                            function's name at (line, col): where a C23 function-type
                            attribute goes, on a prototype or a definition */
} fix_op_kind;

typedef struct {
  fix_edit_info info;
  fix_op_kind kind;
  char *shown;                  /* the file as messages show it (relative to the root) */
  unsigned line, col;           /* where the change starts */
  unsigned end_line, end_col;   /* FOP_REPLACE / FOP_REMOVE_ATTR: where it ends */
  char *text;             /* FOP_INSERT*, FOP_REPLACE */
  char *expect;           /* FOP_INSERT*: the function's name, which must be at info.line/col;
                             a macro attribute: its name, which the range must hold */
  bool prelude;           /* FOP_INSERT of whole lines before a declaration (guard.c's
                             #define): first among the operations at its position */
  uint64_t hash;          /* the file's content hash at analysis */
} fix_op;

struct fix_plan {
  VEC(fix_op) ops;        /* sorted by file, then position */
  fix_notes notes;
};

/* notes.c */
void fix_notes_free(fix_notes *n);
void fix_note_add(fix_notes *n, bool error, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* plan.c, for plan_c23.c: the planner's state and its helpers. */
typedef struct planner planner;
fix_op *fix_plan_op(planner *pl, const sum_decl *d, const link_func *f, fix_op_kind kind, const char *what);
/* The function's name as declaration d writes it: the name of the macro
 * that renames it (sum_decl.spelled), or its own. */
const char *fix_written_name(const link_prog *p, const sum_decl *d, const link_func *f);
bool fix_plan_editable(planner *pl, const sum_decl *d, const link_func *f);
bool fix_plan_cfgdep(planner *pl, uint32_t fi, uint8_t kind, const uint32_t *di, uint32_t nd);
const link_prog *fix_plan_prog(const planner *pl);
const fix_opts *fix_plan_opts(const planner *pl);
fix_notes *fix_plan_notes_of(planner *pl);
/* plan_c23.c: the C23 edits of function fi (suggestion; misuse with
 * fix_misuse). */
void fix_plan_c23(planner *pl, uint32_t fi);
/* --spelling=std on code some of which is not compiled as C23: one note
 * (a C89 build with -pedantic-errors rejects `[[…]]`). */
void fix_c23_std_note(const link_prog *p, fix_notes *notes);

/* spell.c: the text of an attribute of kind SUM_DECL_PURE/CONST. */
typedef struct {
  char *text;             /* "__attribute__((const))", "[[gnu::const]]", "MY_CONST" */
  uint8_t form;           /* sum_attr_form: where it may go */
} fix_spelled;

/* Chooses how to write attribute `kind` on declaration d (see fix.h). May
 * add a note (a requested macro not defined before d). Caller frees text. */
fix_spelled fix_spell(const link_prog *p, const fix_opts *o, const sum_decl *d, uint8_t kind, fix_notes *notes);
/* Checks the options against the program: each macro named for
 * FIX_SPELL_MACRO (in either slot) must be defined as exactly a pure or
 * const attribute; *eff gets the options with each name in the slot of its
 * kind. Returns 0, or -1 with *err (caller frees). */
int fix_spell_resolve(const link_prog *p, const fix_opts *o, fix_opts *eff, char **err);
/* "pure" or "const" for SUM_DECL_PURE / SUM_DECL_CONST ("reproducible",
 * "unsequenced" for the C23 kinds). */
const char *fix_kind_name(uint8_t kind);
/* The attribute word for `kind` in the style of `old` (keeps __x__). */
const char *fix_kind_word(uint8_t kind, const char *old);

/* guard.c: must an attribute in `file` be guarded? Yes when it is a header
 * that tests _MSC_VER or __GNUC__, or any file of a project one of whose
 * files tests _MSC_VER; *because is then the file that tests (files read
 * once, memo keyed by file id + 1). fix_guard_macro: the macro fix writes
 * there for `kind`; fix_guard_block: its definition, for GNU compilers
 * only (caller frees). */
bool fix_guard_header(const link_prog *p, uint32_t file, ptrmap *memo, uint32_t *because);
const char *fix_guard_macro(uint8_t kind);
/* The #if region of each line of the file at path, [1..*nlines] ("/3/7":
 * the groups around it, each #elif/#else a new one; NULL entries past the
 * end; NULL if unreadable; caller frees each and the array). A macro
 * defined at a line of region def is defined at a later line of region
 * use when fix_guard_sees(def, use): the guard block must be repeated
 * where it is not (opus_custom.h defines a second group of prototypes
 * under another #if). */
char **fix_guard_regions(const char *path, unsigned *nlines);
bool fix_guard_sees(const char *def, const char *use);
char *fix_guard_block(uint8_t kind);

/* apply.c / diff.c */
/* Applies one file's ops (ops[0..n), all of that file) to text; returns
 * the new text (caller frees). An op that cannot be made is skipped with
 * an error note and failed[i] set (failed has n entries). */
char *fix_apply_text(const char *text, size_t len, const fix_op *ops, size_t n, size_t *out_len,
                     bool *failed, fix_notes *notes);
/* Works out op on the file's text t (len bytes) as the splice fix would
 * make: bytes [*lo, *hi) replaced by *with (caller frees; "" for a
 * removal). NULL on success, else why it cannot be made (nothing set). */
const char *fix_op_range(const char *t, size_t len, const fix_op *op, size_t *lo, size_t *hi, char **with);
/* Writes a unified diff of old → new for path `rel` to f. Returns 0 or -1.
 * Calls go between fix_diff_begin and fix_diff_end (libgit2's set-up). */
void fix_diff_begin(void);
void fix_diff_end(void);
int fix_diff_write(FILE *f, const char *rel, const char *old, size_t old_len, const char *new_text,
                   size_t new_len);


#endif
