#!/usr/bin/env bash
# bench/lsp.sh — the language server's latency, as an editor sees it.
#
#   bench/lsp.sh                        the bundled example project, then a
#                                       generated one (bench/gen_project.c)
#   bench/lsp.sh --project DIR          any project with DIR/compile_commands.json
#
# Options: --tus N --funcs N --seed S   size of the generated project (250, 200, 1)
#          --runs N                     repetitions, best kept (3)
#          --keep                       keep the scratch directory
#
# For each project, with a warm summary cache (purist check ran once,
# --cache-dir in the scratch directory):
#   1. first diagnostics: from starting `purist lsp` (initialize, didOpen of
#      the database's first .c file) to its publishDiagnostics  (goal <= 2 s)
#   2. after a save: a comment appended to that file, didSave, then a hover
#      request, answered once the re-analysis is done and the diagnostics
#      are republished                                            (goal <= 1 s)
# The file is restored (contents and time) afterwards, also when interrupted.
# The scripted client is tests/lsp/lsp_client.c, compiled here.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
build=$root/build-bench
project= ntu=250 nfunc=200 seed=1 runs=3 keep=0
. "$root/bench/lib.sh"
bench_args "$0" 2,21 "$@"

say() { echo "lsp.sh: $*" >&2; }
for tool in jq cc pkg-config; do
  command -v "$tool" >/dev/null || { say "$tool is needed (scripts/deps.sh installs it)"; exit 2; }
done
bench_build bench_gen_project
bench_workdir
client=$work/lsp_client
# shellcheck disable=SC2046
cc -O2 -o "$client" "$root/tests/lsp/lsp_client.c" $(pkg-config --cflags --libs jansson)

# measure NAME DIR: the two latencies on the project in DIR.
measure() {
  local name=$1 dir=$2 file rel first=() saved=() t
  file=$(jq -r '[.[].file] | map(select(endswith(".c"))) | .[0]' "$dir/compile_commands.json")
  case $file in /*) ;; *) file=$(jq -r '.[0].directory' "$dir/compile_commands.json")/$file ;; esac
  rel=${file#"$dir"/}
  [ -f "$dir/$rel" ] || { say "$name: $file is not inside $dir"; return 1; }
  say "$name: warming the cache (purist check)"
  (cd "$dir" && "$purist" check -p "$dir" --cache-dir "$work/cache" >/dev/null 2>&1) || true
  cp -p "$dir/$rel" "$work/saved.c"
  edited=$dir/$rel   # restored by the trap, also when interrupted
  trap 'cp -p "$work/saved.c" "$edited"; [ "$keep" -eq 1 ] || rm -rf "$work"' EXIT
  cat >"$work/script" <<S
mark start
send {"jsonrpc":"2.0","id":1,"method":"initialize","params":{"rootUri":"@URI@","capabilities":{}}}
wait-id 1
send {"jsonrpc":"2.0","method":"initialized","params":{}}
open $rel
wait-diag $rel
mark first
sh printf '/* edited %s */\n' "\$(date +%s%N)" >>'$rel'
mark save
save $rel
send {"jsonrpc":"2.0","id":2,"method":"textDocument/hover","params":{"textDocument":{"uri":"@URI@/$rel"},"position":{"line":0,"character":0}}}
wait-id 2
mark saved
send {"jsonrpc":"2.0","id":3,"method":"shutdown"}
wait-id 3
send {"jsonrpc":"2.0","method":"exit"}
status
S
  for ((r = 0; r < runs; r++)); do
    cp -p "$work/saved.c" "$dir/$rel"
    "$client" "$dir" "$work/script" -- "$purist" lsp -p "$dir" --cache-dir "$work/cache" >"$work/msgs" 2>"$work/log" ||
      { say "$name: the session failed; see $work/log"; keep=1; return 1; }
    t=$(jq -rs '[.[] | select(.mark)] | map({(.mark): .t}) | add | "\(.first) \(.saved - .save)"' "$work/msgs")
    first+=("${t% *}")
    saved+=("${t#* }")
  done
  cp -p "$work/saved.c" "$dir/$rel"
  local ntus
  ntus=$(jq length "$dir/compile_commands.json")
  printf '%s (%s TUs, file %s):\n' "$name" "$ntus" "$rel"
  printf '  first diagnostics, warm cache: %.3f s (goal <= 2 s)\n' "$(printf '%s\n' "${first[@]}" | sort -g | head -n 1)"
  printf '  after a save of that file:     %.3f s (goal <= 1 s)\n' "$(printf '%s\n' "${saved[@]}" | sort -g | head -n 1)"
}

echo "purist lsp, commit $rev, $(nproc) cores; best of $runs"
if [ -n "$project" ]; then
  measure "$(basename "$project")" "$(cd "$project" && pwd)"
else
  say "configuring the example project"
  cp -r "$root/examples" "$work/examples"
  cmake -S "$work/examples" -B "$work/examples/build" -DCMAKE_EXPORT_COMPILE_COMMANDS=ON >/dev/null
  cp "$work/examples/build/compile_commands.json" "$work/examples/"
  measure examples "$work/examples"
  project=
  bench_project
  measure "$desc" "$project"
fi
