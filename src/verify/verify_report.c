/* verify_report.c — the runtime's reports (src/rt/rt_report.c has the
 * format), one per process that ran, merged into one account per watched
 * function and finding; verify_diag.c turns the account into diagnostics.
 *
 * Writes are classified per process, where call indices mean something:
 * written on every checked call, or not only on the first ones → a
 * violation; written on the first checked call(s) only, with later checked
 * calls writing nothing → memoisation. A process that called the function
 * once says neither; it counts only when no other process decides. */
#include "verify/verify_internal.h"
#include "util/fileio.h"
#include <dirent.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static vr_fn *vr_fn_get(vr_account *a, const char *name)
{
  for (size_t i = 0; i < a->fns.n; i++)
    if (!strcmp(a->fns.v[i].name, name)) return &a->fns.v[i];
  vr_fn f = { .name = xstrdup(name) };
  vec_push(&a->fns, f);
  return &a->fns.v[a->fns.n - 1];
}

/* GCC names a static local `name.N`: the source calls it `name`; a C
 * library object copied into the program is `name@VERSION`. */
static char *vr_source_name(const char *sym)
{
  size_t n = strcspn(sym, ".@");
  char *s = xstrdup(sym);
  s[n ? n : strlen(s)] = '\0';
  return s;
}

static vr_finding *vr_finding_get(vr_account *a, vr_kind k, const char *fn, const char *sym, long arg)
{
  for (size_t i = 0; i < a->finds.n; i++) {
    vr_finding *f = &a->finds.v[i];
    if (f->kind == k && f->arg == arg && !strcmp(f->fn, fn) && !strcmp(f->sym ? f->sym : "", sym ? sym : ""))
      return f;
  }
  vr_finding f = { .kind = k, .fn = xstrdup(fn), .sym = sym ? vr_source_name(sym) : NULL, .arg = arg };
  vec_push(&a->finds, f);
  return &a->finds.v[a->finds.n - 1];
}

static vr_kind vr_kind_named(const char *s)
{
  if (!strcmp(s, "global-write")) return VR_WRITE;
  if (!strcmp(s, "global-read")) return VR_READ;
  if (!strcmp(s, "heap-write")) return VR_HEAP;
  if (!strcmp(s, "nondeterministic")) return VR_NONDET;
  if (!strcmp(s, "syscall")) return VR_SYSCALL;
  return VR_NONE;
}

static unsigned long vr_ulong(json_t *o, const char *key)
{
  json_t *v = json_object_get(o, key);
  return json_is_integer(v) && json_integer_value(v) > 0 ? (unsigned long)json_integer_value(v) : 0;
}

/* One finding of one process. `checked` is that process's checked calls
 * of the function (wrapped calls for the wrapper's checks). */
static void vr_add_finding(vr_account *a, json_t *jf, json_t *jfns)
{
  const char *kind = json_string_value(json_object_get(jf, "kind"));
  const char *fn = json_string_value(json_object_get(jf, "function"));
  vr_kind k = kind ? vr_kind_named(kind) : VR_NONE;
  if (!fn || k == VR_NONE) return;
  const char *sym = json_string_value(json_object_get(jf, k == VR_SYSCALL ? "syscall" : "symbol"));
  const char *breaks = json_string_value(json_object_get(jf, "breaks"));
  if (k == VR_SYSCALL && !sym) return;
  long arg = k == VR_HEAP ? (long)vr_ulong(jf, "arg") : k == VR_SYSCALL ? breaks && !strcmp(breaks, "const") : -1;
  vr_finding *f = vr_finding_get(a, k, fn, sym, arg);
  unsigned long count = vr_ulong(jf, "count"), checked = 0;
  size_t i;
  json_t *jfn;
  json_array_foreach(jfns, i, jfn) {
    const char *name = json_string_value(json_object_get(jfn, "name"));
    if (name && !strcmp(name, fn))
      checked = vr_ulong(jfn, k == VR_WRITE || k == VR_READ || k == VR_SYSCALL ? "checked"
                              : k == VR_HEAP ? "wrapped" : "replayed");
  }
  f->count += count;
  f->checked += checked;
  f->is_static |= json_is_true(json_object_get(jf, "static"));
  f->vdso |= json_is_true(json_object_get(jf, "vdso"));
  const char *site = json_string_value(json_object_get(jf, "site_object"));
  if (k == VR_SYSCALL && site && !f->site_obj && vr_ulong(jf, "site_address")) {
    f->site_obj = xstrdup(site);
    f->site_addr = vr_ulong(jf, "site_address");
  }
  if (k != VR_WRITE) return;
  bool prefix = json_is_true(json_object_get(jf, "prefix"));
  if (checked <= 1) f->single = true;
  else if (prefix && count < checked) f->memo = true;
  else f->every = true;
}

static void vr_add_notes(vr_account *a, json_t *root)
{
  const char *prog = json_string_value(json_object_get(root, "program"));
  unsigned long pid = vr_ulong(root, "pid");
  size_t i;
  json_t *jn;
  json_array_foreach(json_object_get(root, "notes"), i, jn) {
    const char *n = json_string_value(jn);
    if (n && !strcmp(n, "nosyscall")) {   /* the machine's, not the process's: once */
      if (!a->said_nosys)
        vec_push(&a->notes, xstrdup("system calls were not checked: the kernel has no syscall user dispatch "
                                    "(Linux 5.11 or later, x86-64) or PURIST_SYSCALLS=off; "
                                    "no call was executed twice"));
      a->said_nosys = true;
      continue;
    }
    if (n && !strcmp(n, "raced")) {
      if (!a->said_raced)
        vec_push(&a->notes, xasprintf("%s (pid %lu): a re-executed call returned a different result while "
                                      "another thread ran: not counted as nondeterminism", prog ? prog : "?", pid));
      a->said_raced = true;
      continue;
    }
    const char *what = !n ? NULL
      : !strcmp(n, "threads") ? "the read check of const functions was off once a second thread had started"
      : !strcmp(n, "full") ? "more findings than the runtime's table holds: some were dropped"
      : !strcmp(n, "noguard") ? "the read check of const functions is not available on this machine"
      : !strcmp(n, "unreturned") ? "a watched call never returned (a longjmp out of it, or exit inside it): "
                                   "the watched calls after it on that thread were not checked" : NULL;
    if (what) vec_push(&a->notes, xasprintf("%s (pid %lu): %s", prog ? prog : "?", pid, what));
  }
}

/* Reads one report into the account; false with a note if it is not one. */
static bool vr_read_one(vr_account *a, const char *path)
{
  json_error_t e;
  json_t *root = json_load_file(path, 0, &e);
  json_t *fns = root ? json_object_get(root, "functions") : NULL;
  if (!root || !json_is_array(fns) || vr_ulong(root, "purist_rt") != 1) {
    vec_push(&a->notes, xasprintf("%s: not a report of libpurist-rt: %s", path, root ? "unknown format" : e.text));
    json_decref(root);
    return false;
  }
  size_t i;
  json_t *j;
  json_array_foreach(fns, i, j) {
    const char *name = json_string_value(json_object_get(j, "name"));
    if (!name) continue;
    vr_fn *f = vr_fn_get(a, name);
    f->found |= json_is_true(json_object_get(j, "found"));
    f->calls += vr_ulong(j, "calls");
    f->checked += vr_ulong(j, "checked");
  }
  json_array_foreach(json_object_get(root, "findings"), i, j) vr_add_finding(a, j, fns);
  vr_add_notes(a, root);
  json_decref(root);
  return true;
}

static int vr_cmp_str(const void *a, const void *b)
{
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* A process marked alive (its runtime started) that wrote no report: it
 * was killed (SIGKILL cannot be caught) or ended some other way the
 * runtime cannot see. The mark holds the program's path. */
static void vr_lost(vr_account *a, const char *dir, const char *mark)
{
  unsigned long pid = strtoul(mark + 10, NULL, 10);
  char *report = xasprintf("%s/purist-rt.%lu.json", dir, pid);
  char *path = xasprintf("%s/%s", dir, mark);
  if (access(report, F_OK) != 0) {
    char prog[4096];   /* the mark links to the program (rt_report.c) */
    ssize_t len = readlink(path, prog, sizeof prog - 1);
    prog[len > 0 ? len : 0] = '\0';
    vec_push(&a->notes, xasprintf("process %lu (%s) ended without a report (killed?): its findings are lost",
                                  pid, *prog ? prog : "?"));
    a->lost++;
  }
  free(report);
  free(path);
}

/* A write seen by several processes, each on its only checked call (a
 * fork, a program run twice): together that is every checked call. The
 * checked calls are those of every process, also those that wrote nothing. */
static void vr_settle(vr_account *a)
{
  for (size_t i = 0; i < a->finds.n; i++) {
    vr_finding *f = &a->finds.v[i];
    if (f->kind != VR_WRITE || !f->single) continue;
    for (size_t j = 0; j < a->fns.n; j++)
      if (!strcmp(a->fns.v[j].name, f->fn) && a->fns.v[j].checked > f->checked) f->checked = a->fns.v[j].checked;
    if (f->checked < 2) continue;
    if (!f->memo) f->every = true;
    if (f->every) f->single = false;
  }
}

int vr_account_read(vr_account *a, const char *dir)
{
  DIR *d = opendir(dir);
  VEC(char *) names = {0};
  VEC(char *) marks = {0};
  for (struct dirent *e; d && (e = readdir(d)) != NULL;) {
    size_t n = strlen(e->d_name);
    if (strncmp(e->d_name, "purist-rt.", 10) != 0) continue;
    if (n > 5 && !strcmp(e->d_name + n - 5, ".json")) vec_push(&names, xasprintf("%s/%s", dir, e->d_name));
    else if (n > 6 && !strcmp(e->d_name + n - 6, ".alive")) vec_push(&marks, xstrdup(e->d_name));
  }
  if (d) closedir(d);
  if (marks.n) qsort(marks.v, marks.n, sizeof *marks.v, vr_cmp_str);
  for (size_t i = 0; i < marks.n; i++) {
    vr_lost(a, dir, marks.v[i]);
    free(marks.v[i]);
  }
  vec_free(&marks);
  if (names.n) qsort(names.v, names.n, sizeof *names.v, vr_cmp_str);   /* the same notes in the same order */
  int nread = 0;
  for (size_t i = 0; i < names.n; i++) {
    nread += vr_read_one(a, names.v[i]);
    free(names.v[i]);
  }
  vec_free(&names);
  vr_settle(a);
  return nread;
}

void vr_account_free(vr_account *a)
{
  for (size_t i = 0; i < a->fns.n; i++) free(a->fns.v[i].name);
  for (size_t i = 0; i < a->finds.n; i++) {
    free(a->finds.v[i].fn);
    free(a->finds.v[i].sym);
    free(a->finds.v[i].site_obj);
  }
  vec_free(&a->fns);
  vec_free(&a->finds);
  vec_free(&a->notes);   /* the strings moved to the caller */
}
