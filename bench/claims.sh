#!/usr/bin/env bash
# bench/claims.sh — GCC judges what purist says the compiler gains (issue 29).
#
#   bench/claims.sh -p BUILD [--root ROOT] [--purist PATH] [-j N] [--keep]
#
# BUILD holds the project's compile_commands.json; ROOT is the project's
# source tree (default: the current directory). Nothing in ROOT changes:
# the attributes go into a copy.
#
#  1. Claims. `purist explain --format=json` names each call site where an
#     attribute would let the compiler delete the call (dead-call), merge
#     it with an earlier one (redundant-call) or hoist it out of its loop
#     (loop-invariant-call): the messages that say "… once 'F' is declared
#     pure|const". `purist suggest --all --format=json` gives each
#     suggestion's total ("N call sites in other files gain").
#  2. The attributes. `purist fix --all --dry-run` is applied to a copy of
#     ROOT; the database is rewritten to point into the copy.
#  3. GCC. Every TU is compiled twice to assembly (-S) with the database's
#     own compiler and flags (plus -w, and -O2 where there is no -O),
#     before and after. The calls in the assembly are counted (x86-64
#     `call F`, `call F@PLT`, tail-call `jmp F`), and the calls GCC's
#     loop-invariant motion moved out of a loop (-fdump-tree-lim-details).
#     A call is "removed" when the count falls, "hoisted" when the moves
#     grow. Both are summed per TU and callee: inlining moves a call from one caller into
#     another of the same TU, never out of it (a claim placed in a header
#     is matched to no TU: it shows as a claim that does not happen).
#  4. The figures: precision (claimed gains that happen) and recall (gains
#     that happen and were claimed), per kind — removed (dead and merged)
#     and hoisted — over (file, callee) pairs, where the callee got an
#     attribute; then whether each suggestion's "N call sites gain" (N > 0)
#     matches a call GCC removed or hoisted anywhere. The pairs that disagree are listed
#     (claims.txt in --keep's directory has them all).
#
# Needs jq and patch (scripts/deps.sh --test installs both).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=lib.sh
. "$here/bench/lib.sh"     # bench_db_option, bench_db_check

root=$(pwd) build= purist= jobs=$(nproc 2>/dev/null || echo 1) keep=0
while [ $# -gt 0 ]; do
  case $1 in
    -p|--root|--purist|-j*) bench_db_option "$@"; shift "$bench_used" ;;
    --keep) keep=1; shift ;;
    -h|--help) sed -n '2,/^set -e/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "bench/claims.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
say() { echo "claims.sh: $*" >&2; }
bench_db_check "$here"
for t in jq patch; do command -v $t >/dev/null || { say "needs $t"; exit 2; }; done
export LC_ALL=C
work=$(mktemp -d "${TMPDIR:-/tmp}/purist-claims.XXXXXX")
[ "$keep" -eq 1 ] || trap 'rm -rf "$work"' EXIT
T=$work
TAB=$'\t'
# shellcheck source=../tests/gcc/lib.sh
. "$here/tests/gcc/lib.sh"     # cdb_each, cdb_flags
export XDG_CACHE_HOME=$work/cache

# ---- 1. claims ----
say "purist explain, suggest (in $root)"
run_purist() { local cmd=$1; shift; (cd "$root" && "$purist" "$cmd" --quiet --color=never -p "$build" --root "$root" "$@"); }
run_purist explain --format=json --checks='dead-call,redundant-call,loop-invariant-call' -o "$work/explain.json" || true
run_purist suggest --format=json --all -o "$work/suggest.json" || true
# FILE TAB CALLER TAB CALLEE TAB KIND (removed|hoisted)
# A finding said once for several calls at one place ("(3 such calls at
# this place, …)": a macro expansion) counts each of them.
jq -r '.diagnostics[] | select(.message | test(" once \u0027[^\u0027]+\u0027 is declared (pure|const)"))
       | [.file, .function, (.message | capture(" once \u0027(?<g>[^\u0027]+)\u0027 is declared").g),
          (if .check == "loop-invariant-call" then "hoisted" else "removed" end)] as $row
       | range(0; ((.message | capture("\\((?<n>[0-9]+) such calls at this place") | .n | tonumber) // 1))
       | $row | @tsv' \
  "$work/explain.json" >"$work/claims.tsv"
jq -r '.diagnostics[] | select(.check | startswith("suggest-")) | [.function, (.gain // 0)] | @tsv' \
  "$work/suggest.json" >"$work/suggest.tsv"
say "$(wc -l <"$work/claims.tsv") call-site claims, $(wc -l <"$work/suggest.tsv") suggestions"

# ---- 2. the attributes, in a copy ----
say "fix --all --dry-run, applied to a copy"
run_purist fix --all --dry-run >"$work/fix.diff" || true
mkdir -p "$work/after"
tar -C "$root" --exclude=.git -cf - . | tar -C "$work/after" -xf -
patch -s -p1 -d "$work/after" <"$work/fix.diff" || { say "the fix diff does not apply"; exit 1; }
esc() { printf '%s' "$1" | sed 's/[][\.*^$/]/\\&/g'; }
# One key a line, as cdb_each reads it (CMake and bear write so; not every
# hand-written database does).
jq . "$build/compile_commands.json" >"$work/before.json"
sed "s/$(esc "$root")/$(esc "$work/after")/g" "$work/before.json" >"$work/after.json"
# The functions the fix declared: the names on the lines it added, and on
# the line after one that names none (GNU style puts the attribute on the
# line of the return type, the name on the next: `_GL_ATTRIBUTE_PURE static
# char *` then `name (…)`). The lines of a guard block the fix defines
# (`#ifndef PURIST_PURE` …) name none.
awk '/^\+[ \t]*#/ { next }   # the guard block fix defines (PURIST_PURE, PURIST_CONST): no function
     /^\+/ && !/^\+\+\+/ { l = $0; gsub(/__attribute__ *\(\([^)]*\)\)/, "", l)
                         if (l !~ /\(/ && (getline nx) > 0) $0 = $0 " " substr(nx, 2); print }' \
  "$work/fix.diff" >"$work/added"
# A name a prefixing macro renames (`#define ecc_size nettle_ecc_size`,
# GMP's mpz_* -> __gmpz_*) is written as the macro, compiled as what it
# expands to: the files the fix edits say which (WRITTEN TAB COMPILED).
sed -n 's|^+++ b/||p' "$work/fix.diff" | while read -r f; do
  sed -n 's/^[ \t]*#[ \t]*define[ \t]\{1,\}\([A-Za-z_][A-Za-z0-9_]*\)[ \t]\{1,\}\([A-Za-z_][A-Za-z0-9_]*\)[ \t]*$/\1\t\2/p' \
    "$work/after/$f" 2>/dev/null
done | sort -u >"$work/renames"

# ---- 3. GCC, before and after ----
# asm_calls FILE.s : CALLER TAB CALLEE TAB CALLS TAB 0
asm_calls() {
  awk -v OFS='\t' '
    function base(s) { sub(/@.*/, "", s); sub(/\..*/, "", s); return s }
    /^[ \t]*\.type[ \t]/ { if ($0 ~ /@function/) { s = $2; sub(/,.*/, "", s); isfn[s] = 1 }; next }
    /^[A-Za-z_.$][A-Za-z0-9_.$]*:/ { l = $0; sub(/:.*/, "", l); if (l in isfn) fn = base(l); next }
    fn != "" && ($1 == "call" || ($1 == "jmp" && $2 !~ /^\.L/)) && $2 !~ /^\*/ { n[fn SUBSEP base($2)]++ }
    END { for (k in n) { split(k, kk, SUBSEP); print kk[1], kk[2], n[k], 0 } }' "$1"
}
# lim_moves DUMP... : CALLER TAB CALLEE TAB 0 TAB MOVED — the calls
# GCC's loop-invariant motion moved out of a loop ("Moving statement" in
# -fdump-tree-lim-details; a backward jump in the assembly is no loop test:
# GCC lays out cold paths after the function's end and jumps back).
lim_moves() {
  cat "$@" 2>/dev/null | awk -v OFS='\t' '
    /^;; Function / { fn = $3; next }
    /^Moving statement/ { getline s; if (match(s, /= [A-Za-z_][A-Za-z0-9_]* \(/)) {
        g = substr(s, RSTART + 2, RLENGTH - 4); n[fn SUBSEP g]++ } }
    END { for (k in n) { split(k, kk, SUBSEP); print kk[1], kk[2], 0, n[k] } }'
}
compile_all() {   # DB OUTDIR ROOT (the tree the database compiles)
  local db=$1 out=$2 top=$3 i=0
  mkdir -p "$out"
  while IFS=$TAB read -r dir file cmd; do
    i=$((i + 1))
    while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n || true; done
    (
      eval "set -- $cmd"; cc=$1
      mapfile -t flags < <(cdb_flags "$file" "$cmd" "$dir")
      case " ${flags[*]} " in *" -O"*) opt=() ;; *) opt=(-O2) ;; esac
      if (cd "$dir" && "$cc" "${flags[@]}" "${opt[@]}" -w -S "$file" -o "$out/$i.s" \
            -fdump-tree-lim-details -dumpdir "$out/$i.") 2>"$out/$i.err"; then
        abs=$file; [[ $abs == /* ]] || abs=$dir/$abs
        rel=$(realpath -m "$abs"); rel=${rel#"$top"/}
        { asm_calls "$out/$i.s"; lim_moves "$out/$i".*lim*; } | sed "s|^|$rel$TAB|" >"$out/$i.calls"
      fi
      rm -f "$out/$i.s" "$out/$i".*lim*
    ) &
  done < <(cdb_each "$db")
  wait
}
say "compiling every TU before and after (-j$jobs)"
compile_all "$work/before.json" "$work/before" "$root"
compile_all "$work/after.json" "$work/after-asm" "$work/after"
failed=$(find "$work/before" "$work/after-asm" -name '*.err' -size +0 | wc -l)

# ---- 4. figures ----
cat "$work"/before/*.calls 2>/dev/null | sort >"$work/before.tsv"
cat "$work"/after-asm/*.calls 2>/dev/null | sort >"$work/after.tsv"
awk -F'\t' -v OFS='\t' -v claims="$work/claims.tsv" -v sugg="$work/suggest.tsv" -v added="$work/added" \
    -v renames="$work/renames" \
    -v out="$work/claims.txt" -v failed="$failed" '
  function min(a, b) { return a < b ? a : b }
  function pos(a) { return a > 0 ? a : 0 }
  BEGIN {
    while ((getline l < added) > 0) { while (match(l, /[A-Za-z_][A-Za-z0-9_]*[ \t]*\(/)) { s = substr(l, RSTART, RLENGTH); sub(/[ \t]*\($/, "", s); decl[s] = 1; l = substr(l, RSTART + RLENGTH) } }
    while ((getline l < renames) > 0) { split(l, a, "\t"); if (a[1] in decl) decl[a[2]] = 1 }
    while ((getline l < claims) > 0) { split(l, a, "\t"); k = a[1] SUBSEP a[3]; cl[k, a[4]]++; pairs[k] = 1 }
    while ((getline l < sugg) > 0) { split(l, a, "\t"); sg[a[1]] = a[2] }
  }
  FILENAME ~ /before.tsv$/ { k = $1 SUBSEP $3; bt[k] += $4; bm[k] += $5; pairs[k] = 1; next }
  { k = $1 SUBSEP $3; at[k] += $4; am[k] += $5; pairs[k] = 1 }
  END {
    for (k in pairs) {
      split(k, kk, SUBSEP); g = kk[2]
      if (!(g in decl)) { if ((k, "removed") in cl || (k, "hoisted") in cl) untested++; continue }
      rem = pos(bt[k] - at[k]); hoi = pos(am[k] - bm[k])
      cr = cl[k, "removed"] + 0; ch = cl[k, "hoisted"] + 0
      tr += min(cr, rem); th += min(ch, hoi); sr += cr; sh += ch; rr += rem; rh += hoi
      if (cr != rem || ch != hoi)
        printf "%s -> %s: claimed %d removed, %d hoisted; GCC: %d removed, %d hoisted (calls %d -> %d, moved out of loops %d -> %d)\n",
               kk[1], g, cr, ch, rem, hoi, bt[k], at[k], bm[k], am[k] > out
      greal[g] += rem + hoi
    }
    printf "TUs that did not compile (left out): %d\n", failed
    printf "removed (dead + merged): %d claimed, %d happen, %d real in all -> precision %s, recall %s\n",
           sr, tr, rr, sr ? sprintf("%.0f %%", 100 * tr / sr) : "-", rr ? sprintf("%.0f %%", 100 * tr / rr) : "-"
    printf "hoisted:                 %d claimed, %d happen, %d real in all -> precision %s, recall %s\n",
           sh, th, rh, sh ? sprintf("%.0f %%", 100 * th / sh) : "-", rh ? sprintf("%.0f %%", 100 * th / rh) : "-"
    printf "claims about callees the fix left undeclared (not tested): %d\n", untested + 0
    ns = 0; agree = 0
    for (g in sg) if (g in decl) { ns++; if ((sg[g] > 0) == (greal[g] > 0)) agree++ }
    printf "suggest: %d suggestions with an attribute written; \"gains\" vs GCC changed some call: %d of %d agree\n", ns, agree, ns
    for (g in sg) if ((g in decl) && ((sg[g] > 0) != (greal[g] > 0)))
      printf "suggest %s: claims %d call sites gain; GCC: %d calls removed or hoisted\n", g, sg[g], greal[g] + 0 > out
  }' "$work/before.tsv" "$work/after.tsv"
if [ -s "$work/claims.txt" ]; then
  echo "disagreements ($(wc -l <"$work/claims.txt")), first 25:"
  sort "$work/claims.txt" | head -n 25 | sed 's/^/  /'
fi
[ "$keep" -eq 1 ] && say "kept $work"
exit 0
