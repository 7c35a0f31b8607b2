/* run_info.c — see run_info.h. */
#include "report/run_info.h"
#include "report/diag_out.h"
#include <jansson.h>
#include <string.h>

const char *run_na_reason_name(run_na_reason r)
{
  static const char *const names[] = { "errors", "timed-out", "crashed", "failed", "bad-entry", "skipped" };
  return (unsigned)r < sizeof names / sizeof *names ? names[r] : "failed";
}

void run_info_add(run_info *ri, const char *file, const char *root, run_na_reason r, const char *message)
{
  size_t rl = root ? strlen(root) : 0;
  if (rl > 1 && !strncmp(file, root, rl) && file[rl] == '/') file += rl + 1;
  run_na na = { xstrdup(file), r, xstrdup(message ? message : "") };
  vec_push(&ri->not_analysed, na);
}

void run_info_free(run_info *ri)
{
  for (size_t i = 0; i < ri->not_analysed.n; i++) {
    free(ri->not_analysed.v[i].file);
    free(ri->not_analysed.v[i].message);
  }
  vec_free(&ri->not_analysed);
}

bool run_info_failed(const run_info *ri)
{
  for (size_t i = 0; ri && i < ri->not_analysed.n; i++)
    if (ri->not_analysed.v[i].reason != RUN_NA_SKIPPED) return true;
  return false;
}

void run_info_automation_id(strbuf *b, const run_info *ri)
{
  sb_puts(b, "purist/");
  if (ri && ri->command) sb_printf(b, "%s/", ri->command);
}

int run_info_print_json(FILE *out, const run_info *ri)
{
  if (!ri || !ri->not_analysed.n) return 0;
  fputs(",\n  \"not_analysed\": [", out);
  int rc = 0;
  for (size_t i = 0; i < ri->not_analysed.n && rc == 0; i++) {
    const run_na *na = &ri->not_analysed.v[i];
    json_t *o = json_object();
    json_object_set_new(o, "file", diag_json_str(na->file));
    json_object_set_new(o, "reason", json_string(run_na_reason_name(na->reason)));
    json_object_set_new(o, "message", diag_json_str(na->message));
    fputs(i ? ",\n    " : "\n    ", out);
    rc = json_dumpf(o, out, JSON_PRESERVE_ORDER) < 0 ? -1 : 0;
    json_decref(o);
  }
  fputs("\n  ]", out);
  return ferror(out) ? -1 : rc;
}
