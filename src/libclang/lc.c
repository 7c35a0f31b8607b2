/* lc.c — loading libclang on demand (lc.h). */
#define LC_NO_REDIRECT
#include "libclang/lc.h"
#include <dlfcn.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <xxhash.h>

#ifndef PURIST_LIBCLANG_PATH
#error "PURIST_LIBCLANG_PATH: the libclang to load, set by CMakeLists.txt"
#endif
#ifndef PURIST_LIBCLANG_VERSION
#error "PURIST_LIBCLANG_VERSION: clang_getClangVersion at build time, set by cmake/libclang.cmake"
#endif

lc_table lc_fn;

/* The names, in lc_table's order, and each field's offset. */
static const struct {
  const char *name;
  size_t off;
} lc_syms[] = {
#define LC_FN(n) { #n, offsetof(lc_table, n) },
#include "libclang/lc_fns.h"
#undef LC_FN
};

static pthread_once_t lc_once = PTHREAD_ONCE_INIT;
static const char *lc_why;   /* set by the one lc_open run; NULL: loaded */
static char lc_why_buf[1024];

/* Opens the library and fills lc_fn (run once, by pthread_once). The
 * handle is kept for the process's life: the functions are in use until
 * it ends. Lazy binding: the calls purist never makes cost nothing. */
static void lc_open(void)
{
  void *h = dlopen(PURIST_LIBCLANG_PATH, RTLD_LAZY | RTLD_LOCAL);
  if (!h) {
    const char *e = dlerror();
    snprintf(lc_why_buf, sizeof lc_why_buf, "cannot load libclang: %s", e ? e : PURIST_LIBCLANG_PATH);
    lc_why = lc_why_buf;
    return;
  }
  lc_table t;
  for (size_t i = 0; i < sizeof lc_syms / sizeof *lc_syms; i++) {
    void *f = dlsym(h, lc_syms[i].name);
    if (!f) {
      snprintf(lc_why_buf, sizeof lc_why_buf, "cannot load libclang: %s has no function %s (not libclang 19?)",
               PURIST_LIBCLANG_PATH, lc_syms[i].name);
      lc_why = lc_why_buf;
      dlclose(h);
      return;
    }
    memcpy((char *)&t + lc_syms[i].off, &f, sizeof f);   /* POSIX: a data pointer holds a function's */
  }
  lc_fn = t;
}

int lc_load(const char **why)
{
  pthread_once(&lc_once, lc_open);
  if (lc_why && why) *why = lc_why;
  return lc_why ? -1 : 0;
}

CXIndex lc_create_index(int exclude_pch, int display_diagnostics)
{
  if (lc_load(NULL) < 0) return NULL;
  return lc_fn.clang_createIndex(exclude_pch, display_diagnostics);
}

const char *lc_version(void) { return PURIST_LIBCLANG_VERSION; }

uint64_t lc_identity(void)
{
  XXH3_state_t *h = XXH3_createState();
  XXH3_64bits_reset(h);
  XXH3_64bits_update(h, PURIST_LIBCLANG_VERSION, sizeof PURIST_LIBCLANG_VERSION);
  XXH3_64bits_update(h, PURIST_LIBCLANG_PATH, sizeof PURIST_LIBCLANG_PATH);
  struct stat st;
  long long stamp[7] = { 0 };
  if (stat(PURIST_LIBCLANG_PATH, &st) == 0) {   /* through the symlinks: the file the loader maps */
    long long s[7] = { (long long)st.st_dev, (long long)st.st_ino, (long long)st.st_size,
                       (long long)st.st_mtim.tv_sec, (long long)st.st_mtim.tv_nsec,
                       (long long)st.st_ctim.tv_sec, (long long)st.st_ctim.tv_nsec };
    memcpy(stamp, s, sizeof stamp);
  }
  XXH3_64bits_update(h, stamp, sizeof stamp);
  uint64_t v = XXH3_64bits_digest(h);
  XXH3_freeState(h);
  return v;
}
