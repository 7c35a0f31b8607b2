#!/usr/bin/env bash
# check keeps a whole program's findings in the cache (issue 32 item 3):
# a one-file run whose summaries are all those of an earlier run prints
# that run's findings without decoding, linking or solving anything (said
# by --stats), and every run, kept or not, prints exactly what a run
# without the cache prints. The edits a one-file run must get right: one
# that changes the class of a function in a cycle through another file,
# and one that changes the class of a caller in another file. check FILE
# reports FILE's findings only (as without the cache); the other file's
# new finding shows when that file is checked, from the same kept entry.
set -euo pipefail
. "$(dirname "$0")/lib.sh" "$@"

mkdir -p "$T/p"
cd "$T/p"
cat > a.c <<'EOF'
int seen;
int ping(int n);
int pong(int n) { return n > 0 ? ping(n - 1) : 0; }
EOF
cat > b.c <<'EOF'
__attribute__((const)) int ping(int n);
int pong(int n);
int ping(int n) { return n > 0 ? pong(n - 1) : 1; }
int helper(int x);
__attribute__((pure)) int user(int x);
int user(int x) { return helper(x) + 1; }
EOF
cat > c.c <<'EOF'
int helper(int x) { return x * 3; }
EOF
printf '[{"directory":"%s","file":"a.c","arguments":["cc","-c","a.c"]},
{"directory":"%s","file":"b.c","arguments":["cc","-c","b.c"]},
{"directory":"%s","file":"c.c","arguments":["cc","-c","c.c"]}]\n' "$PWD" "$PWD" "$PWD" > compile_commands.json

# both FILE REGEX-OF-STATS WHAT: check -p . FILE through the cache, then
# without it; stdout, exit status and stderr (less the --stats lines and
# the cache's notes of damaged entries) equal.
both() {
  run check --stats -p . "$1"
  expect_stderr_has "$2"
  cp "$T/out" "$T/kept.out"
  cp "$T/err" "$T/kept.full.err"
  grep -Ev '^purist: (cache|compiler view|note: cache):' "$T/err" > "$T/kept.err" || true
  local rc=$RC
  run check --no-cache -p . "$1"
  [ "$RC" -eq "$rc" ] || fail "$3: exit status $rc with the cache, $RC without"
  same "$T/out" "$T/kept.out" "$3: stdout with and without the cache"
  same "$T/err" "$T/kept.err" "$3: stderr with and without the cache"
}
computed='findings computed'
kept='findings kept from a run on the same summaries'

check "a cold run computes the findings; nothing to report"
both a.c "$computed" "cold"
expect_rc 0

check "the same run again: no parse, the findings kept"
both a.c "$kept" "warm"
run check --stats -p . a.c
expect_stderr_has 'cache: 3 hits, 0 misses, 0 parsed'

check "another file of the same program: the same kept findings serve it"
both c.c "$kept" "warm, another file"

check "a comment at the end of a file leaves its summary as it was: still kept"
printf '/* a note */\n' >> a.c
both a.c "$kept" "comment"

check "edit a.c so that pong, in a cycle with b.c's ping, writes a global: computed again"
cat > a.c <<'EOF'
int seen;
int ping(int n);
int pong(int n) { seen = n; return n > 0 ? ping(n - 1) : 0; }
EOF
both a.c "$computed" "cycle edit, a.c"
expect_stdout_lacks 'ping'
check "...b.c's const ping is now an error (through the cycle), from the kept findings"
both b.c "$kept" "cycle edit, b.c"
expect_rc 1
expect_stdout_has "b.c:[0-9]+:[0-9]+: error: .*'ping'"

check "edit c.c so that helper reads a global: b.c's pure user stays right, const ping still wrong"
cat > c.c <<'EOF'
int knob;
int helper(int x) { return x * knob; }
EOF
both c.c "$computed" "callee edit, c.c"
expect_stdout_lacks "user"
both b.c "$kept" "callee edit, b.c"
expect_stdout_lacks "'user'"

check "edit c.c so that helper writes a global: b.c's pure user becomes an error"
cat > c.c <<'EOF'
int knob;
int helper(int x) { knob = x; return x; }
EOF
both c.c "$computed" "callee write, c.c"
expect_stdout_lacks "'user'"
both b.c "$kept" "callee write, b.c"
expect_stdout_has "b.c:[0-9]+:[0-9]+: error: .*'user'"

check "the edits undone: the first findings come back from the cache"
cat > a.c <<'EOF'
int seen;
int ping(int n);
int pong(int n) { return n > 0 ? ping(n - 1) : 0; }
EOF
cat > c.c <<'EOF'
int helper(int x) { return x * 3; }
EOF
both b.c "$kept" "undone"
expect_rc 0

check "options the findings depend on are in the key: --strict computes them again"
run check --stats --strict -p . b.c
expect_stderr_has "$computed"

check "a damaged kept entry is dropped and computed again, with the same output"
n=0
for w in "$XC"/*/*.w; do printf 'garbage' | dd of="$w" bs=1 seek=40 conv=notrunc 2>/dev/null; n=$((n + 1)); done
[ "$n" -ge 1 ] || fail "no kept findings (.w entries) in the cache"
both b.c "$computed" "damaged"
both b.c "$kept" "rebuilt"

check "a warm run reads no result: the manifests carry what kept findings need"
both b.c "$kept" "warm, before the results are damaged"
# Every result damaged (its payload): a run whose findings are kept never
# reads one (the manifest's variant holds the summary's digest, flags and
# the TU's messages), so it says nothing and prints the same.
for r in "$XC"/*/*.r; do printf 'garbage' | dd of="$r" bs=1 seek=40 conv=notrunc 2>/dev/null; done
both b.c "$kept" "results damaged, findings kept"
! grep -q 'damaged' "$T/kept.full.err" || fail "a kept run read a result:${NL}$(cat "$T/kept.full.err")"

check "findings not kept: a damaged result is discarded and its TU parsed again, output the same"
# A token edit of c.c: its summary changes, so the program is linked and
# every other TU's result is read now; each is damaged, so each is parsed.
printf 'int extra(void) { return 2; }\n' >> c.c
both c.c "$computed" "results damaged, findings computed"
grep -Eq 'purist: note: cache: discarded a damaged entry for .*[ab]\.c \(.*\.r: bad checksum\); analysing the file again' \
  "$T/kept.full.err" || fail "no note of the damaged results:${NL}$(cat "$T/kept.full.err")"
grep -q 'cache: 2 hits, 1 misses, 1 parsed' "$T/kept.full.err" || fail "not 2 hits:${NL}$(cat "$T/kept.full.err")"
both b.c "$kept" "after the parse of the damaged TUs"
run check --stats -p . a.c
expect_stderr_has 'cache: 3 hits, 0 misses, 0 parsed'

check "-o needs the linked program (clobber check): findings computed, output the same"
run check --stats -p . b.c -o "$T/o.txt"
expect_stderr_lacks 'findings kept'

check "cache clean removes the kept findings too, and the cache with them"
ls "$XC"/*/*.w >/dev/null 2>&1 || fail "no kept findings (.w entries) to clean"
run cache clean
expect_rc 0
left=$(find "$XC" -type f 2>/dev/null | head -n 5 || true)
[ -z "$left" ] || fail "cache clean left files behind:${NL}$left"
[ ! -e "$XC" ] || fail "cache clean left the cache directory $XC"
