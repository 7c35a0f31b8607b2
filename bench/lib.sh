# bench/lib.sh — what bench/infer.sh, bench/link.sh and bench/run.sh share.
# Only functions; they use what the script sets: root, build, keep, and a
# say() function.

# GNU time gives wall time and peak RSS; installed if missing and we are
# root, else VmHWM is sampled from /proc/PID/status. Sets rss_method.
bench_setup_time() {
  if [ ! -x /usr/bin/time ] && [ "$(id -u)" -eq 0 ]; then
    say "installing time"
    apt-get update -qq >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq time >/dev/null || true
  fi
  if [ -x /usr/bin/time ]; then rss_method="GNU time -f %M (max RSS of the process)"
  else rss_method="VmHWM sampled from /proc/PID/status every 10 ms"; fi
}

# Builds purist (Release) and the named generator; sets purist and rev
# (the commit measured, and whether src/ or data/ differ from it).
bench_build() {
  say "building purist (Release) in $build"
  cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=OFF >/dev/null
  cmake --build "$build" -j"$(nproc)" --target purist "$1" >/dev/null
  purist=$build/purist
  rev=$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)
  if [ -n "$(git -C "$root" status --porcelain -- src data CMakeLists.txt 2>/dev/null)" ]; then
    rev="$rev + uncommitted changes"
  fi
}

# A scratch directory, removed on exit unless --keep; sets work.
bench_workdir() {
  work=$(mktemp -d "${TMPDIR:-/tmp}/purist-bench.XXXXXX")
  if [ "$keep" -eq 0 ]; then trap 'rm -rf "$work"' EXIT; fi
}

# bench_tu_commands PROJECT OUT COMPILER SUFFIX: writes to OUT one line per
# entry of PROJECT/compile_commands.json, "cd DIR && COMPILER ARGS SUFFIX":
# the entry's words (arguments, or command split as the shell would), less
# compiler wrappers (ccache, distcc, sccache, icecc), the compiler, -o FILE,
# -c and -M* (with the values of -MF, -MT, -MQ, -MJ). @N@ in SUFFIX becomes
# the entry's index. Sets ntus. A `command` string is split with eval: use
# it only on databases you trust.
bench_tu_commands() {
  local project=$1 out=$2 compiler=$3 suffix=$4 line dir n=0 args
  : > "$out"
  while IFS= read -r line; do
    eval "set -- $line"
    dir=$1; shift
    case $dir in /*) ;; *) dir=$project/$dir ;; esac
    while [ $# -gt 0 ]; do
      case ${1##*/} in ccache|distcc|sccache|icecc) shift ;; *) break ;; esac
    done
    [ $# -gt 0 ] && shift    # the compiler
    args=()
    while [ $# -gt 0 ]; do
      case $1 in
        -o|-MF|-MT|-MQ|-MJ) shift 2 || shift ;;
        -o*|-c|-M*) shift ;;
        *) args+=("$1"); shift ;;
      esac
    done
    printf 'cd %q && %s' "$dir" "$compiler" >> "$out"
    printf ' %q' "${args[@]}" >> "$out"
    printf ' %s\n' "${suffix//@N@/$n}" >> "$out"
    n=$((n + 1))
  done < <(jq -r '.[] | "\(.directory | @sh) \(if .arguments then (.arguments | @sh) else .command end)"' \
             "$project/compile_commands.json")
  ntus=$n
}

# bench_option WORD [VALUE]: the options the scripts share
# (--project DIR, --tus N, --funcs N, --seed S, --runs N, --keep, --no-scale); sets
# bench_used to the number of words taken, 0 if WORD is none of them.
bench_option() {
  bench_used=2
  case $1 in
    --project) project=${2-} ;;
    --tus) ntu=${2-} ;;
    --funcs) nfunc=${2-} ;;
    --seed) seed=${2-} ;;
    --runs) runs=${2-} ;;
    --keep) keep=1; bench_used=1 ;;
    --no-scale) scale=0; bench_used=1 ;;
    *) bench_used=0 ;;
  esac
}

# bench_project: the project to measure: --project made absolute, else a
# generated one ($ntu TUs x $nfunc functions, $seed) in $work/project.
# Sets project and desc (a line describing it).
bench_project() {
  if [ -z "$project" ]; then
    project=$work/project
    say "generating $ntu TUs x $nfunc functions (seed $seed)"
    desc="generated: $("$build/bench/bench_gen_project" "$project" "$ntu" "$nfunc" "$seed")"
  else
    project=$(cd "$project" && pwd)
    desc="$project"
  fi
}

# bench_args SCRIPT HELP-LINES ARGS...: parses the shared options; --help
# prints lines HELP-LINES (sed range) of SCRIPT's header; anything else is
# an error naming SCRIPT.
bench_args() {
  local script=$1 help=$2
  shift 2
  while [ $# -gt 0 ]; do
    bench_option "$@"
    if [ "$bench_used" -gt 0 ]; then shift "$bench_used"; continue; fi
    case $1 in
      -h|--help) sed -n "${help}p" "$script" | sed 's/^# \{0,1\}//'; exit 0 ;;
      *) echo "$(basename "$script"): unknown option $1 (see --help)" >&2; exit 2 ;;
    esac
  done
}

# bench_db_option WORD [VALUE]: the options of the scripts that measure a
# project's compile database (claims.sh, impact.sh): -p BUILD, --root ROOT,
# --purist PATH, -j N; sets bench_used to the words taken, 0 if none.
bench_db_option() {
  bench_used=2
  case $1 in
    -p) build=${2-} ;;
    --root) root=${2-} ;;
    --purist) purist=${2-} ;;
    -j) jobs=${2-} ;;
    -j*) jobs=${1#-j}; bench_used=1 ;;
    *) bench_used=0 ;;
  esac
}

# bench_db_check HERE: BUILD has a database, purist is there (default
# HERE/build/purist); makes root and build absolute. Exits 2 after saying
# what is missing.
bench_db_check() {
  [ -n "$build" ] && [ -r "$build/compile_commands.json" ] || { say "-p BUILD: no compile_commands.json there"; exit 2; }
  root=$(cd "$root" && pwd -P) build=$(cd "$build" && pwd -P)
  [ -n "$purist" ] || purist=$1/build/purist
  [ -x "$purist" ] || { say "no purist at $purist (build it, or --purist PATH)"; exit 2; }
}
