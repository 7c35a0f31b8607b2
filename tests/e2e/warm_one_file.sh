#!/usr/bin/env bash
# A one-file run on a warm cache (what an editor does on every save) is as
# cheap as it can be (issue 32 item 3): no process loads libclang, no
# compiler is asked for its macros; a cold run's compiler question is kept
# on disk for the next command too. libclang loads are seen with the
# dynamic loader's own report (LD_DEBUG=files, inherited by every process
# purist starts); compiler runs with a `gcc` first on PATH that logs each
# run before running the real one.
set -euo pipefail
. "$(dirname "$0")/lib.sh" "$@"

real_gcc=$(command -v gcc) || { echo "no gcc: skipped"; exit 77; }
mkdir -p "$T/bin" "$T/p"
cat > "$T/bin/gcc" <<EOF
#!/bin/sh
echo "gcc \$*" >> "$T/gcc.log"
exec "$real_gcc" "\$@"
EOF
chmod +x "$T/bin/gcc"
export PATH="$T/bin:$PATH"
: > "$T/gcc.log"

cd "$T/p"
cat > a.c <<'EOF'
int counter;
int twice(int x) { return 2 * x; }
void bump(void) { counter = twice(counter); }
EOF
cat > b.c <<'EOF'
int twice(int x);
int four(int x) { return twice(twice(x)); }
EOF
printf '[{"directory":"%s","file":"a.c","arguments":["gcc","-O2","-c","a.c"]},
{"directory":"%s","file":"b.c","arguments":["gcc","-O2","-c","b.c"]}]\n' "$PWD" "$PWD" > compile_commands.json

# libclang_loads: how many times a process of the last run mapped libclang.
libclang_loads() { grep -Ec 'file=[^ ]*libclang' "$T/err" || true; }
gcc_runs() { wc -l < "$T/gcc.log"; }

check "purist-engine does not link libclang (only the process that parses loads it)"
engine=$(dirname "$PURIST")/purist-engine
if ldd "$engine" | grep -q libclang; then fail "$engine links libclang: $(ldd "$engine" | grep libclang)"; fi

check "a cold run parses both files, loading libclang, and asks gcc its macros"
LD_DEBUG=files run check --stats -p . a.c
expect_rc 0
cp "$T/out" "$T/cold.out"
expect_stderr_has 'cache: 0 hits, 2 misses, 2 parsed'
[ "$(libclang_loads)" -ge 1 ] || fail "the cold run never loaded libclang${NL}$(context)"
[ "$(gcc_runs)" -ge 1 ] || fail "the cold run never asked gcc its macros (gcc.log empty)"
grep -q -- '-dM -E' "$T/gcc.log" || fail "gcc was run, but not with -dM -E:${NL}$(show "$T/gcc.log")"
cold_gcc=$(gcc_runs)

check "the warm run: the same output, no parse, no libclang, no compiler"
LD_DEBUG=files run check --stats -p . a.c
expect_rc 0
same "$T/cold.out" "$T/out" "the cold and the warm run's outputs"
expect_stderr_has 'cache: 2 hits, 0 misses, 0 parsed'
[ "$(libclang_loads)" -eq 0 ] || fail "a warm run loaded libclang:${NL}$(grep libclang "$T/err" | head -n 5)"
[ "$(gcc_runs)" -eq "$cold_gcc" ] || fail "a warm run ran gcc:${NL}$(show "$T/gcc.log")"

check "a file edited: that one file is parsed again, still without asking the compiler"
echo 'int edited_decl(void);' >> a.c   # a token change: a comment alone is a hit (issue 32 item 2)
LD_DEBUG=files run check --stats -p . a.c
expect_rc 0
expect_stderr_has 'cache: 1 hits, 1 misses, 1 parsed'
[ "$(gcc_runs)" -eq "$cold_gcc" ] || fail "a run on a warm compiler cache ran gcc:${NL}$(show "$T/gcc.log")"

check "another command (infer) on the same cache: no parse, no libclang, no compiler"
LD_DEBUG=files run infer --stats -p . --format=json -o "$T/infer.json"
expect_rc 0
expect_stderr_has 'cache: 2 hits, 0 misses, 0 parsed'
[ "$(libclang_loads)" -eq 0 ] || fail "a warm infer loaded libclang"
[ "$(gcc_runs)" -eq "$cold_gcc" ] || fail "a warm infer ran gcc"

check "--no-cache keeps nothing: the compiler is asked again"
run check --no-cache -p . a.c
expect_rc 0
[ "$(gcc_runs)" -gt "$cold_gcc" ] || fail "--no-cache used the kept macros (gcc not run)"

check "the parse in this process (PURIST_PARSE_IN_PROCESS) loads libclang itself and gives the same output"
PURIST_PARSE_IN_PROCESS=1 run check --no-cache -p . a.c
expect_rc 0
same "$T/cold.out" "$T/out" "the worker's and the in-process parse's outputs"

check "--version names libclang without loading it"
LD_DEBUG=files run --version
expect_rc 0
expect_stdout_has '^libclang .*clang version [0-9]+'
[ "$(libclang_loads)" -eq 0 ] || fail "--version loaded libclang"
