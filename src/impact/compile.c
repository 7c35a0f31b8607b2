/* compile.c — see compile.h. */
#include "impact/compile.h"
#include "util/cleanup.h"
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdbool.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

typedef VEC(char *) compile_argv;

/* Index of the compiler in the job's command: past the wrappers. */
static int compile_first(const fe_job *j)
{
  int i = 0;
  while (i < j->cmdc && cdb_is_wrapper(j->cmd[i])) i++;
  return i;
}

char *compile_find_compiler(const fe_job *j, const char **name)
{
  int i = compile_first(j);
  *name = i < j->cmdc ? j->cmd[i] : "";
  if (!**name) return NULL;
  if (strchr(*name, '/')) {
    char *abs = cdb_abspath(j->dir, *name);
    if (access(abs, X_OK) == 0) return abs;
    free(abs);
    return NULL;
  }
  const char *path = getenv("PATH");
  for (const char *p = path ? path : "/usr/bin:/bin"; ; ) {
    size_t n = strcspn(p, ":");
    char *cand = n ? xasprintf("%.*s/%s", (int)n, p, *name) : xasprintf("./%s", *name);
    if (access(cand, X_OK) == 0) {
      char *abs = cdb_abspath(j->dir, cand);
      free(cand);
      return abs;
    }
    free(cand);
    if (!p[n]) return NULL;
    p += n + 1;
  }
}

/* Flags whose next argument goes with them and is dropped too. */
static bool compile_drop_with_value(const char *a)
{
  static const char *const v[] = { "-o", "-MF", "-MT", "-MQ", "-MJ", NULL };
  for (int i = 0; v[i]; i++) if (!strcmp(a, v[i])) return true;
  return false;
}

/* Flags that name outputs or stop short of assembly (see compile.h). */
static bool compile_drop(const char *a)
{
  static const char *const exact[] = { "-c", "-S", "-E", "-M", "-MM", "-MD", "-MMD", "-MP",
                                       "-fsyntax-only", NULL };
  static const char *const prefix[] = { "-o", "-MF", "-MT", "-MQ", "-MJ", "-flto", "-save-temps",
                                        "-fdump-", NULL };
  for (int i = 0; exact[i]; i++) if (!strcmp(a, exact[i])) return true;
  for (int i = 0; prefix[i]; i++) if (!strncmp(a, prefix[i], strlen(prefix[i]))) return true;
  return !strncmp(a, "-Wp,", 4) && strstr(a, ",-M") != NULL;
}

/* Flags the assembler step needs: the target machine and assembler options. */
static bool compile_machine_flag(const char *a)
{
  return !strncmp(a, "-m", 2) || !strncmp(a, "--target=", 9) || !strncmp(a, "-Wa,", 4);
}

/* True if a is the job's source file (as the job's directory resolves it). */
static bool compile_is_source(const fe_job *j, const char *a)
{
  if (a[0] == '-') return false;
  char *abs = cdb_abspath(j->dir, a);
  bool same = !strcmp(abs, j->file);
  free(abs);
  return same;
}

static char **compile_finish(compile_argv *v)
{
  vec_push(v, NULL);
  return v->v;
}

void compile_cmd_init(compile_cmd *c, const fe_job *j, const tree_copy *t, const char *cc,
                      const char *s_path, const char *o_path)
{
  compile_argv as = {0}, ob = {0};
  bool has_opt = false;
  vec_push(&as, xstrdup(cc));
  vec_push(&ob, xstrdup(cc));
  for (int i = compile_first(j) + 1; i < j->cmdc; i++) {
    const char *a = j->cmd[i];
    if (compile_drop_with_value(a)) { i++; continue; }
    if (compile_drop(a) || compile_is_source(j, a)) continue;
    if (!strncmp(a, "-O", 2)) has_opt = true;
    vec_push(&as, tree_map_arg(t, a));
    bool two = (!strcmp(a, "-target") || !strcmp(a, "-Xassembler")) && i + 1 < j->cmdc;
    if (compile_machine_flag(a) || two) vec_push(&ob, xstrdup(a));
    if (two) {
      vec_push(&as, xstrdup(j->cmd[++i]));
      vec_push(&ob, xstrdup(j->cmd[i]));
    }
  }
  if (!has_opt) vec_push(&as, xstrdup("-O2"));
  /* No warnings, and no debug information: -g never changes the code (GCC
   * checks that with -fcompare-debug), and writing it is about an eighth
   * of a -g compile's time (Lua, GCC 12) that measures nothing. */
  const char *tail[] = { "-w", "-g0", "-S", "-o", s_path };
  for (size_t k = 0; k < 5; k++) vec_push(&as, xstrdup(tail[k]));
  vec_push(&as, tree_map_path(t, j->file));
  const char *otail[] = { "-c", "-x", "assembler", s_path, "-o", o_path };
  for (size_t k = 0; k < 6; k++) vec_push(&ob, xstrdup(otail[k]));
  c->dir = tree_map_path(t, j->dir);
  c->to_asm = compile_finish(&as);
  c->to_obj = compile_finish(&ob);
}

/* cc and the job's words that stay (see compile.h), each mapped into copy
 * t, or as written when t is NULL. */
static void compile_kept_words(compile_argv *v, const fe_job *j, const tree_copy *t, const char *cc)
{
  vec_push(v, xstrdup(cc));
  for (int i = compile_first(j) + 1; i < j->cmdc; i++) {
    const char *a = j->cmd[i];
    if (compile_drop_with_value(a)) { i++; continue; }
    if (compile_drop(a) || compile_is_source(j, a)) continue;
    vec_push(v, t ? tree_map_arg(t, a) : xstrdup(a));
  }
}

char **compile_deps_argv(const fe_job *j, const tree_copy *t, const char *cc)
{
  compile_argv v = {0};
  compile_kept_words(&v, j, t, cc);
  const char *tail[] = { "-w", "-M", "-MG" };
  for (size_t k = 0; k < 3; k++) vec_push(&v, xstrdup(tail[k]));
  vec_push(&v, tree_map_path(t, j->file));
  return compile_finish(&v);
}

char **compile_syntax_argv(const fe_job *j, const char *cc)
{
  compile_argv v = {0};
  compile_kept_words(&v, j, NULL, cc);
  vec_push(&v, xstrdup("-fsyntax-only"));
  vec_push(&v, xstrdup(j->file));
  return compile_finish(&v);
}

void compile_argv_free(char **v)
{
  for (size_t i = 0; v && v[i]; i++) free(v[i]);
  free(v);
}

void compile_cmd_fini(compile_cmd *c)
{
  free(c->dir);
  compile_argv_free(c->to_asm);
  compile_argv_free(c->to_obj);
}

int compile_run(char *const *argv, const char *dir, const char *log, char **err)
{
  if (cleanup_dying()) { *err = xstrdup("interrupted"); return -1; }
  int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (fd < 0) { *err = xasprintf("%s: %s", log, strerror(errno)); return -1; }
  posix_spawn_file_actions_t fa;
  posix_spawnattr_t at;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_adddup2(&fa, fd, STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&fa, fd, STDERR_FILENO);
  posix_spawn_file_actions_addopen(&fa, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addchdir_np(&fa, dir);
  posix_spawnattr_init(&at);
  /* A group of its own: a signal's cleanup kills the driver with cc1 and as. */
  posix_spawnattr_setpgroup(&at, 0);
  posix_spawnattr_setflags(&at, POSIX_SPAWN_SETPGROUP);
  pid_t pid;
  int rc = posix_spawn(&pid, argv[0], &fa, &at, argv, environ);
  posix_spawn_file_actions_destroy(&fa);
  posix_spawnattr_destroy(&at);
  close(fd);
  if (rc != 0) {
    *err = xasprintf("%s: could not run it in %s: %s", argv[0], dir, strerror(rc));
    return -1;
  }
  int slot = cleanup_child_add(pid), status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
  cleanup_child_done(slot);
  return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : 1;
}
