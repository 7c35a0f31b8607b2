/* spans.c — the plan's edits as text replacements for an editor (see
 * fix_plan_spans in fix.h). The same checks and the same splices as
 * apply.c, without writing anything: an editor applies them itself, to
 * its buffer, and undoes them as any edit. */
#include "fix/fix_internal.h"
#include "util/fileio.h"
#include <errno.h>
#include <string.h>
#include <xxhash.h>

/* 1-based line and byte column of offset off in t, lines counted as clang
 * counts them ("\n", "\r\n", a lone "\r"). */
static void spans_line_col(const char *t, size_t len, size_t off, unsigned *line, unsigned *col)
{
  unsigned l = 1;
  size_t start = 0;
  for (size_t i = 0; i < off && i < len; i++)
    if (t[i] == '\n' || (t[i] == '\r' && (i + 1 == len || t[i + 1] != '\n'))) {
      l++;
      start = i + 1;
    }
  *line = l;
  *col = (unsigned)(off - start + 1);
}

/* The spans of ops[first..last) (one file, those of the function asked),
 * after checking the file against its hash at analysis. */
static size_t spans_of_file(const fix_plan *pl, const size_t *idx, size_t n, fix_spans *out, fix_notes *notes)
{
  const fix_op *op0 = &pl->ops.v[idx[0]];
  size_t len, got = 0;
  char *t = file_read_all(op0->info.file, &len);
  if (!t) {
    fix_note_add(notes, true, "%s: error: cannot read it: %s", op0->shown, strerror(errno));
    return 0;
  }
  if (!op0->hash || XXH64(t, len, 0) != op0->hash) {
    fix_note_add(notes, true, "%s: error: it changed since it was analysed (save it, then ask again)", op0->shown);
    free(t);
    return 0;
  }
  for (size_t k = 0; k < n; k++) {
    const fix_op *op = &pl->ops.v[idx[k]];
    size_t lo, hi;
    char *with;
    const char *why = fix_op_range(t, len, op, &lo, &hi, &with);
    if (why) {
      fix_note_add(notes, true, "%s:%u:%u: error: cannot %s on '%s': %s", op->shown, op->info.line,
                   op->info.col, op->info.what, op->info.function, why);
      continue;
    }
    fix_span s = { idx[k], xstrdup(op->info.file), 0, 0, 0, 0, with };
    spans_line_col(t, len, lo, &s.line, &s.col);
    spans_line_col(t, len, hi, &s.end_line, &s.end_col);
    vec_push(out, s);
    got++;
  }
  free(t);
  return got;
}

size_t fix_plan_spans(const fix_plan *pl, const char *function, fix_spans *out, fix_notes *notes)
{
  size_t got = 0;
  VEC(size_t) idx = {0};
  for (size_t i = 0; i < pl->ops.n;) {   /* ops are sorted by file */
    size_t j = i;
    idx.n = 0;
    for (; j < pl->ops.n && !strcmp(pl->ops.v[j].info.file, pl->ops.v[i].info.file); j++)
      if (!strcmp(pl->ops.v[j].info.function, function)) vec_push(&idx, j);
    if (idx.n) got += spans_of_file(pl, idx.v, idx.n, out, notes);
    i = j;
  }
  vec_free(&idx);
  return got;
}

void fix_spans_free(fix_spans *s)
{
  for (size_t i = 0; i < s->n; i++) {
    free(s->v[i].file);
    free(s->v[i].text);
  }
  vec_free(s);
}
