#!/usr/bin/env bash
# Issue 12 item 10: `fix` under faults. PURIST_FAULT_AFTER_WRITE_STEP=N
# makes purist kill itself (SIGKILL, as kill -9) right after its Nth write
# step (util/fault.h). Walking N over every step of a fix that edits three
# files: after each kill every file is byte for byte the old one or the
# new one, never a mix or a part; no temporary file is left, except one
# killed between its link and its rename, which the next fix removes. Some
# N leave some files new and others old:
# the walk really goes through the middle of the run.
set -euo pipefail
. "$(dirname "$0")/../e2e/lib.sh" "$@"
mkdir "$T/old" && cd "$T/old"
cat >a.h <<'EOF2'
int a_sq(int x);
int a_get(void);
EOF2
cat >a.c <<'EOF2'
#include "a.h"
int counter;
int a_sq(int x) { return x * x; }
int a_get(void) { return counter; }
EOF2
cat >b.c <<'EOF2'
#include "a.h"
static int b_twice(int x) { return 2 * x; }
int b_use(int x) { return b_twice(a_sq(x)) + a_get(); }
EOF2
files="a.h a.c b.c"
cp -r "$T/old" "$T/new"
(cd "$T/new" && "$PURIST" fix --no-cache a.c b.c >/dev/null 2>&1) || true
changed=0
for f in $files; do cmp -s "$T/old/$f" "$T/new/$f" || changed=$((changed + 1)); done
[ "$changed" -ge 2 ] || fail "the plain fix changed $changed files; the walk needs at least 2"

# temps DIR: the temporary files fix may leave in DIR.
temps() { find "$1" -name '.*.purist-*' | sort; }
check "every write step of fix, killed: each file old or new, no part, no stray temporary file"
n=0 mixed=0 killed=0
while :; do
  n=$((n + 1))
  [ $n -le 200 ] || fail "more than 200 write steps: the walk does not end"
  rm -rf "$T/w" && cp -r "$T/old" "$T/w"
  set +e
  (cd "$T/w" && exec env PURIST_FAULT_AFTER_WRITE_STEP=$n "$PURIST" fix --no-cache a.c b.c >"$T/out" 2>"$T/err")
  rc=$?
  set -e
  if [ $rc -ne 137 ]; then
    [ $rc -eq 0 ] || [ $rc -eq 1 ] || fail "step $n: fix ended with status $rc$NL$(show "$T/err")"
    grep -q 'fault injected' "$T/err" && fail "step $n: a fault was injected but fix did not die"
    break
  fi
  killed=$((killed + 1))
  grep -q "fault injected after write step $n " "$T/err" || fail "step $n: killed without saying where$NL$(show "$T/err")"
  news=0
  for f in $files; do
    if cmp -s "$T/w/$f" "$T/new/$f"; then news=$((news + 1))
    elif ! cmp -s "$T/w/$f" "$T/old/$f"; then fail "step $n: $f is neither old nor new$NL$(show "$T/w/$f")"
    fi
  done
  [ $news -gt 0 ] && [ $news -lt 3 ] && mixed=$((mixed + 1))
  left=$(temps "$T/w")
  if [ -n "$left" ]; then
    grep -q '(linked)' "$T/err" || fail "step $n: a temporary file left behind: $left$NL$(show "$T/err")"
  fi
  # The next fix removes what the killed one left and converges to the
  # plain run's tree (issue 23 item 5: a prototype whose definition the
  # killed run had already made const got nothing).
  (cd "$T/w" && "$PURIST" fix --no-cache a.c b.c >/dev/null 2>"$T/err2") || true
  for f in $files; do
    cmp -s "$T/w/$f" "$T/new/$f" ||
      fail "step $n: after a second fix, $f is not what an uninterrupted fix writes$NL$(diff "$T/new/$f" "$T/w/$f")"
  done
  [ -z "$(temps "$T/w")" ] || fail "step $n: a temporary file survives the next fix: $(temps "$T/w")"
done
[ $killed -ge 10 ] || fail "only $killed write steps: the fault switch does not reach fix's writes"
[ $mixed -gt 0 ] || fail "no step left some files new and others old"
echo "walked $killed write steps ($mixed with files half done)"

check "fix killed by TERM, INT, HUP at random moments: the re-run converges to the plain run's tree"
for sig in TERM INT HUP KILL; do
  for delay in 0.05 0.1 0.2 0.3 0.5; do
    rm -rf "$T/w" && cp -r "$T/old" "$T/w"
    (cd "$T/w" && exec "$PURIST" fix --no-cache a.c b.c >/dev/null 2>&1) &
    pid=$!
    sleep $delay
    kill -$sig $pid 2>/dev/null || true
    wait $pid 2>/dev/null || true
    (cd "$T/w" && "$PURIST" fix --no-cache a.c b.c >/dev/null 2>"$T/err2") || true
    for f in $files; do
      cmp -s "$T/w/$f" "$T/new/$f" || fail "SIG$sig after ${delay}s: $f after the re-run differs$NL$(diff "$T/new/$f" "$T/w/$f")"
    done
  done
done

check "fix as root keeps each file's owner, group and mode (issue 23 item 4)"
if [ "$(id -u)" -eq 0 ]; then
  rm -rf "$T/w" && cp -r "$T/old" "$T/w"
  chown 4321:4322 "$T/w/a.h" && chmod 664 "$T/w/a.h"
  chown 4323:4324 "$T/w/a.c" && chmod 2644 "$T/w/a.c"
  (cd "$T/w" && "$PURIST" fix --no-cache a.c b.c >/dev/null 2>"$T/err") || fail "fix failed$NL$(show "$T/err")"
  cmp -s "$T/w/a.h" "$T/new/a.h" && cmp -s "$T/w/a.c" "$T/new/a.c" || fail "fix did not edit a.h and a.c"
  [ "$(stat -c '%u:%g %a' "$T/w/a.h")" = "4321:4322 664" ] || fail "a.h became $(stat -c '%u:%g %a' "$T/w/a.h")"
  [ "$(stat -c '%u:%g %a' "$T/w/a.c")" = "4323:4324 2644" ] || fail "a.c became $(stat -c '%u:%g %a' "$T/w/a.c")"
else
  echo "skipped: not root"
fi

check "a file edited while fix writes it: the user's edit is kept, the file refused (issue 23 probe)"
# PURIST_FAULT_STOP=1 stops fix (SIGSTOP) after its first write step: the
# first file's new contents are in its temporary file, not yet renamed.
rm -rf "$T/w" && cp -r "$T/old" "$T/w"
(cd "$T/w" && exec env PURIST_FAULT_AFTER_WRITE_STEP=1 PURIST_FAULT_STOP=1 "$PURIST" fix --no-cache a.c b.c >"$T/out" 2>"$T/err") &
pid=$!
for _ in $(seq 600); do
  st=$(awk '{print $3}' "/proc/$pid/stat" 2>/dev/null || echo gone)
  [ "$st" = T ] || [ "$st" = gone ] && break
  sleep 0.1
done
[ "$st" = T ] || fail "fix did not stop at its first write step (state $st)$NL$(show "$T/err")"
for f in $files; do echo "/* the user's edit */" >>"$T/w/$f"; done
kill -CONT $pid
set +e
wait $pid
rc=$?
set -e
[ $rc -ne 0 ] || fail "exit 0 with the edited files not fixed$NL$(show "$T/err")"
for f in $files; do
  grep -q "the user's edit" "$T/w/$f" || fail "$f lost the user's edit$NL$(show "$T/w/$f")$NL$(show "$T/err")"
done
grep -q 'changed while it was being edited' "$T/err" || fail "the file written at the stop is not named$NL$(show "$T/err")"
[ -z "$(temps "$T/w")" ] || fail "temporary files left: $(temps "$T/w")"

check "a value that is not a positive number is refused, not obeyed"
rm -rf "$T/w" && cp -r "$T/old" "$T/w"
(cd "$T/w" && PURIST_FAULT_AFTER_WRITE_STEP=-3 "$PURIST" fix --no-cache a.c b.c >"$T/out" 2>"$T/err") || true
grep -q 'PURIST_FAULT_AFTER_WRITE_STEP=-3 is not a positive number' "$T/err" || fail "no warning$NL$(show "$T/err")"
for f in $files; do cmp -s "$T/w/$f" "$T/new/$f" || fail "$f not fixed"; done
echo "PASS"
