/* cdb_rsp.c — @FILE response files expanded into a job's flags.
 *
 * clang's and gcc's drivers read response files in their main(); libclang
 * does not: `purist infer a.c -- @flags.rsp` parsed a.c without the flags
 * the file held, silently (issue 23, residual of item 13). So purist reads
 * them itself, wherever flags enter a job (a database entry, the flags
 * after --), before anything looks at the flags: the cache key, the
 * compiler view, -std= and -x then see what the compiler sees.
 *
 * The limits of item 13 hold: only a regular file of at most 16 MiB is
 * read, opened without blocking; one naming itself or an enclosing one is
 * refused, as gcc does; nesting stops at 8 levels, and one job reads at
 * most CDB_RSP_MAX_FILES files and CDB_RSP_MAX_BYTES bytes (a file naming
 * another many times over would otherwise grow without bound). Nested
 * names are relative to the job's directory, as the words of the command
 * are. */
#include "frontend/cdb.h"
#include "util/fileio.h"
#include <stdlib.h>
#include <string.h>

#define CDB_RSP_MAX_DEPTH 8
#define CDB_RSP_MAX_FILE ((size_t)16 << 20)
#define CDB_RSP_MAX_FILES 1024
#define CDB_RSP_MAX_BYTES ((size_t)64 << 20)

typedef VEC(char *) cdb_words;

typedef struct {
  const char *dir;
  const char *chain[CDB_RSP_MAX_DEPTH];   /* the files being read, outermost first */
  size_t files, bytes;                    /* read so far, for the budget */
} cdb_rsp_state;

static void cdb_words_free(cdb_words *w, size_t from)
{
  for (size_t i = from; i < w->n; i++) free(w->v[i]);
  w->n = from;
}

/* Appends the words of @FILE arg (expanded) to out; NULL, or why not. */
static const char *cdb_rsp_word(cdb_rsp_state *s, const char *arg, int depth, cdb_words *out)
{
  char *path = cdb_abspath(s->dir, arg + 1);
  const char *why = NULL;
  for (int d = 0; d < depth && !why; d++)
    if (!strcmp(s->chain[d], path)) why = "it names itself";
  if (!why && ++s->files > CDB_RSP_MAX_FILES) why = "more than 1024 response files for one command";
  size_t len = 0;
  char *text = why ? NULL : file_read_regular(path, CDB_RSP_MAX_FILE, &len, &why);
  if (why && !strcmp(why, "too large")) why = "larger than 16 MiB";
  if (text && (s->bytes += len) > CDB_RSP_MAX_BYTES) why = "more than 64 MiB of response files for one command";
  int n = 0;
  char **words = text && !why ? cdb_split_command(text, &n) : NULL;
  if (text && !why && !words) why = "unterminated quote";
  s->chain[depth] = path;
  for (int w = 0; words && w < n; w++) {
    if (!why && words[w][0] == '@' && words[w][1]) {
      why = depth + 1 >= CDB_RSP_MAX_DEPTH ? "response files nested more than 8 deep"
                                           : cdb_rsp_word(s, words[w], depth + 1, out);
      free(words[w]);
    } else if (!why) {
      vec_push(out, words[w]);
    } else {
      free(words[w]);
    }
  }
  free(words);
  free(text);
  free(path);
  return why;
}

char **cdb_expand_rsp(const char *dir, char *const *argv, int argc, int *out_argc, char **why)
{
  cdb_words out = {0};
  cdb_rsp_state s = { dir, { 0 }, 0, 0 };
  if (why) *why = NULL;
  for (int i = 0; i < argc; i++) {
    size_t mark = out.n;
    const char *bad = argv[i][0] == '@' && argv[i][1] ? cdb_rsp_word(&s, argv[i], 0, &out) : NULL;
    if (bad) {   /* kept as written: the parse fails the TU, naming it */
      cdb_words_free(&out, mark);
      if (why && !*why) *why = xasprintf("response file %s: %s", argv[i], bad);
    }
    if (bad || argv[i][0] != '@' || !argv[i][1]) vec_push(&out, xstrdup(argv[i]));
  }
  vec_push(&out, NULL);
  *out_argc = (int)out.n - 1;
  return out.v;
}
