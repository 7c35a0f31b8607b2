#!/usr/bin/env bash
# Another platform's implementation (issue 29, item 6): include/thr.h's
# prototypes are defined by src/unix/thread.c, which the database
# compiles, and by src/win/thread.c beside it, which it does not. The Unix
# thr_self is const; the Windows one memoises. suggest makes no suggestion
# at the shared prototype (a note that names src/win/thread.c), a caller
# that is pure only through it neither, and fix leaves the header alone
# with a note. Near misses: thr_count, defined in the Unix file only, is
# suggested and fixed; a test file elsewhere that defines it too, a
# compiled file whose definition of it an #if leaves out, and a static
# function of the same name beside (zstd's legacy/zstd_v01.c keeps its own
# static FSE_isError) change nothing.
set -euo pipefail
. "$(dirname "$0")/lib.sh" "$@"

mkdir -p "$T/p/include" "$T/p/src/unix" "$T/p/src/win" "$T/p/test" && cd "$T/p"
cat >include/thr.h <<'EOF2'
#ifndef THR_H
#define THR_H
unsigned long thr_self(void);
int thr_count(int n);
unsigned long thr_tag(void);
#endif
EOF2
cat >src/unix/thread.c <<'EOF2'
#include "thr.h"
unsigned long thr_self(void) { return 42; }
int thr_count(int n) { return n * 2; }
EOF2
cat >src/win/thread.c <<'EOF2'
#include "thr.h"
/* Memoised: the first call asks the system. */
static unsigned long cached;
unsigned long
thr_self (void)
{
  if (!cached) cached = 7; /* "GetCurrentThreadId() {" */
  return cached;
}
EOF2
cat >src/tag.c <<'EOF2'
#include "thr.h"
unsigned long thr_tag(void) { return thr_self() + 1; }
EOF2
cat >src/use.c <<'EOF2'
#include "thr.h"
unsigned long use(int n) { return thr_self() + thr_self() + thr_count(n) + thr_count(n) + thr_tag() + thr_tag(); }
EOF2
cat >src/win/helpers.c <<'EOF2'
/* A helper of this file only, named like the exported one. */
static int
thr_count (int n)
{
  return n - 1;
}
EOF2
cat >test/mock.c <<'EOF2'
int thr_count(int n) { return n; }
EOF2
cat >src/unix/legacy.c <<'EOF2'
/* Compiled, but this configuration leaves its function out: no TU read
 * it for a definition, and the database compiles it all the same. */
#include "thr.h"
#if defined __DJGPP__
int thr_count(int n) { return n + 1; }
#endif
EOF2
{
  printf '['
  sep=''
  for f in src/unix/thread.c src/unix/legacy.c src/tag.c src/use.c; do
    printf '%s{"directory": "%s", "file": "%s/%s", "command": "cc -O2 -Iinclude -c %s"}' "$sep" "$T/p" "$T/p" "$f" "$f"
    sep=$',\n '
  done
  printf ']\n'
} >compile_commands.json

run suggest -p . --root "$T/p" --all
expect_rc 0
check "suggest: no suggestion at the prototype another platform's file defines too; a note naming that file"
expect_stdout_has "src/unix/thread.c:2:[0-9]+: note: 'thr_self' is const only in the files analysed"
expect_stdout_has "src/win/thread.c:5 defines 'thr_self' too, in a file the compile database does not compile"
expect_stdout_lacks "include/thr.h:3:[0-9]+: warning: .*thr_self"
check "suggest: a caller const only through it is not suggested at its prototype either"
expect_stdout_has "note: 'thr_tag' is const only in the files analysed: .*it calls 'thr_self', which src/win/thread.c:5 defines too, in a file the compile database does not compile"
expect_stdout_lacks "include/thr.h:5:[0-9]+: warning: .*thr_tag"
check "suggest near miss: thr_count (test/ is not beside src/unix; src/unix/legacy.c is compiled) is suggested"
expect_stdout_has "include/thr.h:4:[0-9]+: warning: .*'thr_count'"

run fix -p . --root "$T/p"
expect_rc 0
check "fix: the shared prototype keeps no attribute; a note says why"
expect_file_lacks include/thr.h 'thr_self\(void\).*__attribute__'
expect_file_lacks include/thr.h 'thr_tag\(void\).*__attribute__'
expect_stderr_has "'thr_self' is not made const: src/win/thread.c:5 defines it too"
check "fix near miss: thr_count gets its attribute"
expect_file_has include/thr.h '^int thr_count\(int n\) __attribute__\(\(const\)\);$'
