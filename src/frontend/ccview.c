/* ccview.c — the build compiler's view of the preprocessor (issue 14.5).
 *
 * libclang predefines clang's macros (__clang__, __GNUC__ 4), so code that
 * GCC builds is preprocessed differently: `#if !defined(__clang__)
 * #define ATTR_CONST __attribute__((const))` is empty to purist and the
 * attribute the build compiles goes unchecked. For a compile command that
 * runs GCC (gcc, cc, a target-prefixed gcc, gcc-N), the TU is parsed with
 * -undef and, first of all -include's, a virtual header (an unsaved file
 * libclang reads from memory) holding that compiler's own predefined
 * macros, as `COMPILER FLAGS -dM -E -x c /dev/null` prints them with the
 * command's flags that change them (-m*, -O*, -std, -f*, -U…). Each
 * distinct compiler and flag set is asked once per process.
 *
 * GCC-only spellings that glibc's headers then choose are shimmed at the
 * end of the header: _Float32/_Float64/_Float32x/_Float64x/_Float128 as
 * the types clang has, and `__malloc__ (dealloc, n)` (GCC 11's deallocator
 * form, which clang rejects) as plain __malloc__. A TU that still fails is
 * parsed again with clang's view (parse.c), and the message says so. */
#include "frontend/fe_internal.h"
#include "util/fileio.h"
#include "util/strbuf.h"
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <spawn.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <xxhash.h>

extern char **environ;

struct fe_ccview {
  char *key;          /* compiler NUL-separated flags, as asked */
  char *compiler;     /* as the command names it */
  char *path;         /* the virtual header's path (FE_CCVIEW_DIR…) */
  char *text;         /* its contents; NULL: not a GCC, or it could not be run */
  size_t len;
  size_t keylen;
  char *why;          /* text NULL: why (said once, by the first TU) */
  bool said;
};

static pthread_mutex_t ccv_lock = PTHREAD_MUTEX_INITIALIZER;
static VEC(fe_ccview *) ccv_views;
static fe_view_mode ccv_mode = FE_VIEW_BUILD;
static unsigned long ccv_counts[3];   /* ccv_kind */

typedef enum { CCV_GCC = 0, CCV_FALLBACK = 1, CCV_CLANG = 2 } ccv_kind;

#define CCV_ENV "PURIST_COMPILER_VIEW"

void fe_ccview_set_mode(fe_view_mode m)
{
  ccv_mode = m;
  setenv(CCV_ENV, m == FE_VIEW_CLANG ? "clang" : "build", 1);   /* the parse workers read it */
}

void fe_ccview_mode_from_env(void)
{
  const char *v = getenv(CCV_ENV);
  ccv_mode = v && !strcmp(v, "clang") ? FE_VIEW_CLANG : FE_VIEW_BUILD;
}

/* ---- which compiler, which flags ---- */

/* gcc, cc, gcc-12, x86_64-linux-gnu-gcc, x86_64-linux-gnu-gcc-12. Named
 * so; ccv_make checks that it really is GCC (cc may be clang). */
static bool ccv_gcc_named(const char *cc)
{
  const char *b = strrchr(cc, '/');
  b = b ? b + 1 : cc;
  if (!strcmp(b, "cc")) return true;
  size_t n = strlen(b);
  const char *dash = strrchr(b, '-');
  if (dash && dash[1] && strspn(dash + 1, "0123456789.") == strlen(dash + 1)) n = (size_t)(dash - b);
  return (n == 3 && !strncmp(b, "gcc", 3)) || (n > 4 && !strncmp(b + n - 4, "-gcc", 4));
}

/* The compiler a job's command runs: its first word after wrappers. */
static const char *ccv_compiler(const fe_job *job)
{
  for (int i = 0; job->cmd && i < job->cmdc; i++)
    if (!cdb_is_wrapper(job->cmd[i])) return job->cmd[i];
  return NULL;
}

static bool ccv_prefix(const char *a, const char *p) { return !strncmp(a, p, strlen(p)); }

/* Does flag a change what the compiler predefines? Target and language
 * (-m*, -std, -ansi), optimisation (__OPTIMIZE__), -f* (__PIC__, _OPENMP,
 * __SSP__, __FAST_MATH__…), -pthread, -specs, -U and -undef. Not -D: the
 * job's -D come first on clang's command line, and the header defines a
 * name only if it is not yet defined, as GCC lets -D override. */
static bool ccv_flag_wanted(const char *a)
{
  if (ccv_prefix(a, "-f"))
    return !strstr(a, "prefix-map") && !ccv_prefix(a, "-fdiagnostics") && !ccv_prefix(a, "-fmessage-length")
        && !ccv_prefix(a, "-fprofile") && !ccv_prefix(a, "-fcolor") && !ccv_prefix(a, "-fno-color");
  return ccv_prefix(a, "-m") || ccv_prefix(a, "-O") || ccv_prefix(a, "-std=") || !strcmp(a, "-ansi")
      || !strcmp(a, "-pthread") || ccv_prefix(a, "-specs=") || ccv_prefix(a, "--specs=") || ccv_prefix(a, "-U")
      || !strcmp(a, "-undef") || ccv_prefix(a, "--target=") || ccv_prefix(a, "-target");
}

typedef VEC(char) ccv_bytes;

/* Appends the wanted flags of argv[0..argc) to k, each NUL-terminated. A
 * -U or -target with its value apart keeps the value. An @file's words
 * count as if written there (one level, as the parse reads it; relative
 * to the job's directory): the flags only, never its -o or sources, which
 * `gcc -dM -E` would act on. */
static void ccv_key_flags(ccv_bytes *k, const char *dir, char *const *argv, int argc, bool in_rsp)
{
  for (int i = 0; i < argc; i++) {
    const char *a = argv[i];
    if (a[0] == '@' && a[1] && !in_rsp) {
      char *path = cdb_abspath(dir, a + 1), *text;
      size_t tlen;
      int n = 0;
      const char *why;   /* a FIFO is never read (it would block); the parse says why */
      char **words = (text = file_read_regular(path, (size_t)16 << 20, &tlen, &why)) ? cdb_split_command(text, &n) : NULL;
      if (words) ccv_key_flags(k, dir, words, n, true);
      for (int w = 0; words && w < n; w++) free(words[w]);
      free(words);
      free(text);
      free(path);
      continue;
    }
    if (!ccv_flag_wanted(a)) continue;
    /* GCC before 14 knows C23 only as c2x (and 14 still takes c2x for
     * it): a command written for clang 19 would make the question fail. */
    if (!strcmp(a, "-std=c23")) a = "-std=c2x";
    else if (!strcmp(a, "-std=gnu23")) a = "-std=gnu2x";
    bool apart = (!strcmp(a, "-U") || !strcmp(a, "-target")) && i + 1 < argc;
    for (int j = 0; j <= (apart ? 1 : 0); j++) {
      for (const char *p = j ? argv[i + j] : a; *p; p++) vec_push(k, *p);
      vec_push(k, '\0');
    }
    if (apart) i++;
  }
}

/* The key: compiler, then the wanted flags, each NUL-terminated. */
static char *ccv_key(const fe_job *job, const char *cc, size_t *len)
{
  ccv_bytes k = {0};
  for (const char *p = cc; *p; p++) vec_push(&k, *p);
  vec_push(&k, '\0');
  ccv_key_flags(&k, job->dir, job->argv, job->argc, false);
  *len = k.n;
  return k.v;
}

/* ---- asking the compiler ---- */

/* Runs argv in dir; returns its standard output (caller frees) if it
 * exits 0, else NULL with *why. */
static char *ccv_run(char **argv, const char *dir, size_t *len, char **why)
{
  int fd[2];
  /* Close-on-exec: another thread may spawn a parse worker meanwhile,
   * which must not keep the write end open (the read would never end). */
  if (pipe2(fd, O_CLOEXEC) != 0) { *why = xasprintf("pipe: %s", strerror(errno)); return NULL; }
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_adddup2(&fa, fd[1], 1);
  posix_spawn_file_actions_addclose(&fa, fd[0]);
  posix_spawn_file_actions_addclose(&fa, fd[1]);
  posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addchdir_np(&fa, dir);
  pid_t pid;
  int rc = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
  posix_spawn_file_actions_destroy(&fa);
  close(fd[1]);
  if (rc != 0) {
    close(fd[0]);
    *why = xasprintf("cannot run the compiler %s (%s) to learn its predefined macros", argv[0], strerror(rc));
    errno = rc;
    return NULL;
  }
  VEC(char) out = {0};
  char buf[8192];
  ssize_t n;
  while ((n = read(fd[0], buf, sizeof buf)) > 0 || (n < 0 && errno == EINTR))
    for (ssize_t i = 0; i < n; i++) vec_push(&out, buf[i]);
  close(fd[0]);
  int st = 0;
  while (waitpid(pid, &st, 0) < 0 && errno == EINTR) {}
  if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
    vec_free(&out);
    *why = xasprintf("the compiler %s does not list its predefined macros ('%s -dM -E': exit status %d)",
                     argv[0], argv[0], WIFEXITED(st) ? WEXITSTATUS(st) : -1);
    errno = 0;   /* it ran */
    return NULL;
  }
  vec_push(&out, '\0');
  *len = out.n - 1;
  return out.v;
}

/* Macros clang keeps under -undef or treats as its own builtins: defined
 * by the language mode, the same in both compilers. */
static bool ccv_kept(const char *name, size_t n)
{
  static const char *const kept[] = { "__STDC__", "__STDC_VERSION__", "__STDC_HOSTED__", "__STDC_UTF_16__",
                                      "__STDC_UTF_32__", "__FLT_EVAL_METHOD__", "__GCC_HAVE_DWARF2_CFI_ASM", NULL };
  for (int i = 0; kept[i]; i++)
    if (strlen(kept[i]) == n && !strncmp(name, kept[i], n)) return true;
  return n > 13 && !strncmp(name, "__STDC_EMBED_", 13);
}

static const char ccv_shims[] =
  "/* GCC-only types glibc uses when __GNUC__ >= 7 and not __clang__ */\n"
  "#define _Float32 float\n"
  "#define _Float64 double\n"
  "#define _Float32x double\n"
  "#define _Float64x long double\n"
  "#if defined(__x86_64__) || defined(__i386__)\n"
  "#define _Float128 __float128\n"
  "#else\n"
  "#define _Float128 long double\n"
  "#endif\n"
  "/* GCC 11's __malloc__ (deallocator, argno), which clang rejects */\n"
  "#define __malloc__(...) __malloc__\n";

/* The header: each macro of the compiler's -dM output, defined unless the
 * command line defined it first, then the shims. */
static char *ccv_header(const char *dm, const char *what, size_t *len)
{
  strbuf b = {0};
  sb_printf(&b, "/* purist: the predefined macros of %s (its -dM -E), in place of clang's */\n", what);
  for (const char *p = dm; *p;) {
    const char *nl = strchr(p, '\n');
    size_t ln = nl ? (size_t)(nl - p) : strlen(p);
    if (ln > 8 && !strncmp(p, "#define ", 8)) {
      const char *name = p + 8;
      size_t n = strcspn(name, " (\n");
      if (!ccv_kept(name, n)) sb_printf(&b, "#ifndef %.*s\n%.*s\n#endif\n", (int)n, name, (int)ln, p);
    }
    p += ln + (nl ? 1 : 0);
  }
  sb_puts(&b, ccv_shims);
  *len = b.n;
  return b.s;   /* the buffer is the caller's now */
}

/* Asks the compiler of key (compiler, flags) in dir; fills v. */
static void ccv_make(fe_ccview *v, const char *dir)
{
  VEC(char *) av = {0};
  strbuf what = {0};
  for (size_t off = 0; off < v->keylen; off += strlen(v->key + off) + 1) {
    vec_push(&av, v->key + off);
    sb_printf(&what, "%s%s", off ? " " : "", v->key + off);
  }
  static char *const tail[] = { "-dM", "-E", "-x", "c", "/dev/null" };
  for (size_t i = 0; i < sizeof tail / sizeof *tail; i++) vec_push(&av, tail[i]);
  vec_push(&av, NULL);
  size_t len = 0;
  char *dm = fe_ccview_disk_get(av.v, dir, &len);
  if (!dm && (dm = ccv_run(av.v, dir, &len, &v->why))) fe_ccview_disk_put(av.v, dir, dm, len);
  vec_free(&av);
  if (!dm && !strcmp(v->compiler, "cc") && errno == ENOENT) {
    free(v->why);   /* no `cc` at all: files named on purist's command line stand for it; nothing to say */
    v->why = NULL;
  }
  if (dm && (!strstr(dm, "#define __GNUC__ ") || strstr(dm, "#define __clang__ "))) {
    free(dm);   /* `cc` is clang here (or not GNU C): clang's view is the build's, nothing to say */
    dm = NULL;
  }
  if (dm) {
    v->text = ccv_header(dm, sb_str(&what), &v->len);
    v->path = xasprintf("%sgcc-%016llx.h", FE_CCVIEW_DIR, (unsigned long long)XXH3_64bits(v->text, v->len));
    free(dm);
  }
  sb_free(&what);
}

/* ---- the views ---- */

/* The job's view: found by its key, else made by asking the compiler, or
 * (preset) from the text a parent process found. NULL: clang's view. */
static const fe_ccview *ccv_get(const fe_job *job, bool preset, const char *text, size_t tlen)
{
  if (ccv_mode != FE_VIEW_BUILD || fe_pp_wanted(job)) return NULL;   /* a .i is already preprocessed */
  const char *cc = ccv_compiler(job);
  if (!cc || !ccv_gcc_named(cc)) return NULL;
  size_t len;
  char *key = ccv_key(job, cc, &len);
  /* A compiler named by a relative path is found from the job's directory. */
  bool rel = strchr(cc, '/') && cc[0] != '/';
  pthread_mutex_lock(&ccv_lock);
  fe_ccview *v = NULL;
  for (size_t i = 0; i < ccv_views.n && !v; i++) {
    fe_ccview *w = ccv_views.v[i];
    if (w->keylen == len && !memcmp(w->key, key, len) && (!rel || !strcmp(w->compiler, cc))) v = w;
  }
  if (!v) {
    v = xcalloc(1, sizeof *v);
    v->key = key;
    v->keylen = len;
    v->compiler = xstrdup(cc);
    key = NULL;
    if (!preset) {
      ccv_make(v, job->dir);
    } else if (text) {
      v->text = xstrndup(text, tlen);
      v->len = tlen;
      v->path = xasprintf("%sgcc-%016llx.h", FE_CCVIEW_DIR, (unsigned long long)XXH3_64bits(v->text, v->len));
    }
    vec_push(&ccv_views, v);
  }
  pthread_mutex_unlock(&ccv_lock);
  free(key);
  return v;
}

const fe_ccview *fe_ccview_for(const fe_job *job) { return ccv_get(job, false, NULL, 0); }

void fe_ccview_preset(const fe_job *job, const char *text, size_t len) { ccv_get(job, true, text, len); }

const char *fe_ccview_text_for(const fe_job *job, size_t *len)
{
  return fe_ccview_text(fe_ccview_for(job), len);
}

const char *fe_ccview_text(const fe_ccview *v, size_t *len)
{
  *len = v && v->text ? v->len : 0;
  return v ? v->text : NULL;
}

const char *fe_ccview_path(const fe_ccview *v) { return v && v->text ? v->path : NULL; }

/* Why a GCC-named compiler gave no view, once per compiler (caller
 * frees); else NULL. */
static char *ccv_why(const fe_ccview *v)
{
  if (!v || v->text || !v->why) return NULL;
  pthread_mutex_lock(&ccv_lock);
  bool first = !v->said;
  ((fe_ccview *)v)->said = true;
  pthread_mutex_unlock(&ccv_lock);
  return first ? xasprintf("%s: install it or correct compile_commands.json, or give --compiler-view=clang "
                           "to stop asking; " FE_MSG_CLANG_MACROS, v->why) : NULL;
}

const char *fe_ccview_compiler(const fe_ccview *v) { return v ? v->compiler : NULL; }

uint64_t fe_ccview_digest(const fe_job *job)
{
  const fe_ccview *v = fe_ccview_for(job);
  return v && v->text ? XXH3_64bits(v->text, v->len) | 1 : 0;
}

fe_status fe_ccview_counted(void *ctx, const fe_job *job, const kb *kb, sum_tu **out, fe_msgs *msgs,
                            fe_deps *deps)
{
  const fe_parser *inner = ctx;
  const fe_ccview *v = fe_ccview_for(job);
  char *why = ccv_why(v);
  if (why) vec_push(msgs, xasprintf("%s: warning: %s", job->file, why));
  free(why);
  size_t before = msgs->n;
  fe_status st = inner->run(inner->ctx, job, kb, out, msgs, deps);
  ccv_kind k = fe_ccview_path(v) ? CCV_GCC : CCV_CLANG;
  for (size_t i = before; i < msgs->n && k == CCV_GCC; i++)
    if (strstr(msgs->v[i], FE_CCVIEW_FELL_BACK) || strstr(msgs->v[i], FE_CCVIEW_BOTH_FAIL))
      k = CCV_FALLBACK;
  pthread_mutex_lock(&ccv_lock);
  ccv_counts[k]++;
  pthread_mutex_unlock(&ccv_lock);
  return st;
}

bool fe_msg_is_advice(const char *msg)
{
  return strstr(msg, ": warning: compiler flags:") || strstr(msg, FE_MSG_CLANG_MACROS) ||
         strstr(msg, FE_CCVIEW_BOTH_FAIL);
}

void fe_ccview_print_stats(FILE *f)
{
  pthread_mutex_lock(&ccv_lock);
  fprintf(f, "purist: compiler view: %lu parsed with GCC's macros, %lu fell back to clang's, %lu with clang's\n",
          ccv_counts[CCV_GCC], ccv_counts[CCV_FALLBACK], ccv_counts[CCV_CLANG]);
  pthread_mutex_unlock(&ccv_lock);
}

bool fe_ccview_is_virtual(const char *path)
{
  return path && !strncmp(path, FE_CCVIEW_DIR, strlen(FE_CCVIEW_DIR));
}
