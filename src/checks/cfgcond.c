/* cfgcond.c — which #if a configuration-dependent definition hangs on.
 *
 * The front end marks a declaration SDF_CONFIG when a skipped #if branch
 * defines the function again or lies in its body (frontend/condfacts.c);
 * the summary keeps no text. To name the condition to the user (FFmpeg's
 * avpriv_ac3_parse_header is a `#else return AVERROR(ENOSYS);` stub of
 * `#if CONFIG_AC3_PARSER`), the source is read again and its conditional
 * directives followed up to the definition: the innermost open #if around
 * it (an include guard, `#ifndef X` then `#define X`, does not count), else
 * the first #if inside its body. */
#include "checks/checks.h"
#include "report/reason.h"
#include "util/fileio.h"
#include "util/ppdir.h"
#include <ctype.h>
#include <string.h>

typedef struct {
  char *cond;        /* "#if X", "#ifdef X", "#ifndef X" as written */
  char *branch;      /* NULL: the first branch; "#else" or "#elif Y" */
  uint32_t line;
  bool guard;        /* an include guard */
} cc_frame;

typedef VEC(cc_frame) cc_stack;

enum { CC_DEPTH = 16 };   /* #ifs around a definition that are told apart */

static void cc_pop(cc_stack *st)
{
  cc_frame *f = &st->v[--st->n];
  free(f->cond);
  free(f->branch);
}

/* Follows one directive d at line `line` (next_dir: the directive after
 * it, to tell an include guard). */
static void cc_apply(cc_stack *st, const char *d, uint32_t line, const char *next_dir)
{
  if (pp_is(d, "if") || pp_is(d, "ifdef") || pp_is(d, "ifndef")) {
    cc_frame f = { xasprintf("#%s", d), NULL, line, false };
    if (pp_is(d, "ifndef") && next_dir && pp_is(next_dir, "define"))
      f.guard = !strncmp(d + 7, next_dir + 7, strcspn(d + 7, " ")) && d[7];
    vec_push(st, f);
  } else if ((pp_is(d, "elif") || pp_is(d, "else") || pp_is(d, "elifdef") || pp_is(d, "elifndef")) && st->n) {
    cc_frame *f = &st->v[st->n - 1];
    free(f->branch);
    f->branch = xasprintf("#%s", d);
    f->guard = false;
  } else if (pp_is(d, "endif") && st->n) {
    cc_pop(st);
  }
}

/* "the #else branch of '#if X' (file:line)" for frame f. */
static void cc_describe(strbuf *m, const link_prog *p, uint32_t file, const cc_frame *f, const char *root)
{
  if (f->branch && !strncmp(f->branch, "#else", 5)) sb_printf(m, "the #else branch of '%s'", f->cond);
  else if (f->branch) sb_printf(m, "the '%s' branch of '%s'", f->branch, f->cond);
  else sb_printf(m, "'%s'", f->cond);
  sb_puts(m, " (");
  reason_path(m, p, file, root);
  sb_printf(m, ":%u)", f->line);
}

/* The #if the definition hangs on, as the directives are followed: the
 * innermost #if around it that has another branch (an `#else` stub, or the
 * definition in the #else), else the first #if inside its body, else the
 * innermost #if around it. An #if around the definition without another
 * branch (libpng's `#ifdef PNG_EASY_ACCESS_SUPPORTED` around forty getters)
 * only says whether the function exists: the skipped branch that makes the
 * class depend on the configuration is the one in the body. */
typedef struct {
  strbuf around[CC_DEPTH];   /* descriptions of the #ifs around the definition, outermost first */
  bool other[CC_DEPTH];      /* that #if has a branch besides the definition's */
  uint32_t naround;          /* #ifs around it still open (guards left empty) */
  strbuf inside;             /* the first #if in the body */
  bool at_def;               /* the walk has reached the definition */
} cc_find;

/* At the definition's first line: describes each #if around it. */
static void cc_snapshot(cc_find *c, const cc_stack *st, const link_prog *p, uint32_t file, const char *root)
{
  c->at_def = true;
  c->naround = st->n < CC_DEPTH ? (uint32_t)st->n : CC_DEPTH;
  for (uint32_t i = 0; i < c->naround; i++) {
    if (st->v[i].guard) continue;
    cc_describe(&c->around[i], p, file, &st->v[i], root);
    c->other[i] = st->v[i].branch != NULL;
  }
}

/* After the definition's first line: an #else of an #if around it, or its
 * #endif, as directive d closes or turns the top of st. */
static void cc_follow(cc_find *c, const cc_stack *st, const char *d)
{
  if (!st->n || st->n - 1 >= c->naround) return;
  uint32_t top = (uint32_t)st->n - 1;
  if (pp_is(d, "endif")) c->naround = top;
  else if (pp_is(d, "else") || pp_is(d, "elif") || pp_is(d, "elifdef") || pp_is(d, "elifndef")) c->other[top] = true;
}

static bool cc_choose(strbuf *m, const cc_find *c, uint32_t nsnap)
{
  for (uint32_t i = nsnap; i-- > 0;)
    if (c->other[i] && c->around[i].n) { sb_puts(m, sb_str(&c->around[i])); return true; }
  if (c->inside.n) { sb_puts(m, sb_str(&c->inside)); return true; }
  for (uint32_t i = nsnap; i-- > 0;)
    if (c->around[i].n) { sb_puts(m, sb_str(&c->around[i])); return true; }
  return false;
}

bool checks_cfg_condition(strbuf *m, const link_prog *p, const sum_decl *d, const char *root)
{
  size_t len;
  char *text = file_read_all(strtab_get(p->strs, d->loc.file), &len);
  if (!text) return false;
  uint32_t beg = d->beg_line ? d->beg_line : d->loc.line, end = d->end_line > beg ? d->end_line : beg;
  cc_stack st = {0};
  cc_find c = {0};
  uint32_t nsnap = 0, line = 1;
  for (const char *s = text; *s && (!c.at_def || c.naround || line <= end);) {
    const char *next;
    uint32_t n;
    char *dir = pp_directive(s, &next, &n);
    if (line >= beg && !c.at_def) {
      cc_snapshot(&c, &st, p, d->loc.file, root);
      nsnap = c.naround;
    }
    if (dir) {
      const char *after;
      uint32_t n2;
      char *next_dir = pp_directive(next, &after, &n2);
      if (c.at_def) cc_follow(&c, &st, dir);
      cc_apply(&st, dir, line, next_dir);
      free(next_dir);
      if (line > beg && line <= end && !c.inside.n && st.n && st.v[st.n - 1].line == line)
        cc_describe(&c.inside, p, d->loc.file, &st.v[st.n - 1], root);
    }
    free(dir);
    s = next;
    line += n;
  }
  bool found = cc_choose(m, &c, nsnap);
  for (uint32_t i = 0; i < CC_DEPTH; i++) sb_free(&c.around[i]);
  sb_free(&c.inside);
  while (st.n) cc_pop(&st);
  vec_free(&st);
  free(text);
  return found;
}
