#!/bin/bash
# compare-cdb.sh — purist against GCC on a real project, from its
# compile_commands.json (not a ctest test: docs/gcc-agreement.md has the
# runs and their findings).
#
#   usage: compare-cdb.sh PURIST BUILD-DIR ROOT [OUTDIR]
#
# BUILD-DIR holds compile_commands.json (CMake's or bear's); ROOT is the
# project's source tree (paths are printed relative to it).  Environment:
#   FILTER   extended regex on the file path relative to ROOT: only those
#            entries are analysed (e.g. '^src/' to leave out vendored deps)
#   GCC      the compiler (default gcc); GCCLIB_JOBS parallel compilations
#   KEEP=1   keep the scratch directory (the whole-program dumps are in it)
#   LTO=1    also link every entry's LTO IR into one relocatable object
#            (-flto -r -flinker-output=nolto-rel) and compare with GCC's
#            whole-program verdicts too: what GCC finds across files (the
#            entries must form one program or library: no duplicate symbols)
#
# Each entry is compiled with its own flags followed by -O2 -Wno-error
# (GCC's verdicts are those of -O2 whatever the build type), the warnings
# -Wsuggest-attribute=pure/const and the dumps of every pass that decides
# purity; purist is run once on the same entries.  Prints the agreement
# table of purist's class against GCC's verdicts (static functions
# included) and the suggestions that disagree, and writes to OUTDIR (default
# ./gcc-compare): functions.tsv (LABEL LINE NAME PURIST GCC, one per
# function purist lists) and suggestions.tsv (GCC's -Wsuggest-attribute
# verdicts next to purist's); with LTO=1 functions.tsv has a sixth column,
# GCC's stronger verdict of the two.

set -u -o pipefail

if [ $# -lt 3 ] || [ ! -x "$1" ] || [ ! -r "$2/compile_commands.json" ] || [ ! -d "$3" ]; then
  echo "usage: $0 PATH/TO/purist BUILD-DIR ROOT [OUTDIR]" >&2
  exit 2
fi
PURIST=$(cd "$(dirname "$1")" && pwd -P)/$(basename "$1")
BUILD=$(cd "$2" && pwd -P)
ROOT=$(cd "$3" && pwd -P)
OUT=${4:-gcc-compare}
FILTER=${FILTER:-}
GCC=${GCC:-gcc}
GCCLIB_JOBS=${GCCLIB_JOBS:-$(nproc 2>/dev/null || echo 1)}
GCCLIB_EXTRA="-O2 -Wno-error"
GCCLIB_LTO=${LTO:-0}
HERE=$(cd "$(dirname "$0")" && pwd -P)
T=$(mktemp -d "${TMPDIR:-/tmp}/purist-cmp.XXXXXX")
if [ -n "${KEEP:-}" ]; then echo "scratch directory kept: $T"; else trap 'rm -rf "$T"' EXIT; fi
ERRORS=0
fail() { echo "FAIL: $*" >&2; ERRORS=$((ERRORS + 1)); }

# shellcheck source=lib.sh
. "$HERE/lib.sh"
gcclib_init
mkdir -p "$OUT" "$T/cdb"

# The entries to analyse, and a compile database of just those for purist.
cdb_each "$BUILD/compile_commands.json" |
  awk -F'\t' -v root="$ROOT" -v filter="$FILTER" "$GCCLIB_AWK_LABEL"'
    !seen[$2]++ && (filter == "" || label($2, $1, root, "") ~ filter)' >"$T/entries"
awk -F'\t' '
  function js(s) { gsub(/\\/, "\\\\", s); gsub(/"/, "\\\"", s); return "\"" s "\"" }
  BEGIN { print "[" }
  { printf "%s{\"directory\": %s, \"command\": %s, \"file\": %s}\n", (NR > 1 ? "," : ""), js($1), js($3), js($2) }
  END { print "]" }' "$T/entries" >"$T/cdb/compile_commands.json"
echo "entries: $(wc -l <"$T/entries")"

purist_unit cdb '' "$ROOT" "$ROOT" "$ROOT" -p "$T/cdb" --root "$ROOT"
while IFS=$TAB read -r dir file cmd; do
  mapfile -t flags < <(cdb_flags "$file" "$cmd" "$dir")
  gcc_tu cdb '' "$ROOT" "$dir" "$file" "${flags[@]}"
done <"$T/entries"
gcc_wait
gcclib_collect

# Suggestions next to purist's verdicts (the strongest per function).
awk -F'\t' -v OFS='\t' '
  function rank(v) { return v == "const" ? 4 : v == "looping-const" ? 3 : v == "pure" ? 2 : 1 }
  FILENAME == ARGV[1] { pv[$2 SUBSEP $3] = $5 ($6 ? "-mnr" : ""); pn[$2 SUBSEP $3] = $4; next }
  {
    k = $2 SUBSEP $3
    if (!(k in best)) { order[++n] = k; best[k] = $5; lab[k] = $2; line[k] = $3 }
    else if (rank($5) > rank(best[k])) best[k] = $5
  }
  END {
    for (i = 1; i <= n; i++) {
      k = order[i]; g = best[k]; gc = g; sub(/^looping-/, "", gc)
      p = (k in pv) ? pv[k] : "absent"; pc = p; sub(/-mnr$/, "", pc)
      print (pc == gc ? "agree" : "differ"), lab[k], line[k], (k in pn ? pn[k] : "?"), g, p
    }
  }' "$T/purist" "$T/sugg" >"$OUT/suggestions.tsv"
n=$(wc -l <"$OUT/suggestions.tsv")
a=$(grep -c "^agree$TAB" "$OUT/suggestions.tsv")
echo "GCC -Wsuggest-attribute: $n suggestions, $a with purist's class"
grep "^differ$TAB" "$OUT/suggestions.tsv" | while IFS=$TAB read -r _ l ln f g p; do
  echo "  $l:$ln: $f: GCC suggests $g, purist says $p"
done

if [ "$GCCLIB_LTO" = 1 ]; then
  gcc_whole "$T/whole.tsv"
  verdict_table 0 "$T/whole.tsv"
else
  verdict_table 0
fi
cp "$T/table" "$OUT/functions.tsv"
[ "$ERRORS" -eq 0 ] || { echo "($ERRORS problems, see above)"; exit 1; }
