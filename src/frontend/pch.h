/* pch.h — TUs that start with the same #include lines under the same
 * flags share one precompiled header of those lines (issue 32 item 1).
 *
 * The prefix of a main file is its leading run of blank lines, comments,
 * one-line `#include` directives and simple `#define NAME [VALUE]` lines;
 * a candidate is that prefix cut after one of its includes. A candidate's
 * lines, verbatim, form a virtual header beside the main file (so that
 * quoted includes search the same directory); libclang parses it once with
 * the TU's flags (`-x c-header`) and saves it into the PCH store, keyed by
 * libclang's version, the flags, the directory, the compiler view's text
 * and the lines. A TU uses the longest candidate the store has, else builds
 * the longest one another TU had before (it pays from the second TU on).
 * The TU is then parsed with `-include-pch` from a copy of the main file
 * whose prefix lines are blanked (offsets kept), so the AST, the macros and
 * the preprocessing record are those of an unshared parse; what libclang
 * reports differently (the inclusions of files from the PCH, the main
 * file's text) is rebuilt from what the PCH's build recorded
 * (fe_inclusions) and from the file on disk (fe_pch_file_text).
 *
 * A prefix is not shared (the TU is parsed as before) when: no other TU
 * had it; its parse has an error or any warning about an attribute (the
 * front end reads those from the diagnostics, which a PCH does not
 * replay); the input is preprocessed (.i); a file it read changed since
 * (each file's content hash is checked); or the TU's parse with it
 * reports a problem with the PCH. The store is PURIST_PCH_DIR (set by
 * fe_pch_store_open). Off unless PURIST_PCH=1: on the projects measured it
 * costs more than it saves (docs/decisions.md). */
#ifndef PURIST_FE_PCH_H
#define PURIST_FE_PCH_H
#include <clang-c/Index.h>
#include <stdbool.h>
#include "frontend/fe.h"

typedef struct fe_pch fe_pch;

/* The PCH of job's prefix (built now if the store lacks it), with the
 * virtual header to pass as an unsaved file and the flag to add; NULL
 * when the TU cannot share one. argv/unsaved are the TU's parse inputs. */
fe_pch *fe_pch_for(CXIndex idx, const fe_job *job, char *const *argv, int argc,
                   const struct CXUnsavedFile *unsaved, unsigned nunsaved, unsigned opts);
/* The virtual prefix header (an unsaved file of the TU's parse). */
struct CXUnsavedFile fe_pch_unsaved(const fe_pch *p);
/* The main file as the TU's parse reads it (an unsaved file): the
 * prefix's lines blanked, since the PCH holds them. */
struct CXUnsavedFile fe_pch_main(const fe_pch *p);
/* File f's text as the front end reads it: for the main file of a TU
 * parsed with p, the text on disk (what the cache hashes), not the
 * blanked copy libclang parsed; else libclang's buffer (p may be NULL). */
const char *fe_pch_file_text(const fe_pch *p, CXTranslationUnit tu, CXFile f, size_t *len);
/* The PCH's path, for -include-pch. */
const char *fe_pch_path(const fe_pch *p);
/* Did the TU parsed with p come out as an unshared parse would? False if
 * a diagnostic names the PCH or a file of the prefix was entered again:
 * the caller parses without it. */
bool fe_pch_usable(const fe_pch *p, CXTranslationUnit tu);
void fe_pch_free(fe_pch *p);

/* One file the TU read, as clang_getInclusions reports it: depth 0 is the
 * main file; offs[0..depth) are the offsets of the #include directives
 * leading to it, outermost first; predefined: the outermost one is in the
 * predefines buffer (a command-line -include), not the main file. */
typedef struct {
  CXFile file;
  unsigned depth;
  bool predefined;
  const unsigned *offs;
} fe_incl;

/* Calls visit for every file of tu in clang_getInclusions's order; with a
 * PCH (p not NULL) the prefix's files come right after the main file,
 * with the include stacks an unshared parse has. */
void fe_inclusions(CXTranslationUnit tu, const fe_pch *p, void (*visit)(const fe_incl *in, void *data),
                   void *data);

/* For the process that starts the parses: sets PURIST_PCH_DIR to
 * cache_dir/pch, or, without a cache, to a new temporary directory that
 * fe_pch_store_close removes. Returns what close needs (NULL: nothing). */
char *fe_pch_store_open(const char *cache_dir);
void fe_pch_store_close(char *tmp_dir);

#endif
