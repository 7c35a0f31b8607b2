/* kb.h — the knowledge base: what library functions do, from data files.
 *
 * Bodies of C library functions are not in the program, so their effects
 * come from data/libc.kb (embedded in the binary) and from any files the
 * user adds with --kb. The format is described at the top of libc.kb.
 * The folder (docs/layout.md) calls the summary format and util/ only. */
#ifndef PURIST_KB_H
#define PURIST_KB_H
#include <stdbool.h>
#include <stdint.h>
#include "summary/summary.h"

typedef struct {
  const char *name;
  purity cls;          /* class of the effects not listed per argument */
  uint64_t reads;      /* bit i: reads through pointer argument i */
  uint64_t writes;     /* bit i: writes through pointer argument i */
  bool reads_all;      /* r*: through every pointer argument, variadic ones too */
  bool writes_all;     /* w*: likewise for writes */
  bool noreturn;
  bool math_errno;     /* cls holds only with -fno-math-errno; else normal */
  uint64_t callbacks;  /* bit i: calls back the function passed as argument i, giving it
                          pointers into the memory the other arguments point to; with the
                          function unknown at the call, the call is normal */
  uint8_t cb_arg;      /* cN:AB… (N = cb_arg): the callback's parameter i points where   */
  uint8_t cb_nmap;     /* argument cb_map[i] points (bsearch's comparator: the key, then */
  uint8_t cb_map[8];   /* an element); cb_nmap 0: every other argument (the default)     */
  bool cheat;          /* cls is a convenient promise, not the whole truth (hidden
                          state, lazy loading): a declared pure/const caller gets a
                          cheat note naming the reason (checks/kbcheat.c) */
  /* (issue 30) Allocation, for `check`'s scratch memory (checks/scratch.c): */
  bool alloc;          /* alloc: returns a newly allocated block no caller has seen */
  uint64_t frees;      /* fN: bit i: releases the block argument i points to (and, for a
                          marker of linked blocks, every block linked from it) */
  bool hook;           /* hook: the name is a global function pointer, and a call through
                          it does what the entry says (GMP's __gmp_allocate_func) */
  bool contract;       /* contract: (noreturn) how a library fails a documented
                          precondition of its callers (GMP's division by zero): `check`
                          reports a path ending here as a failed assertion's, a note
                          (checks/noreturn.c); looked up by name, body or not */
  /* (issue 30 item 2) errno=CLASS: the function's class apart from setting
   * errno (mbrtowc, strtol): what a caller that saves errno on entry and
   * puts it back before every return gets from it in `check`. */
  bool errno_only;
  purity errno_cls;
  uint64_t null_hidden; /* nullN: bit i: given a null pointer as argument i, it keeps hidden
                           state instead (mbrtowc's own mbstate_t): errno_cls holds only
                           where the call's argument i is surely not null */
  uint64_t null_query;  /* queryN: bit i: given a null pointer as argument i, it only reads (a
                           query: setlocale(c, NULL) names the locale): `check` counts such a
                           call as pure */
  const char *reason;
  const char *origin;  /* "libc.kb:123" */
} kb_entry;

typedef struct kb kb;

kb *kb_new(void);
void kb_free(kb *k);
/* Adds the entries of a knowledge-base text; a later entry for the same name
 * replaces the earlier one. Returns 0, or -1 with *err (caller frees) naming
 * origin and line of the first malformed entry. */
int kb_load_text(kb *k, const char *text, size_t len, const char *origin, char **err);
int kb_load_file(kb *k, const char *path, char **err);
/* The built-in data/libc.kb. */
int kb_load_builtin(kb *k, char **err);
const kb_entry *kb_lookup(const kb *k, const char *name);
size_t kb_count(const kb *k);
/* A hash of everything loaded: part of every cache key. */
uint64_t kb_digest(const kb *k);

/* The stand-alone class of an entry for a TU with or without math errno. */
purity kb_entry_class(const kb_entry *e, bool no_math_errno);

#endif
