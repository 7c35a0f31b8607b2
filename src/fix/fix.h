/* fix.h — `purist fix`: the suggested attributes, written into the sources.
 *
 * A fix is planned once from a solved program (link_solve done) and then
 * applied, in place or into a copy of the tree (what `purist impact` does:
 * the same edits, into a temporary copy, compiled with the real compiler).
 *
 *   fix_plan *pl = fix_plan_new(p, &opts, &err);     // decide every edit
 *   fix_plan_apply(pl, root, NULL, NULL, &res);      // write them in place
 *   fix_plan_free(pl);
 *
 * What is edited (docs/decisions.md, "Fix"):
 *   - every declaration the project wrote of a function `suggest` names
 *     (prototypes and the definition) gets the attribute, in the project's
 *     own spelling: after the declarator on a prototype, before the return
 *     type on a definition;
 *   - suggestions that may not return only with fix_opts.include_mnr;
 *   - wrong attributes removed or downgraded (const -> pure) only with
 *     fix_opts.fix_misuse;
 *   - never a file outside fix_opts.root, never a system header, never a
 *     declaration whose name comes from a macro, never a K&R definition;
 *   - a file whose contents differ from what was analysed (content hash in
 *     the summaries) is not touched and is reported;
 *   - with FIX_SPELL_STD, or automatically for a TU compiled as C23 in a
 *     project that already writes C23 attributes, C23's [[unsequenced]] /
 *     [[reproducible]] instead, right after the declarator (plan_c23.c).
 * Edits never change a verdict: classes come from bodies, never from the
 * attributes being edited, so every planned edit still holds after all
 * the others (the plan is the fixpoint; a second run plans nothing).
 *
 * The folder: plan.c and plan_c23.c decide the edits, spell.c and guard.c
 * how each is written; edit.c applies one file's edits to its text, which
 * apply.c writes (atomically), diff.c shows and spans.c hands to an editor;
 * notes.c holds what they all share. It reads the solved program (link/)
 * and the checks' verdicts (checks/); the commands (cli/), impact/ and
 * lsp/ call it. */
#ifndef PURIST_FIX_H
#define PURIST_FIX_H
#include <stdbool.h>
#include <stdio.h>
#include "link/link.h"
#include "util/vec.h"

/* How an inserted attribute is written. */
typedef enum {
  FIX_SPELL_AUTO = 0,   /* what the project uses: its macro, else [[gnu::]] if it writes those, else gnu */
  FIX_SPELL_GNU,        /* __attribute__((const)) */
  FIX_SPELL_C23,        /* [[gnu::const]] */
  FIX_SPELL_MACRO,      /* the project's macros named in macro_pure / macro_const */
  FIX_SPELL_STD         /* C23's own [[unsequenced]] / [[reproducible]] (plan_c23.c) */
} fix_spelling;

typedef struct {
  const char *root;         /* absolute project root: nothing outside it is edited */
  fix_spelling spelling;
  const char *macro_pure;   /* FIX_SPELL_MACRO: macros of the project (either slot: each is */
  const char *macro_const;  /* used for the attribute it expands to; NULL: none) */
  bool include_mnr;         /* --include-may-not-return */
  bool fix_misuse;          /* --fix-misuse: remove wrong attributes, downgrade const -> pure */
  bool all;                 /* --all: also suggestions that gain nothing (every call of the function
                               is in its own file, where the compiler infers the attribute itself) */
  bool whole_program;       /* --whole-program: public API gains nothing (see checks_gain) */
  bool keep_discarded;      /* also edit functions whose value some call discards (purist impact:
                               it compiles with -w, so the -Wunused-value warning cannot break it) */
  bool (*want)(const void *ctx, const char *file);   /* NULL, or: is a function defined in this */
  const void *want_ctx;     /* file (absolute) edited? (-p DIR FILE..., --include, --exclude) */
} fix_opts;

/* One change to one declaration. */
typedef enum { FIX_ADD, FIX_REPLACE, FIX_REMOVE } fix_action;

typedef struct {
  fix_action action;
  char *file;               /* absolute path of the edited file */
  unsigned line, col;       /* the declaration's name (1-based), for messages */
  char *function;
  char *what;               /* "add __attribute__((const))", "const -> pure", "remove pure" */
} fix_edit_info;

/* Something the plan or the apply step could not do, as a message line
 * ("file:line:col: note: …"); `error` when the user must act (exit 2). */
typedef struct {
  char *text;
  bool error;
} fix_note;

typedef VEC(fix_note) fix_notes;

typedef struct fix_plan fix_plan;

/* Plans every edit for the solved program p. Returns NULL with *err
 * (caller frees) on bad options (e.g. FIX_SPELL_MACRO naming a macro the
 * project does not define as that attribute). Never touches a file. */
fix_plan *fix_plan_new(const link_prog *p, const fix_opts *o, char **err);
void fix_plan_free(fix_plan *pl);

/* The planned edits, in file then position order (owned by the plan). */
size_t fix_plan_count(const fix_plan *pl);
const fix_edit_info *fix_plan_edit(const fix_plan *pl, size_t i);
/* What planning skipped and why (macro-made names, K&R definitions,
 * files outside the root, may-not-return suggestions without the option). */
const fix_notes *fix_plan_notes(const fix_plan *pl);

typedef struct {
  unsigned files_written;   /* files changed (or, with a diff, that would change) */
  unsigned edits;           /* declarations changed */
  unsigned files_refused;   /* changed since analysis, read-only, unwritable, unreadable */
  fix_notes notes;          /* what happened, per refused file */
  VEC(size_t) applied;      /* indexes (fix_plan_edit) of the edits made (or shown in the diff) */
} fix_result;

/* Applies the plan. Files are read from src_root (the root the program was
 * analysed under) after their content hash is checked against the
 * analysis; a file that differs is refused. dst_root NULL: write in place,
 * atomically (temp file in the same directory, mode kept, rename). Else
 * write each edited file to dst_root + (path relative to src_root) —
 * dst_root must already hold a copy of the tree; nothing else is touched.
 * diff non-NULL: write nothing, print a unified diff (paths relative to
 * src_root, a/ b/ prefixes) to diff. Returns 0 when every file was
 * handled, -1 when some were refused (the others are still written). */
int fix_plan_apply(const fix_plan *pl, const char *src_root, const char *dst_root, FILE *diff,
                   fix_result *res);
void fix_result_free(fix_result *res);

/* One planned edit as a replacement of text, for an editor (the LSP
 * server's WorkspaceEdit): the bytes from (line, col) to (end_line,
 * end_col), 1-based, byte columns, the end excluded, become text — the
 * very splice fix_plan_apply would make in that file as it is now. */
typedef struct {
  size_t edit;                  /* its fix_plan_edit index */
  char *file;                   /* absolute path */
  unsigned line, col, end_line, end_col;
  char *text;
} fix_span;
typedef VEC(fix_span) fix_spans;

/* Appends to out the spans of every planned edit of the function named
 * `function` (each of its declarations), checked as fix_plan_apply checks
 * them: a file changed since
 * the analysis, or an edit that no longer fits the text, is left out with
 * a note in notes. Returns the number of spans appended. */
size_t fix_plan_spans(const fix_plan *pl, const char *function, fix_spans *out, fix_notes *notes);
void fix_spans_free(fix_spans *s);

/* path relative to root when below it (root "/" included), else NULL. */
const char *fix_rel(const char *path, const char *root);

#endif
