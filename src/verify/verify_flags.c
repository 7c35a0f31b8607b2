/* verify_flags.c — the flags `purist rt-flags` prints, and where the
 * runtime library is. */
#include "verify/verify.h"
#include "util/strbuf.h"
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* `dir/libpurist-rt.so` exists: returns dir made canonical, else NULL. */
static char *flags_try(const char *dir)
{
  char *lib = xasprintf("%s/libpurist-rt.so", dir);
  char *real = access(lib, R_OK) == 0 ? realpath(dir, NULL) : NULL;
  free(lib);
  return real;
}

char *verify_rt_dir(char **err)
{
  char exe[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (n <= 0) {
    *err = xasprintf("cannot find the purist executable: %s", strerror(errno));
    return NULL;
  }
  exe[n] = '\0';
  *strrchr(exe, '/') = '\0';
  char *up = xasprintf("%s/../lib", exe);
  char *dir = flags_try(exe);   /* the build tree: next to purist */
  if (!dir) dir = flags_try(up);   /* an installation: PREFIX/bin and PREFIX/lib */
  if (!dir) *err = xasprintf("libpurist-rt.so is neither in %s nor in %s", exe, up);
  free(up);
  return dir;
}

const char *verify_cflags(void)
{
  return "-finstrument-functions";
}

char *verify_ldflags(const char *rt_dir, const verify_protos *ps, const char *obj)
{
  strbuf b = {0};
  /* -z now: the GOT is read-only while watched calls run (RELRO); the
   * runtime is needed even where --as-needed is the default. */
  sb_printf(&b, "-L%s -Wl,-rpath,%s -Wl,-z,now -Wl,--push-state,--no-as-needed -lpurist-rt -Wl,--pop-state",
            rt_dir, rt_dir);
  if (obj && ps->n) {
    for (size_t i = 0; i < ps->n; i++) sb_printf(&b, " -Wl,--wrap=%s", ps->v[i].name);
    sb_printf(&b, " %s", obj);
  }
  char *s = xstrdup(sb_str(&b));
  sb_free(&b);
  return s;
}
