#!/usr/bin/env bash
# summarize's own errors: without -o it refuses (exit 2); when the output
# cannot be written (a directory that does not exist, a path through a
# regular file, an existing directory as the output, a directory the user
# may not write to) it exits 2, names the file, and leaves no partial or
# temporary file behind.
set -euo pipefail
. "$(dirname "$0")/lib.sh" "$@"

mkdir -p "$T/p"
cd "$T/p"
printf 'int one(void) { return 1; }\nint two(int x) { return x + one(); }\n' >a.c

# no_leftovers DIR: DIR holds nothing but what was there before ($2...).
no_leftovers() {
  local dir=$1 f
  shift
  for f in "$dir"/* "$dir"/.[!.]*; do
    [ -e "$f" ] || continue
    local base=${f##*/} ok=0 keep
    for keep in "$@"; do [ "$base" = "$keep" ] && ok=1; done
    [ $ok -eq 1 ] || fail "summarize left $f behind"
  done
}

check "summarize without -o: exit 2, one line, nothing written"
run summarize a.c
expect_usage_error '-o'
no_leftovers "$T/p" a.c

check "summarize -o into a directory that does not exist"
run summarize -o "$T/p/nodir/x.purist" a.c
expect_rc 2
expect_stdout_empty
expect_stderr_has 'nodir/x\.purist'
[ ! -e "$T/p/nodir" ] || fail "summarize created nodir"
no_leftovers "$T/p" a.c

check "summarize -o through a regular file (afile/x.purist)"
touch afile
run summarize -o afile/x.purist a.c
expect_rc 2
expect_stderr_has 'afile/x\.purist'
no_leftovers "$T/p" a.c afile

check "summarize -o naming an existing directory: exit 2, directory untouched, no temp file"
mkdir -p outdir/sub
run summarize -o outdir a.c
expect_rc 2
expect_stderr_has 'outdir'
[ -d outdir/sub ] || fail "outdir was changed"
no_leftovers "$T/p" a.c afile outdir

check "summarize -o into a read-only directory: exit 2, no partial file"
mkdir -p ro
if [ "$(id -u)" -ne 0 ]; then
  chmod 555 ro
  run summarize -o ro/x.purist a.c
  chmod 755 ro
elif command -v setpriv >/dev/null &&
     setpriv --reuid=65534 --regid=65534 --clear-groups "$PURIST" --version >/dev/null 2>&1 &&
     chmod 755 "$T" "$T/p" && chmod 644 a.c &&
     setpriv --reuid=65534 --regid=65534 --clear-groups test -r "$T/p/a.c"; then
  # As root every directory is writable: run purist as nobody instead.
  chmod 755 ro
  set +e
  (cd "$T/p" && setpriv --reuid=65534 --regid=65534 --clear-groups "$PURIST" summarize -o ro/x.purist a.c) \
    >"$T/out" 2>"$T/err"
  RC=$?
  set -e
  LAST="(as nobody) purist summarize -o ro/x.purist a.c"
else
  echo "  (skipped: running as root and cannot drop privileges)"
  RC=2; : >"$T/out"; echo "ro/x.purist: skipped" >"$T/err"
fi
expect_rc 2
expect_stderr_has 'ro/x\.purist'
no_leftovers "$T/p/ro"

check "after all that, summarize -o works and link reads it"
run summarize -o good.purist a.c
expect_ok
run link good.purist
expect_ok
expect_stdout_has '^a\.c:1: one: const'
no_leftovers "$T/p" a.c afile outdir ro good.purist
echo "ok"
