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
export LC_ALL=C

if [ $# -ne 2 ] || [ ! -x "$1" ] || [ ! -d "$2" ]; then
  echo "usage: $0 PATH/TO/purist SRCDIR" >&2
  exit 2
fi
PURIST=$(cd "$(dirname "$1")" && pwd -P)/$(basename "$1")
SRC=$(cd "$2" && pwd -P)
FX=$SRC/tests/fixtures
DIFFS=$SRC/tests/gcc/differences.txt
GCC=${GCC:-gcc}
# Every pass that decides purity: the early and late local passes, the IPA
# pass, and GCC 12's mod/ref analysis, which decides some functions too.
GCC_DUMPS="-fdump-tree-local-pure-const1 -fdump-tree-local-pure-const2 -fdump-ipa-pure-const
  -fdump-tree-modref1 -fdump-tree-modref2 -fdump-ipa-modref"
VERBOSE=${AGREE_VERBOSE:-0}
T=$(mktemp -d "${TMPDIR:-/tmp}/purist-gcc.XXXXXX")
trap 'rm -rf "$T"' EXIT
TAB=$'\t'
ERRORS=0

# Records, tab-separated, one line each (LABEL = unit prefix + file, the
# name differences.txt uses: "noreturn_abort.c", "cross_tu_clean/a_top.c",
# "examples/src/num.c"):
#   $T/purist  UNIT LABEL LINE NAME CLASS MNR(0|1) DECLARED(const|pure|none)
#   $T/sugg    UNIT LABEL LINE NAME VERDICT      (one per GCC warning)
#   $T/found   UNIT TU-LABEL NAME VERDICT        (dump: found to be ...)
#   $T/seen    UNIT TU-LABEL NAME                (dump: function analysed)
#   $T/expect  UNIT LABEL NAME CLASS             (cross_tu_* expectations)
: >"$T/purist"; : >"$T/sugg"; : >"$T/found"; : >"$T/seen"; : >"$T/expect"

fail() { echo "FAIL: $*"; ERRORS=$((ERRORS + 1)); }

# purist_unit UNIT PREFIX STRIP DIR ARGS... : runs purist in DIR with ARGS
# and records its text report.  STRIP is removed from the front of paths.
purist_unit() {
  local unit=$1 prefix=$2 strip=$3 dir=$4
  shift 4
  if ! (cd "$dir" && "$PURIST" infer --quiet --color=never "$@") >"$T/p.out" 2>"$T/p.err"; then
    fail "purist failed on $unit (exit $?):"
    sed 's/^/    | /' "$T/p.err" | head -n 20
  fi
  sed -n -E 's/^([^:]+):([0-9]+): ([A-Za-z_][A-Za-z0-9_]*): (const|pure|normal)(.*)$/\1\t\2\t\3\t\4\t\5/p' "$T/p.out" |
    awk -F'\t' -v OFS='\t' -v unit="$unit" -v prefix="$prefix" -v strip="$strip" '
      {
        file = $1
        if (strip != "" && index(file, strip) == 1) file = substr(file, length(strip) + 1)
        sub(/^\.\//, "", file)
        rest = $5
        i = index(rest, " \342\200\224 ")        # " — " starts the reason
        if (i) rest = substr(rest, 1, i - 1)
        mnr = index(rest, "may not return") ? 1 : 0
        decl = "none"
        if (rest ~ /declared const/) decl = "const"
        else if (rest ~ /declared pure/) decl = "pure"
        print unit, prefix file, $2, $3, $4, mnr, decl
      }' >>"$T/purist"
}

# gcc_tu UNIT PREFIX STRIP DIR TU FLAGS... : compiles TU in DIR with FLAGS
# and records GCC's suggestions and dump verdicts.
ntu=0
gcc_tu() {
  local unit=$1 prefix=$2 strip=$3 dir=$4 tu=$5
  shift 5
  ntu=$((ntu + 1))
  local out=$T/tu/$ntu
  mkdir -p "$out"
  if ! (cd "$dir" && "$GCC" -O2 "$@" -c -fdiagnostics-plain-output \
          -Wsuggest-attribute=pure -Wsuggest-attribute=const \
          $GCC_DUMPS \
          "$tu" -o "$out/o.o") >"$out/log" 2>&1; then
    fail "gcc failed on $unit $tu:"
    sed 's/^/    | /' "$out/log" | head -n 20
    return
  fi
  local tulabel=$tu
  case $tulabel in "$strip"*) tulabel=${tulabel#"$strip"} ;; esac
  tulabel=$prefix${tulabel#./}
  # A warning from a function pass follows "FILE: In function 'NAME':";
  # the IPA pass warns without it (NAME "?": purist's name is used).
  awk -v OFS='\t' -v unit="$unit" -v prefix="$prefix" -v strip="$strip" '
    BEGIN { fn = "?" }
    /: In function / {
      fn = $0; sub(/^.*: In function ./, "", fn); sub(/.:$/, "", fn); next
    }
    / warning: function might be candidate for attribute / {
      if (!match($0, /^[^:]+:[0-9]+:[0-9]+: /)) next
      loc = substr($0, 1, RLENGTH - 2)
      n = split(loc, part, ":")
      file = part[1]; line = part[2]
      if (strip != "" && index(file, strip) == 1) file = substr(file, length(strip) + 1)
      sub(/^\.\//, "", file)
      v = ($0 ~ /attribute .const./) ? "const" : "pure"
      if ($0 ~ /if it is known to return normally/) v = "looping-" v
      print unit, prefix file, line, fn, v
      fn = "?"
    }' "$out/log" >>"$T/sugg"
  # Verdicts: "Function found to be [looping] pure|const: NAME/ORDER", in
  # the dumps of every pass that decides them.  A clone (NAME.part.N,
  # NAME.isra.N, NAME.constprop.N) speaks for NAME only where NAME itself
  # has no verdict; other suffixed names (.cold) are skipped.
  sed -n -E 's/.*Function found to be (looping )?(pure|const): ([A-Za-z_][A-Za-z0-9_.]*)\/[0-9]+.*/\1\2\t\3/p' "$out"/o.c.* |
    awk -F'\t' -v OFS='\t' -v unit="$unit" -v tu="$tulabel" '
      {
        v = $1; sub(/ /, "-", v); name = $2; clone = 0
        while (match(name, /\.(part|isra|constprop)\.[0-9]+$/)) { name = substr(name, 1, RSTART - 1); clone = 1 }
        if (index(name, ".")) next
        print unit, tu, name, v, clone
      }' >>"$T/found"
  sed -n -E 's/^;; Function ([A-Za-z_][A-Za-z0-9_]*)[ .].*/\1/p' "$out"/o.c.* |
    awk -v OFS='\t' -v unit="$unit" -v tu="$tulabel" '{ print unit, tu, $1 }' >>"$T/seen"
}

# --- the example project ------------------------------------------------

EXROOT=$SRC/examples
if ! cmake -S "$EXROOT" -B "$T/ex" >"$T/ex.log" 2>&1; then
  fail "cmake could not configure examples/:"
  sed 's/^/    | /' "$T/ex.log" | tail -n 20
else
  EXROOT=$(cd "$EXROOT" && pwd -P)
  purist_unit examples examples/ "$EXROOT/" "$T/ex" -p "$T/ex"
  # compile_commands.json as CMake writes it: one "key": "value" a line.
  sed -n -E 's/^ *"(directory|command|file)" *: *"(.*)",?$/\1\t\2/p' "$T/ex/compile_commands.json" >"$T/ex.cdb"
  dir='' cmd='' file=''
  while IFS=$TAB read -r key val; do
    val=${val//\\\"/\"}
    val=${val//\\\\/\\}
    case $key in
      directory) dir=$val ;;
      command) cmd=$val ;;
      file) file=$val ;;
    esac
    if [ -n "$dir" ] && [ -n "$cmd" ] && [ -n "$file" ]; then
      eval "set -- $cmd"
      shift                              # the compiler
      flags=()
      while [ $# -gt 0 ]; do
        case $1 in
          -o) shift ;;
          -c) ;;
          "$file") ;;
          *) flags+=("$1") ;;
        esac
        shift
      done
      gcc_tu examples examples/ "$EXROOT/" "$dir" "$file" "${flags[@]}"
      dir='' cmd='' file=''
    fi
  done <"$T/ex.cdb"
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
  flags=() args=()
  for f in "${srcs[@]}" $( [ -d "$entry" ] && cd "$dir" && ls *.h 2>/dev/null ); do
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
    purist_unit "$name" "$prefix" '' "$dir" "${args[@]}" "${srcs[@]}" -- "${flags[@]}"
  else
    purist_unit "$name" "$prefix" '' "$dir" "${args[@]}" "${srcs[@]}"
  fi
  for f in "${srcs[@]}"; do
    gcc_tu "$name" "$prefix" '' "$dir" "$f" "${flags[@]}"
  done
done

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

# For each function purist lists: GCC's strongest verdict over the
# translation units that define it (its own .c file; for a header, every
# unit of the fixture or project); "declared" if the source declares it
# const or pure (GCC then takes the declaration as its verdict); "none" if
# GCC analysed it and found nothing; "unseen" if no unit analysed it (an
# unused static inline function, or one inlined everywhere before the
# first pass).
awk -F'\t' -v OFS='\t' -v verbose="$VERBOSE" '
  function rank(v) { return v == "const" ? 4 : v == "looping-const" ? 3 : v == "pure" ? 2 : v == "looping-pure" ? 1 : 0 }
  function keep(k, v) { if (!(k in f) || rank(v) > rank(f[k])) f[k] = v }
  function verdict(k) { return ("o" SUBSEP k) in f ? f["o" SUBSEP k] : ("c" SUBSEP k) in f ? f["c" SUBSEP k] : "" }
  FILENAME == ARGV[1] {
    c = $5 ? "c" : "o"
    keep(c SUBSEP $1 SUBSEP $2 SUBSEP $3, $4)
    keep(c SUBSEP $1 SUBSEP "*" SUBSEP $3, $4)
    next
  }
  FILENAME == ARGV[2] { s[$1 SUBSEP $2 SUBSEP $3] = 1; s[$1 SUBSEP "*" SUBSEP $3] = 1; next }
  {
    unit = $1; label = $2; name = $4
    pc = $5 ($6 ? "-mnr" : "")
    k = unit SUBSEP (label ~ /\.c$/ ? label : "*") SUBSEP name
    g = verdict(k)
    if (g == "") g = (k in s) ? "none" : "unseen"
    if ($7 != "none") g = "declared"
    m[pc SUBSEP g]++; total++
    if (verbose) printf "  %-40s %-24s purist %-11s GCC %s\n", label ":" $3, name, pc, g
  }
  END {
    nr = split("const const-mnr pure pure-mnr normal normal-mnr", rows, " ")
    nc = split("const looping-const pure looping-pure declared none unseen", cols, " ")
    print ""
    print "GCC dump verdicts (local-pure-const1/2, ipa pure-const, modref1/2, ipa modref), static functions included:"
    printf "  %-12s", "purist\\GCC"
    for (j = 1; j <= nc; j++) printf " %13s", cols[j]
    printf "\n"
    for (i = 1; i <= nr; i++) {
      printf "  %-12s", rows[i]
      for (j = 1; j <= nc; j++) printf " %13d", m[rows[i] SUBSEP cols[j]]
      printf "\n"
    }
    same = 0
    for (i = 1; i <= nr; i++) {
      r = rows[i]; sub(/-mnr$/, "", r)
      for (j = 1; j <= nc; j++) {
        c = cols[j]; sub(/^looping-/, "", c)
        if (c == r || (r == "normal" && cols[j] == "none")) same += m[rows[i] SUBSEP cols[j]]
      }
    }
    printf "  %d functions, %d with the same class (normal = GCC none)\n", total, same
  }' "$T/found" "$T/seen" "$T/purist"

echo
if [ "$ERRORS" -gt 0 ]; then
  echo "gcc/agree: FAILED ($ERRORS problems)"
  exit 1
fi
echo "gcc/agree: ok"
