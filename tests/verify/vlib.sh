# shellcheck shell=bash
# vlib.sh — helpers of the verify tests (sourced after tests/e2e/lib.sh).
#
# vbuild NAME SRCDIR [EXTRA.c...]: copies the fixture program SRCDIR to
# $T/NAME with a compile database naming its files and the EXTRA files
# (analysed, never linked), then builds it twice with -O2: $T/NAME/plain
# without the runtime flags, $T/NAME/prog with the flags of
# `purist rt-flags --cflags` and `purist rt-flags -p . --ldflags` (so with
# the generated wrappers). The fixture programs are never sanitized, also
# in the ASan+UBSan build of the tests: they stand for the user's program.
VDIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
VCC=${CC:-cc}

vbuild() {
  local name=$1 src=$2
  shift 2
  local d=$T/$name f sep=""
  mkdir -p "$d"
  cp "$src"/* "$d"/
  local srcs=()
  for f in "$src"/*.c; do srcs+=("$(basename "$f")"); done
  for f in "$@"; do cp "$f" "$d"/; done
  (
    cd "$d"
    {
      echo "["
      for f in *.c; do
        printf '%s{"directory":"%s","file":"%s","command":"cc -O2 -c %s"}\n' "$sep" "$d" "$f" "$f"
        sep=","
      done
      echo "]"
    } >compile_commands.json
    "$VCC" -O2 -o plain "${srcs[@]}" -lpthread 2>build.log ||
      fail "the plain build of $name failed:${NL}$(show build.log)"
    local cf lf
    cf=$("$PURIST" rt-flags --cflags) || fail "purist rt-flags --cflags failed"
    lf=$("$PURIST" rt-flags -p . --ldflags 2>rtflags.err) ||
      fail "purist rt-flags -p . --ldflags failed:${NL}$(show rtflags.err)"
    local objs=()
    for f in "${srcs[@]}"; do
      # shellcheck disable=SC2086
      "$VCC" -O2 -g $cf -c "$f" -o "${f%.c}.o" 2>>build.log || fail "compiling $f failed:${NL}$(show build.log)"
      objs+=("${f%.c}.o")
    done
    # shellcheck disable=SC2086
    "$VCC" -o prog "${objs[@]}" $lf -lpthread 2>>build.log ||
      fail "the instrumented link of $name failed:${NL}$(show build.log)"
  )
}

# diags FILE: the diagnostics of verify's JSON as "function check" lines, sorted.
diags() {
  json_flat "$1" >"$T/flat"
  paste -d' ' <(grep -E '^diagnostics\.[0-9]+\.function' "$T/flat" | cut -f2 | tr -d '"') \
        <(grep -E '^diagnostics\.[0-9]+\.check' "$T/flat" | cut -f2 | tr -d '"') | sort
}

# expect_verified "FUNCTION CHECK"...: after `run verify … -o v.json -- CMD`
# in a fixture's directory, the command's stdout is the plain build's
# (plain.out) and v.json reports exactly these findings.
expect_verified() {
  same plain.out "$T/out" "the command's stdout under verify"
  diags v.json >got
  printf '%s\n' "$@" >want
  same want got "the functions and checks reported"
}
