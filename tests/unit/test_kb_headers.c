/* test_kb_headers.c — the knowledge base follows the system headers
 * (issue 13, item 9): every function glibc's headers declare pure or const
 * has an entry no weaker than the header says (or none: then the header's
 * own attribute counts), unless the entry is one of the few listed below,
 * each with the reason it departs from the header.
 *
 * libclang parses the C library's headers as the build would (-D_GNU_SOURCE)
 * and the test reads the attributes off the declarations, so a new glibc
 * that adds __attribute_pure__ somewhere is caught here. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include "libclang/lc.h"
#include <stdio.h>
#include <string.h>
#include "kb/kb.h"

/* Entries weaker than glibc's declaration, on purpose. */
static const char *const departures[] = {
  NULL
};

static const char header_tu[] =
  "#include <ctype.h>\n#include <inttypes.h>\n#include <libintl.h>\n#include <math.h>\n"
  "#include <search.h>\n#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n"
  "#include <strings.h>\n#include <wchar.h>\n#include <wctype.h>\n";

typedef struct {
  const kb *k;
  int checked, wrong;
  char report[4096];
} scan;

static enum CXChildVisitResult attr_visit(CXCursor c, CXCursor parent, CXClientData d)
{
  int *cls = d;
  if (clang_getCursorKind(c) == CXCursor_ConstAttr) *cls = PURITY_CONST;
  else if (clang_getCursorKind(c) == CXCursor_PureAttr && *cls != PURITY_CONST) *cls = PURITY_PURE;
  return CXChildVisit_Continue;
}

static int departs(const char *name)
{
  for (int i = 0; departures[i]; i++) if (!strcmp(departures[i], name)) return 1;
  return 0;
}

static enum CXChildVisitResult top_visit(CXCursor c, CXCursor parent, CXClientData d)
{
  scan *s = d;
  if (clang_getCursorKind(c) != CXCursor_FunctionDecl) return CXChildVisit_Continue;
  int cls = PURITY_NORMAL;
  clang_visitChildren(c, attr_visit, &cls);
  if (cls == PURITY_NORMAL) return CXChildVisit_Continue;
  CXString n = clang_getCursorSpelling(c);
  const char *name = clang_getCString(n);
  const kb_entry *e = kb_lookup(s->k, name);
  if (e) {
    s->checked++;
    /* The class at a call with every pointer argument the caller's own
     * memory: what the header promises, per-argument effects aside. */
    purity have = e->math_errno ? PURITY_NORMAL : e->cls;
    if (have > (purity)cls && !departs(name)) {
      s->wrong++;
      size_t used = strlen(s->report);
      snprintf(s->report + used, sizeof s->report - used, " %s(header %s, kb %s)", name,
               purity_name((purity)cls), purity_name(have));
    }
  }
  clang_disposeString(n);
  return CXChildVisit_Continue;
}

static void test_kb_follows_glibc_headers(void **state)
{
  kb *k = kb_new();
  char *err = NULL;
  if (kb_load_builtin(k, &err) != 0) fail_msg("built-in knowledge base refused: %s", err);
  CXIndex idx = clang_createIndex(0, 0);
  struct CXUnsavedFile f = { "/tmp/purist_kb_headers.c", header_tu, sizeof header_tu - 1 };
  const char *args[] = { "-D_GNU_SOURCE", "-std=gnu11" };
  CXTranslationUnit tu = clang_parseTranslationUnit(idx, f.Filename, args, 2, &f, 1, CXTranslationUnit_None);
  if (!tu) fail_msg("libclang could not parse the C library's headers");
  scan s = { k, 0, 0, "" };
  clang_visitChildren(clang_getTranslationUnitCursor(tu), top_visit, &s);
  clang_disposeTranslationUnit(tu);
  clang_disposeIndex(idx);
  kb_free(k);
  if (s.checked < 20) fail_msg("only %d knowledge-base functions declared pure/const in the headers: "
                               "did the headers parse?", s.checked);
  if (s.wrong) fail_msg("%d entries weaker than glibc declares:%s", s.wrong, s.report);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_kb_follows_glibc_headers),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
