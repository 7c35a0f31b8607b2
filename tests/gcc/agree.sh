#!/bin/bash
# agree.sh — holds purist's verdicts against GCC's own purity analysis.
#
#   usage: agree.sh PURIST SRCDIR        (ctest: gcc/agree)
#
# Inputs: the example project (SRCDIR/examples, configured with CMake into
# a scratch directory for its compile_commands.json; every entry compiled
# with its own flags) and every fixture of SRCDIR/tests/fixtures (a NAME.c
# or a NAME/ directory; its "// flags:" and "// args:" lines honoured;
# names starting with "_" and bad_input skipped).
#
# Each translation unit is compiled once by GCC:
#     gcc -O2 FLAGS -c -Wsuggest-attribute=pure -Wsuggest-attribute=const
#         -fdump-tree-local-pure-const1 -fdump-tree-local-pure-const2
#         -fdump-ipa-pure-const -fdump-tree-modref1 -fdump-tree-modref2
#         -fdump-ipa-modref
# and purist is run once per unit (infer, text output).  Where GCC warns
# twice for one function (pure from an early pass, const from a later
# one), the strongest verdict counts.
#
# 1. Suggestions (asserted).  Every "function might be candidate for
#    attribute 'pure'|'const' [if it is known to return normally]" is
#    mapped to the function purist reports at that file:line.  Their
#    classes must agree, or the pair must be listed in differences.txt
#    (next to this script).  Every listed difference must still occur, so
#    the list cannot go stale.
# 2. Found only by purist (asserted).  In the cross_tu_* fixtures, every
#    function whose "// expect:" says const or pure and that GCC, compiling
#    file by file, neither suggests nor finds in a dump, must get that
#    class from purist ("found only by purist"); there must be some.
# 3. Full verdicts (figures only).  "Function found to be [looping]
#    pure|const: NAME" from every dump above, static functions and clones
#    (NAME.part.N ...) included, against purist's class for every function
#    it lists: a table of counts.  The "may not return" vs "looping"
#    differences among agreeing suggestions are printed as notes.
#
# Verdict words, here and in differences.txt:
#   GCC:    const | pure | looping-const | looping-pure   ("looping" is
#           GCC's "if it is known to return normally")
#   purist: const | pure | normal, with "-mnr" when purist says "may not
#           return"; "absent" when purist lists no function at that line.
#
# Only bash, awk, sed, grep and gcc are used.  Set AGREE_VERBOSE=1 to list
# every function of the full-verdict table.

set -u -o pipefail

if [ $# -ne 2 ] || [ ! -x "$1" ] || [ ! -d "$2" ]; then
  echo "usage: $0 PATH/TO/purist SRCDIR" >&2
  exit 2
fi
PURIST=$(cd "$(dirname "$1")" && pwd -P)/$(basename "$1")
SRC=$(cd "$2" && pwd -P)
FX=$SRC/tests/fixtures
DIFFS=$SRC/tests/gcc/differences.txt
GCC=${GCC:-gcc}
VERBOSE=${AGREE_VERBOSE:-0}
GCCLIB_JOBS=${GCCLIB_JOBS:-$(nproc 2>/dev/null || echo 1)}
T=$(mktemp -d "${TMPDIR:-/tmp}/purist-gcc.XXXXXX")
trap 'rm -rf "$T"' EXIT
ERRORS=0
fail() { echo "FAIL: $*"; ERRORS=$((ERRORS + 1)); }

# shellcheck source=lib.sh
. "$SRC/tests/gcc/lib.sh"
gcclib_init
: >"$T/expect"     # UNIT LABEL NAME CLASS: the cross_tu_* expectations

# --- the example project ------------------------------------------------

EXROOT=$SRC/examples
if ! cmake -S "$EXROOT" -B "$T/ex" >"$T/ex.log" 2>&1; then
  fail "cmake could not configure examples/:"
  sed 's/^/    | /' "$T/ex.log" | tail -n 20
else
  purist_unit examples examples/ "$EXROOT" "$EXROOT" "$T/ex" -p "$T/ex" --root "$EXROOT"
  while IFS=$TAB read -r dir file cmd; do
    mapfile -t flags < <(cdb_flags "$file" "$cmd" "$dir")
    gcc_tu examples examples/ "$EXROOT" "$dir" "$file" "${flags[@]}"
  done < <(cdb_each "$T/ex/compile_commands.json")
fi

# --- the fixtures -------------------------------------------------------

for entry in "$FX"/*; do
  name=$(basename "$entry")
  case $name in _* | bad_input) continue ;; esac
  if [ -d "$entry" ]; then
    dir=$entry prefix=$name/
    srcs=()
    for f in "$entry"/*.c; do srcs+=("$(basename "$f")"); done
  else
    case $name in *.c) ;; *) continue ;; esac
    dir=$FX prefix=''
    srcs=("$name")
  fi
  # "// flags:" and "// args:" lines, joined over the unit's .c and .h files.
  flags=() args=() files=("${srcs[@]}")
  if [ -d "$entry" ]; then
    for f in "$entry"/*.h; do [ -e "$f" ] && files+=("$(basename "$f")"); done
  fi
  for f in "${files[@]}"; do
    read -r -a w <<<"$(sed -n 's#^// flags:##p' "$dir/$f" | tr '\n' ' ')"
    flags+=("${w[@]}")
    read -r -a w <<<"$(sed -n 's#^// args:##p' "$dir/$f" | tr '\n' ' ')"
    args+=("${w[@]}")
    case $name in
      cross_tu_*)
        sed -n -E 's#^// expect: ([A-Za-z_][A-Za-z0-9_]*) (const|pure|normal)(.*)$#\1\t\2\t\3#p' "$dir/$f" |
          awk -F'\t' -v OFS='\t' -v unit="$name" -v label="$prefix$f" '
            { file = label
              if (match($3, /file=[^ ]+/)) file = substr($3, RSTART + 5, RLENGTH - 5)
              print unit, file, $1, $2 }' >>"$T/expect" ;;
    esac
  done
  if [ ${#flags[@]} -gt 0 ]; then
    purist_unit "$name" "$prefix" "$dir" "$dir" "$dir" "${args[@]}" "${srcs[@]}" -- "${flags[@]}"
  else
    purist_unit "$name" "$prefix" "$dir" "$dir" "$dir" "${args[@]}" "${srcs[@]}"
  fi
  for f in "${srcs[@]}"; do
    gcc_tu "$name" "$prefix" "$dir" "$dir" "$f" "${flags[@]}"
  done
done
gcc_wait
gcclib_collect

# --- 1. suggestions -----------------------------------------------------

# differences.txt: LABEL FUNCTION GCC-VERDICT PURIST-VERDICT — WHY
if [ ! -r "$DIFFS" ]; then
  fail "no $DIFFS"
  : >"$T/diffs"
else
  awk -v OFS='\t' '
    /^[ \t]*(#|$)/ { next }
    {
      why = $0
      i = index(why, "\342\200\224")
      if (NF < 6 || i == 0) { print "BAD", NR, $0; next }
      why = substr(why, i + 3); gsub(/^ +| +$/, "", why)
      if (why == "") { print "BAD", NR, $0; next }
      print "OK", $1, $2, $3, $4
    }' "$DIFFS" >"$T/diffs.all"
  grep "^BAD$TAB" "$T/diffs.all" | while IFS=$TAB read -r _ n line; do
    echo "FAIL: differences.txt:$n: not \"LABEL FUNCTION GCC PURIST — justification\": $line"
  done
  ERRORS=$((ERRORS + $(grep -c "^BAD$TAB" "$T/diffs.all")))
  grep "^OK$TAB" "$T/diffs.all" | cut -f2- >"$T/diffs"
fi

# One GCC verdict per function: local and IPA passes may each warn (pure,
# then const); the strongest counts.  Rank: const 4 > looping-const 3 >
# pure 2 > looping-pure 1.
awk -F'\t' -v OFS='\t' '
  function rank(v) { return v == "const" ? 4 : v == "looping-const" ? 3 : v == "pure" ? 2 : 1 }
  {
    k = $1 SUBSEP $2 SUBSEP $3
    if (!(k in best)) { order[++n] = k; rec[k] = $1 OFS $2 OFS $3; fn[k] = $4; best[k] = $5 }
    else if (rank($5) > rank(best[k])) best[k] = $5
    if (fn[k] == "?") fn[k] = $4
  }
  END { for (i = 1; i <= n; i++) print rec[order[i]], fn[order[i]], best[order[i]] }' "$T/sugg" >"$T/sugg1"

# Join with purist: verdict pairs.  Output:
#   STATUS LABEL LINE GCC-NAME PURIST-NAME GCC-VERDICT PURIST-VERDICT
awk -F'\t' -v OFS='\t' '
  FILENAME == ARGV[1] { d[$1 SUBSEP $2 SUBSEP $3 SUBSEP $4] = 1; next }
  FILENAME == ARGV[2] {
    k = $1 SUBSEP $2 SUBSEP $3
    pv[k] = $5 ($6 ? "-mnr" : ""); pn[k] = $4; next
  }
  {
    k = $1 SUBSEP $2 SUBSEP $3
    g = $5; gc = g; sub(/^looping-/, "", gc)
    if (k in pv) { p = pv[k]; name = pn[k] } else { p = "absent"; name = $4 }
    pc = p; sub(/-mnr$/, "", pc)
    if (pc == gc) st = "agree"
    else if (($2 SUBSEP name SUBSEP g SUBSEP p) in d) st = "documented"
    else st = "undocumented"
    print st, $2, $3, $4, name, g, p
  }' "$T/diffs" "$T/purist" "$T/sugg1" >"$T/pairs"

n_sugg=$(wc -l <"$T/pairs")
n_agree=$(grep -c "^agree$TAB" "$T/pairs")
n_doc=$(grep -c "^documented$TAB" "$T/pairs")
n_undoc=$(grep -c "^undocumented$TAB" "$T/pairs")

while IFS=$TAB read -r _ label line gname pname g p; do
  fail "$label:$line: $gname: GCC suggests $g, purist says $p (not in differences.txt: \"$label $pname $g $p — why\")"
done < <(grep "^undocumented$TAB" "$T/pairs")

# A name mismatch means the file:line mapping went wrong.
while IFS=$TAB read -r _ label line gname pname g p; do
  [ "$p" = absent ] || [ "$gname" = "?" ] && continue
  [ "$gname" = "$pname" ] || fail "$label:$line: GCC warns about $gname, purist lists $pname there"
done <"$T/pairs"

# Every documented difference must still occur.
while IFS=$TAB read -r label fn g p; do
  awk -F'\t' -v l="$label" -v f="$fn" -v g="$g" -v p="$p" '
    $1 == "documented" && $2 == l && $5 == f && $6 == g && $7 == p { found = 1 }
    END { exit !found }' "$T/pairs" && continue
  now=$(awk -F'\t' -v l="$label" -v f="$fn" '
    $2 == l && ($4 == f || $5 == f) { printf "GCC suggests %s, purist says %s", $6, $7; exit }' "$T/pairs")
  fail "differences.txt: \"$label $fn $g $p\" no longer occurs (now: ${now:-GCC suggests nothing for it}) — remove or update the entry"
done <"$T/diffs"

# Where the class agrees, does "may not return" agree with GCC's "looping"?
n_loopdiff=0
while IFS=$TAB read -r _ label line gname pname g p; do
  gl=0; pl=0
  case $g in looping-*) gl=1 ;; esac
  case $p in *-mnr) pl=1 ;; esac
  if [ $gl != $pl ]; then
    n_loopdiff=$((n_loopdiff + 1))
    echo "note: $label:$line: $pname: class agrees, but GCC says $g and purist $p"
  fi
done < <(grep "^agree$TAB" "$T/pairs")

echo "GCC -Wsuggest-attribute: $n_sugg suggestions, $n_agree agree, $n_doc documented differences, $n_undoc undocumented"
echo "  (of the $n_agree agreeing classes, $n_loopdiff differ only in GCC's 'looping' vs purist's 'may not return')"

# --- 2. found only by purist -------------------------------------------

# A cross_tu_* function whose "// expect:" class is const or pure, that
# GCC neither suggests nor finds in any dump (compiling file by file, it
# cannot see the callee in the other file), must get that class from
# purist.  (A static helper GCC finds const in its dumps but does not
# suggest — GCC never suggests for a finite static function, it sees all
# its callers — is not counted.)
n_only=0
while IFS=$TAB read -r unit label fn cls; do
  [ "$cls" = normal ] && continue
  case $label in */*) ;; *) label=$unit/$label ;; esac
  if awk -F'\t' -v l="$label" -v f="$fn" '$2 == l && $5 == f { found = 1 } END { exit !found }' "$T/pairs" ||
     awk -F'\t' -v u="$unit" -v l="$label" -v f="$fn" '$1 == u && $2 == l && $3 == f { found = 1 } END { exit !found }' "$T/found"; then
    continue
  fi
  got=$(awk -F'\t' -v u="$unit" -v l="$label" -v f="$fn" '
    $1 == u && $2 == l && $4 == f { print $5 ($6 ? "-mnr" : ""); exit }' "$T/purist")
  if [ "${got%-mnr}" = "$cls" ]; then
    n_only=$((n_only + 1))
    echo "found only by purist: $label $fn $got (GCC, compiling file by file, finds nothing)"
  else
    fail "$label: $fn: cross-TU, GCC finds nothing, purist must say $cls, says ${got:-nothing}"
  fi
done <"$T/expect"
[ "$n_only" -gt 0 ] || fail "no function found only by purist in the cross_tu_* fixtures"
echo "found only by purist (cross-TU fixtures): $n_only functions"

# --- 3. full verdicts from GCC's dumps (figures) ------------------------

verdict_table "$VERBOSE"

echo
if [ "$ERRORS" -gt 0 ]; then
  echo "gcc/agree: FAILED ($ERRORS problems)"
  exit 1
fi
echo "gcc/agree: ok"
