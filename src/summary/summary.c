/* summary.c — life cycle of a TU summary. */
#include "summary/summary.h"

const char *purity_name(purity p)
{
  static const char *const names[] = { "const", "pure", "normal" };
  return p <= PURITY_NORMAL ? names[p] : "normal";
}

sum_tu *summary_new(void)
{
  sum_tu *tu = xcalloc(1, sizeof *tu);
  tu->strs = strtab_new();
  return tu;
}

void summary_free(sum_tu *tu)
{
  if (!tu) return;
  strtab_free(tu->strs);
  vec_free(&tu->funcs);
  vec_free(&tu->effs);
  vec_free(&tu->calls);
  vec_free(&tu->argmasks);
  vec_free(&tu->decls);
  vec_free(&tu->attrs);
  vec_free(&tu->macros);
  vec_free(&tu->files);
  vec_free(&tu->fnargs);
  vec_free(&tu->pcalls);
  vec_free(&tu->fstores);
  vec_free(&tu->fcalls);
  vec_free(&tu->rmembers);
  free(tu);
}
