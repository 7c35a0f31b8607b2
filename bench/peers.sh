#!/usr/bin/env bash
# bench/peers.sh — purist next to its peers on the same compile database,
# as ratios measured in the same run (CPU user+sys, children included).
#
#   bench/peers.sh --project DIR         DIR/compile_commands.json
#
# Options: --runs N        repetitions, interleaved, the median kept (3)
#          --purist BIN    measure this purist (its purist-engine beside it)
#                          instead of building build-bench (Release)
#          --file F        the one file (default: the median-sized TU)
#          --header H      the header to comment (default: the project's
#                          header included by the most TUs)
#          --keep          keep the scratch directory (logs, cache)
#
# Measures:
#   clang-tidy   one clang-tidy-19 process over every file of the database,
#                one cheap check (--checks=-*,misc-definitions-in-headers);
#   clang        clang-19 -fsyntax-only of every TU, one after the other,
#                each with its entry's arguments (less -o, -c, -M*);
#   cold         purist infer -j1 -p DIR, empty summary cache;
#   warm         the same again, nothing changed;
#   header       the same after a comment line appended to the header;
#   one file     purist check -p DIR F after a comment appended to F (the
#                rest cached: what an editor does on save), next to
#                clang-19 -fsyntax-only of F alone;
#   one file, warm  purist check -p DIR F again, nothing changed.
# Each purist run has its own XDG_CACHE_HOME in the scratch directory, so
# the user's cache is neither read nor changed. The project's files are
# restored (bytes and modification time) after each edit, also on ^C; a
# second run on the same project waits for the first (flock).
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
build=$root/build-bench
project= runs=3 keep=0 purist= file= header=
. "$root/bench/lib.sh"
args=()
while [ $# -gt 0 ]; do
  case $1 in
    --purist) purist=$(realpath "${2:?--purist wants a path}"); shift 2 ;;
    --file) file=$(realpath "${2:?--file wants a path}"); shift 2 ;;
    --header) header=$(realpath "${2:?--header wants a path}"); shift 2 ;;
    *) args+=("$1"); shift ;;
  esac
done
bench_args "$0" 2,30 ${args[@]+"${args[@]}"}

say() { echo "peers.sh: $*" >&2; }

[ -n "$project" ] || { say "--project DIR is needed (a directory with compile_commands.json)"; exit 2; }
for t in clang-19 clang-tidy-19 jq /usr/bin/time; do
  command -v "$t" >/dev/null || { say "$t is needed: scripts/deps.sh --test installs it"; exit 2; }
done
project=$(cd "$project" && pwd)
# Two runs on one project would save each other's edits as the original:
# the second waits for the first.
exec 9>"${TMPDIR:-/tmp}/purist-peers.$(echo "$project" | md5sum | cut -c1-16).lock"
flock 9
cdb=$project/compile_commands.json
[ -r "$cdb" ] || { say "$cdb: not found"; exit 2; }
if [ -z "$purist" ]; then
  bench_build purist
else
  rev="$purist"
fi
bench_workdir

# The database's files, absolute, in its order.
jq -r '.[] | if (.file | startswith("/")) then .file else "\(.directory)/\(.file)" end' "$cdb" |
  while IFS= read -r f; do realpath -m "$f"; done > "$work/files"
mapfile -t files < "$work/files"
ntus=${#files[@]}

# The clang commands, prepared once; one script per TU too, for the one file.
cmds=$work/clang.sh
bench_tu_commands "$project" "$cmds" "clang-19 -fsyntax-only" '2>/dev/null || true'

# The one file: the median-sized TU unless given.
if [ -z "$file" ]; then
  file=$(for f in "${files[@]}"; do printf '%s %s\n' "$(stat -c %s "$f")" "$f"; done | sort -n |
         awk '{ a[NR] = $2 } END { print a[int((NR + 1) / 2)] }')
fi
idx=$(grep -nxF "$file" "$work/files" | head -n 1 | cut -d: -f1)
[ -n "$idx" ] || { say "$file is not in $cdb"; exit 2; }
sed -n "${idx}p" "$cmds" > "$work/clang1.sh"

# The header: the project's header (under DIR) that the most TUs include.
if [ -z "$header" ]; then
  bench_tu_commands "$project" "$work/deps.sh" "clang-19" \
    "-MM -MF $work/dep.@N@ 2>/dev/null; pwd > $work/dir.@N@"
  bash "$work/deps.sh"
  header=$(for ((i = 0; i < ntus; i++)); do
             [ -r "$work/dep.$i" ] || continue
             d=$(cat "$work/dir.$i")
             tr ' \\' '\n\n' < "$work/dep.$i" | grep -E '\.h$' | sort -u |
               while IFS= read -r h; do case $h in /*) echo "$h" ;; *) echo "$d/$h" ;; esac; done
           done | while IFS= read -r h; do realpath -m "$h"; done | sort | uniq -c | sort -rn |
           while read -r n h; do case $h in "$project"/*) echo "$h"; break ;; esac; done || true)
fi
[ -n "$header" ] && [ -w "$header" ] || { say "no header to comment (give --header H)"; exit 2; }

# Edits are undone whatever happens: a copy of each file edited, put back
# with its modification time.
saved=()
restore() {
  local f
  for f in ${saved[@]+"${saved[@]}"}; do
    cp -p "$work/saved/$(echo "$f" | md5sum | cut -c1-16)" "$f"
  done
  saved=()
}
edit() {
  mkdir -p "$work/saved"
  cp -p "$1" "$work/saved/$(echo "$1" | md5sum | cut -c1-16)"
  saved+=("$1")
  printf '/* bench/peers.sh: a comment, run %s */\n' "$2" >> "$1"
}
trap 'restore; [ "$keep" -eq 1 ] || rm -rf "$work"' EXIT
trap 'exit 130' INT TERM

# cpu LOG CMD...: runs CMD, prints its CPU seconds (user + sys, children
# waited for included).
cpu() {
  local log=$1
  shift
  /usr/bin/time -f '%U %S' -o "$work/time" "$@" >/dev/null 2>>"$log" || true
  tail -n 1 "$work/time" | awk '{ printf "%.3f", $1 + $2 }'
}
export XDG_CACHE_HOME=$work/xdg
unset PURIST_CACHE_DIR PURIST_CC_CACHE
purist_infer() { cpu "$work/purist.log" "$purist" infer -j1 --format=json -p "$project" -o /dev/null; }
purist_one() { cpu "$work/purist.log" "$purist" check -j1 -p "$project" "$file"; }

names=(tidy clang cold warm header one clang1 onewarm)
declare -A t
for n in "${names[@]}"; do t[$n]=; done
say "$ntus TUs; one file $file; header $header; $runs runs, interleaved"
for ((r = 1; r <= runs; r++)); do
  t[tidy]+=" $(cpu "$work/tidy.log" clang-tidy-19 -p "$project" --quiet '--checks=-*,misc-definitions-in-headers' "${files[@]}")"
  t[clang]+=" $(cpu /dev/null bash "$cmds")"
  rm -rf "$XDG_CACHE_HOME"
  t[cold]+=" $(purist_infer)"
  t[warm]+=" $(purist_infer)"
  edit "$header" "$r"
  t[header]+=" $(purist_infer)"
  restore
  purist_infer >/dev/null   # the cache as before the comment
  edit "$file" "$r"
  t[one]+=" $(purist_one)"
  t[clang1]+=" $(cpu /dev/null bash "$work/clang1.sh")"
  t[onewarm]+=" $(purist_one)"
  restore
  say "run $r: tidy ${t[tidy]##* } clang ${t[clang]##* } cold ${t[cold]##* } warm ${t[warm]##* }" \
      "header ${t[header]##* } one ${t[one]##* } (clang ${t[clang1]##* }) one-warm ${t[onewarm]##* }"
done

median() { tr ' ' '\n' | grep . | sort -g | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
declare -A m
for n in "${names[@]}"; do m[$n]=$(echo "${t[$n]}" | median); done
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf (b > 0 ? "%.2fx" : "-"), a / b }'; }
row() { printf '  %-40s %8.2f s   %-8s %-8s %-8s  (runs:%s)\n' "$1" "${m[$2]}" "$3" "$4" "$5" "${t[$2]}"; }

cat <<EOF

project    $project
           $ntus TUs; one file ${file#"$project"/}; header ${header#"$project"/}
purist     $rev
machine    $(nproc) cores; $(clang-19 --version | head -n 1)
CPU user+sys, median of $runs interleaved runs; ratios to clang-tidy, to clang -fsyntax-only, to cold

                                           CPU       /tidy    /clang   /cold
EOF
row "clang-tidy-19, one process, 1 check" tidy "1.00x" "$(ratio "${m[tidy]}" "${m[clang]}")" ""
row "clang-19 -fsyntax-only, every TU" clang "$(ratio "${m[clang]}" "${m[tidy]}")" "1.00x" ""
row "purist infer -j1, cold" cold "$(ratio "${m[cold]}" "${m[tidy]}")" "$(ratio "${m[cold]}" "${m[clang]}")" "1.00x"
row "purist infer -j1, warm" warm "$(ratio "${m[warm]}" "${m[tidy]}")" "$(ratio "${m[warm]}" "${m[clang]}")" \
    "$(ratio "${m[warm]}" "${m[cold]}")"
row "purist infer -j1, header comment" header "$(ratio "${m[header]}" "${m[tidy]}")" \
    "$(ratio "${m[header]}" "${m[clang]}")" "$(ratio "${m[header]}" "${m[cold]}")"
echo
printf '  %-40s %8.2f s   (runs:%s)\n' "clang-19 -fsyntax-only, the one file" "${m[clang1]}" "${t[clang1]}"
printf '  %-40s %8.2f s   %s of clang  (runs:%s)\n' "purist check FILE, FILE edited" "${m[one]}" \
       "$(ratio "${m[one]}" "${m[clang1]}")" "${t[one]}"
printf '  %-40s %8.2f s   %s of clang  (runs:%s)\n' "purist check FILE, nothing changed" "${m[onewarm]}" \
       "$(ratio "${m[onewarm]}" "${m[clang1]}")" "${t[onewarm]}"
[ "$keep" -eq 1 ] && echo "kept: $work"
exit 0
