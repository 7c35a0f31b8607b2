/* text.c — files, their text and locations, as the summary records them:
 * the core every other file of the front end calls (it calls only
 * preproc.c, for the names and lines of preprocessed input). */
#include "frontend/fe_internal.h"
#include "frontend/pch.h"
#include <string.h>
#include <unistd.h>

char *fe_file_path(CXFile f)
{
  CXString real = clang_File_tryGetRealPathName(f);
  const char *p = clang_getCString(real);
  CXString name = {0};
  if (!p || !*p) { name = clang_getFileName(f); p = clang_getCString(name); }
  char *abs;
  if (p && p[0] != '/') {
    char cwd[4096];
    abs = cdb_abspath(getcwd(cwd, sizeof cwd) ? cwd : "/", p);
  } else {
    abs = xstrdup(p ? p : "");
  }
  clang_disposeString(real);
  if (name.data) clang_disposeString(name);
  return abs;
}

const char *fe_file_text(CXTranslationUnit tu, CXFile f, size_t *size)
{
  *size = 0;
  return f ? clang_getFileContents(tu, f, size) : NULL;
}

const char *fe_tu_text(fe_tu *t, CXFile f, size_t *size)
{
  *size = 0;
  if (!f) return NULL;
  uint64_t key = (uint64_t)(uintptr_t)f;
  const uint32_t *hit = ptrmap_get(&t->texts, key);
  if (!hit) {
    struct fe_text x = { NULL, 0 };
    x.s = fe_pch_file_text(t->pch, t->tu, f, &x.n);   /* with a PCH, the main file as on disk */
    vec_push(&t->text_v, x);
    ptrmap_put(&t->texts, key, (uint32_t)t->text_v.n);
    hit = ptrmap_get(&t->texts, key);
  }
  const struct fe_text *x = &t->text_v.v[*hit - 1];
  *size = x->s ? x->n : 0;
  return x->s;
}

uint32_t fe_file_id(fe_tu *t, CXFile f)
{
  if (!f) return 0;
  uint32_t *hit = ptrmap_get(&t->files, (uint64_t)(uintptr_t)f);
  if (hit) return *hit;
  char *abs = fe_file_path(f);
  uint32_t id = strtab_intern(t->sum->strs, abs);
  free(abs);
  ptrmap_put(&t->files, (uint64_t)(uintptr_t)f, id);
  return id;
}

/* Where the user wrote it: for code from a macro, the macro's use. */
sum_loc fe_loc(fe_tu *t, CXSourceLocation l)
{
  if (t->pp) return fe_pp_loc(t, l);
  CXFile f;
  unsigned line, col;
  clang_getExpansionLocation(l, &f, &line, &col, NULL);
  sum_loc s = { fe_file_id(t, f), line, col };
  return s;
}

uint64_t fe_loc_key(sum_loc l)
{
  return ((uint64_t)l.file << 40 | (uint64_t)l.line << 16 | (l.col & 0xffff)) + 1;
}

sum_loc fe_cursor_loc(fe_tu *t, CXCursor c)
{
  return fe_loc(t, clang_getCursorLocation(c));
}

/* Offset of an expansion location, with its file. */
unsigned fe_expansion_offset(CXSourceLocation l, CXFile *file)
{
  unsigned off = 0;
  clang_getExpansionLocation(l, file, NULL, NULL, &off);
  return off;
}
