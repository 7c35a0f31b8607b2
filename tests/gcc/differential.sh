#!/bin/bash
# differential.sh — purist is never more optimistic than GCC (issue 38).
#
#   usage: differential.sh PURIST GEN_EFFECTS SRCDIR [options]
#     --seeds A-B      programs of tests/gcc/gen_effects with seeds A..B
#                      (default 1-40; "none": csmith's only)
#     --funcs N        functions per generated program (default 12)
#     --csmith A-B     also csmith's random programs with seeds A..B
#                      (default none; needs csmith and libcsmith-dev)
#     --keep DIR       leave the programs and GCC's dumps in DIR
#
# Each program is compiled by GCC at -O2 with inlining and IPA cloning off
# and -fkeep-static-functions, so that every function is analysed as
# written; GCC's verdict is the strongest "Function found to be [looping]
# const|pure: NAME" of its early local pass (-fdump-tree-local-pure-const1),
# and its IPA pass (-fdump-ipa-pure-const), "none" for a function either
# dump shows analysed without one. purist infers the same programs. For
# every function GCC analysed, purist's class must not be stronger than
# GCC's (const > pure > normal): a const where GCC says pure or nothing, or
# a pure where GCC says nothing, fails, except where the function passes
# pointers to its own locals or to read-only data to a call, directly or
# through its callees (tests/gcc/differences.txt, part 8, says why;
# counted apart).
# Where purist is more conservative the count is printed, by purist's
# reason, as figures. "may not return" versus GCC's "looping" is not a
# class and is counted apart.
#
# Only bash, awk, sed, grep, gcc (and csmith) are used.

set -u -o pipefail
export LC_ALL=C

if [ $# -lt 3 ] || [ ! -x "$1" ] || [ ! -x "$2" ] || [ ! -d "$3" ]; then
  echo "usage: $0 PATH/TO/purist PATH/TO/gen_effects SRCDIR [--seeds A-B] [--funcs N] [--csmith A-B] [--keep DIR]" >&2
  exit 2
fi
PURIST=$(cd "$(dirname "$1")" && pwd -P)/$(basename "$1") GEN=$2 SRC=$(cd "$3" && pwd -P)
shift 3
SEEDS=1-40 FUNCS=12 CSMITH= KEEP=
while [ $# -gt 0 ]; do
  case $1 in
    --seeds) SEEDS=$2; shift 2 ;;
    --funcs) FUNCS=$2; shift 2 ;;
    --csmith) CSMITH=$2; shift 2 ;;
    --keep) KEEP=$2; shift 2 ;;
    *) echo "$0: unknown option $1" >&2; exit 2 ;;
  esac
done
GCC=${GCC:-gcc}
JOBS=${JOBS:-$(nproc 2>/dev/null || echo 1)}
if [ -n "$KEEP" ]; then mkdir -p "$KEEP" && T=$(cd "$KEEP" && pwd -P)
else T=$(mktemp -d "${TMPDIR:-/tmp}/purist-diff.XXXXXX"); trap 'rm -rf "$T"' EXIT; fi
TAB=$'\t'
GCC_FLAGS=(-O2 -fno-inline -fno-ipa-cp -fno-ipa-cp-clone -fno-ipa-sra -fno-ipa-icf
           -fno-ipa-vrp -fkeep-static-functions -w
           -fdump-tree-local-pure-const1 -fdump-ipa-pure-const -fdump-tree-local-pure-const2)

range() { [ "$1" = none ] && return; local a=${1%-*} b=${1#*-}; seq "$a" "$b"; }

# gcc_verdicts NAME.c : NAME TAB VERDICT for every function GCC analysed.
gcc_verdicts() {
  local c=$1 dir base
  dir=$(dirname "$c") base=$(basename "$c" .c)
  (cd "$dir" && "$GCC" "${GCC_FLAGS[@]}" ${EXTRA_CFLAGS:-} -c "$base.c" -o "$base.o") >"$dir/$base.gcc.log" 2>&1 || {
    echo "gcc failed on $c:"; sed 's/^/    | /' "$dir/$base.gcc.log" | head -n 20; return 1; }
  cat "$dir/$base".c.*pure-const* | awk -v OFS='\t' '
    function rank(v) { return v == "const" ? 2 : v == "pure" ? 1 : 0 }
    /^;; Function / { n = $3; if (!(n in v)) v[n] = "none"; next }
    /Function found to be / {
      s = $0; sub(/.*Function found to be /, "", s)
      loop = sub(/^looping /, "", s)
      k = s; sub(/:.*/, "", k)
      n = s; sub(/^[a-z]+: /, "", n); sub(/\/[0-9]+.*/, "", n)
      if (index(n, ".")) next                    # clones: not the function as written
      if (!(n in v) || rank(k) > rank(v[n]) || (rank(k) == rank(v[n]) && !loop)) v[n] = k
      if (!loop) nl[n] = 1; else if (!(n in nl)) lp[n] = 1
    }
    END { for (n in v) print n, v[n], (n in lp) && !(n in nl) ? "looping" : "" }' | sort
  rm -f "$dir/$base".c.* "$dir/$base.o"
}

# purist_verdicts FILE... : NAME TAB CLASS TAB MNR TAB REASON, run in $T.
purist_verdicts() {
  (cd "$T" && "$PURIST" infer --quiet --color=never "$@") 2>"$T/purist.err" |
    sed -n -E 's/^[^:]+:[0-9]+: ([A-Za-z_][A-Za-z0-9_]*): (const|pure|normal)([^—]*)— (.*)$/\1\t\2\t\3\t\4/p' |
    awk -F'\t' -v OFS='\t' '{ print $1, $2, index($3, "may not return") ? "mnr" : "", $4 }' | sort
}

programs=()
for s in $(range "$SEEDS"); do
  "$GEN" "$s" "$FUNCS" >"$T/gen$s.c" || { echo "FAIL: gen_effects $s"; exit 1; }
  programs+=("gen$s.c")
done
csmith_programs=()
if [ -n "$CSMITH" ]; then
  if ! command -v csmith >/dev/null || [ ! -d /usr/include/csmith ]; then
    echo "FAIL: --csmith needs csmith and libcsmith-dev (scripts/deps.sh --test installs them)"; exit 1
  fi
  for s in $(range "$CSMITH"); do
    # Small programs with the forms that matter here: pointers, arrays,
    # structs and unions; no volatile, whose accesses both sides call
    # effects anyway; no packed structs (clang and gcc lay them out alike,
    # but the checksum code makes the program ten times larger).
    csmith --seed "$s" --no-volatiles --no-packed-struct --max-funcs 8 --no-bitfields \
      -o "$T/csmith$s.c" >/dev/null 2>&1 || { echo "FAIL: csmith --seed $s"; exit 1; }
    csmith_programs+=("csmith$s.c")
  done
fi

# GCC, in parallel.
for p in "${programs[@]}" "${csmith_programs[@]}"; do
  while [ "$(jobs -rp | wc -l)" -ge "$JOBS" ]; do wait -n; done
  ( if [[ $p == csmith* ]]; then EXTRA_CFLAGS=-I/usr/include/csmith; fi
    gcc_verdicts "$T/$p" >"$T/${p%.c}.gcc" 2>"$T/${p%.c}.gccerr" || echo fail >"$T/${p%.c}.gccfail" ) &
done
wait
for f in "$T"/*.gccfail; do
  [ -e "$f" ] || continue
  echo "FAIL: $(cat "${f%.gccfail}.gcc")"; exit 1
done

# purist: the generated programs in one run (their names are apart), each
# csmith program alone (each has its own main and globals of one name).
: >"$T/purist.all"
if [ ${#programs[@]} -gt 0 ]; then
  purist_verdicts "${programs[@]}" | sed "s/^/gen$TAB/" >>"$T/purist.all"
  [ -s "$T/purist.err" ] && { echo "FAIL: purist on the generated programs:"; sed 's/^/    | /' "$T/purist.err" | head -n 20; exit 1; }
fi
cat "$T"/gen*.gcc 2>/dev/null | sed "s/^/gen$TAB/" | sort >"$T/gcc.all"
for p in "${csmith_programs[@]}"; do
  u=${p%.c}
  purist_verdicts "$p" -- -I/usr/include/csmith | sed "s/^/$u$TAB/" >>"$T/purist.all"
  grep -v '^purist: ' "$T/purist.err" | grep -q . && { echo "FAIL: purist on $p:"; sed 's/^/    | /' "$T/purist.err" | head -n 20; exit 1; }
  sed "s/^/$u$TAB/" "$T/$u.gcc" >>"$T/gcc.all"
done

# Functions that pass pointers to their own locals or to read-only data to
# a call, or call one that does (gen_effects marks the first; the rest is
# the closure over "calls"): there purist follows the pointers and GCC's
# pure-const pass does not, so purist may be more optimistic
# (tests/gcc/differences.txt, part 8, says why that is sound; fixtures
# hold those rules).
cat "$T"/gen*.c 2>/dev/null | sed -n 's#^// differential: ##p' | awk '
  { local[$1] = ($2 == "tracked-args"); for (i = 3; i <= NF; i++) if ($i != "calls") edge[$1, ++ne[$1]] = $i; names[$1] = 1 }
  END {
    do { changed = 0
         for (f in names) if (!local[f]) for (i = 1; i <= ne[f]; i++) if (local[edge[f, i]]) { local[f] = 1; changed = 1; break }
    } while (changed)
    for (f in names) if (local[f]) print f
  }' >"$T/local-reaching"

awk -F'\t' -v OFS='\t' -v localr="$T/local-reaching" -v out="$T/optimistic" '
  function rank(v) { return v == "const" ? 2 : v == "pure" ? 1 : 0 }
  BEGIN { while ((getline l < localr) > 0) lr["gen" SUBSEP l] = 1 }
  FNR == NR { g[$1 SUBSEP $2] = $3; gl[$1 SUBSEP $2] = $4; next }
  {
    k = $1 SUBSEP $2
    if (!(k in g)) { unseen++; next }
    n++
    pv = $3; gv = g[k]
    if (rank(pv) > rank(gv)) {
      if (k in lr) { knows++; next }
      opt++
      print $1, $2, "GCC " gv, "purist " pv, $5 > out
    } else if (rank(pv) < rank(gv)) {
      cons++
      r = $5; sub(/ \(.*$/, "", r); gsub(/\047[^\047]*\047/, "X", r)
      why[r]++
    } else same++
    if (pv != "normal" && rank(pv) == rank(gv) && (($4 == "mnr") != (gl[k] == "looping"))) mnr++
  }
  END {
    printf "differential: %d functions compared (%d listed by purist that GCC did not analyse)\n", n, unseen
    printf "  same class: %d; purist more conservative: %d; more optimistic: %d", same, cons, opt
    printf "\n  more optimistic where the function passes pointers to its locals or to read-only data to a call (allowed): %d", knows
    printf "\n  \"may not return\" differs from GCC'"'"'s \"looping\" on %d functions of the same class\n", mnr
    if (cons) {
      print "  more conservative, by purist'"'"'s reason:"
      for (r in why) printf "    %5d  %s\n", why[r], r | "sort -rn"
      close("sort -rn")
    }
  }' "$T/gcc.all" "$T/purist.all"

if [ -s "$T/optimistic" ]; then
  echo "FAIL: purist is more optimistic than GCC on $(wc -l <"$T/optimistic") functions:"
  sed 's/^/    /' "$T/optimistic" | head -n 40
  echo "  (rerun with --keep DIR to read the programs)"
  exit 1
fi
exit 0
