#!/usr/bin/env bash
# A class that holds only for the configuration analysed is not written
# into the sources: a stub in an `#else` branch of the body (found on curl:
# without TLS, curl_easy_ssls_import returns a constant and looked const,
# and fix put __attribute__((const)) on its prototype in the public
# header), and a definition whose alternative definition sits in a skipped
# branch, and callers of such functions. Near misses: a body whose #if branches are all taken, and a
# definition inside an include guard, are still edited.
set -euo pipefail
. "$(dirname "$0")/lib.sh" "$@"

mkdir "$T/p" && cd "$T/p"
cat >api.h <<'EOF2'
#ifndef API_H
#define API_H
int api_import(const char *blob, int len);
int keylog_enabled(void);
int api_version(int x);
int api_level(int x);
int api_setup(int x);
#endif
EOF2
cat >api.c <<'EOF2'
#include <stdio.h>
#include "api.h"
#define HAVE_LEVELS 1
int api_import(const char *blob, int len)
{
#ifdef USE_TLS
  return fputs(blob, stderr) + len;
#else
  (void)blob;
  return len;
#endif
}
#ifdef USE_TLS
int keylog_enabled(void)
{
  return getenv_keylog() != 0;
}
#else
int keylog_enabled(void)
{
  return 0;
}
#endif
int api_version(int x)
{
  return x + 1;
}
int api_level(int x)
{
#if HAVE_LEVELS
  x *= 2;
#endif
  return x;
}
int api_setup(int x)
{
  return api_import("", x) > 0;
}
EOF2
cp api.h "$T/api.h.orig"

run fix api.c
expect_rc 0

check "a body with a skipped #else stub is left alone, with a note"
expect_file_has api.h '^int api_import\(const char \*blob, int len\);$'
expect_file_has api.c '^int api_import\(const char \*blob, int len\)$'
expect_stderr_has "^api\.c:4:5: note: 'api_import' is not made const: it is const only in the configuration analysed"

check "a definition with another definition in a skipped branch is left alone"
expect_file_has api.h '^int keylog_enabled\(void\);$'
expect_stderr_has "note: 'keylog_enabled' is not made const: it is const only in the configuration analysed"

check "a caller of such a function is left alone too, with the callee named"
expect_file_has api.h '^int api_setup\(int x\);$'
expect_stderr_has "note: 'api_setup' is not made const: it is const only in the configuration analysed: it calls 'api_import'"

check "near misses: all #if branches taken, include guard: edited"
expect_file_has api.h '^int api_version\(int x\) __attribute__\(\(const\)\);$'
expect_file_has api.h '^int api_level\(int x\) __attribute__\(\(const\)\);$'
expect_file_has api.c '^__attribute__\(\(const\)\) int api_level\(int x\)$'
expect_stderr_has '^purist: fix: 4 edits in 2 files$'
compiles api.c

check "idempotent: a second run edits nothing"
cp api.c "$T/c1"
run fix api.c
expect_rc 0
same "$T/c1" api.c "api.c after the first and second run"
echo "ok"
