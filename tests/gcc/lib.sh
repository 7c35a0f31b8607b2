# shellcheck shell=bash
# lib.sh — what agree.sh and compare-cdb.sh share: running purist and GCC
# on translation units and recording what each says, as tab-separated
# records in $T (a scratch directory the caller creates and removes).
#
# Records, one line each.  A LABEL is a file's path relative to the unit's
# root with the unit's prefix in front ("noreturn_abort.c",
# "cross_tu_clean/a_top.c", "examples/src/num.c", "src/server.c"); it is
# what differences.txt and the reports name.
#   $T/purist  UNIT LABEL LINE NAME CLASS MNR(0|1) DECLARED(const|pure|none)
#   $T/sugg    UNIT LABEL LINE NAME VERDICT        (one per GCC warning; NAME
#                                                   "?" if GCC did not say)
#   $T/found   UNIT TU-LABEL NAME VERDICT          (dump: found to be ...)
#   $T/seen    UNIT TU-LABEL NAME                  (dump: function analysed)
# VERDICT: const | pure | looping-const | looping-pure.
#
# The caller sets PURIST, GCC, T and defines fail MESSAGE.

export LC_ALL=C
TAB=$'\t'
# Every pass that decides purity: the early and late local passes, the IPA
# pass, and GCC 12's mod/ref analysis, which decides some functions too.
GCC_DUMPS="-fdump-tree-local-pure-const1 -fdump-tree-local-pure-const2 -fdump-ipa-pure-const
  -fdump-tree-modref1 -fdump-tree-modref2 -fdump-ipa-modref"

gcclib_init() {
  : >"$T/purist"; : >"$T/sugg"; : >"$T/found"; : >"$T/seen"
  mkdir -p "$T/tu"
  gcc_knows_c23 || true   # asked once, before the jobs fork
}

# The awk function that turns a path printed by a tool into a LABEL:
# relative paths are taken from BASE, "." and ".." resolved, ROOT/ removed
# from the front, PREFIX put there instead.
GCCLIB_AWK_LABEL='
  function label(path, base, root, prefix,    n, i, k, seg, out) {
    if (path !~ /^\//) path = base "/" path
    n = split(path, seg, "/"); k = 0
    for (i = 1; i <= n; i++) {
      if (seg[i] == "" || seg[i] == ".") continue
      if (seg[i] == "..") { if (k > 0) k--; continue }
      out[++k] = seg[i]
    }
    path = ""
    for (i = 1; i <= k; i++) path = path "/" out[i]
    if (index(path, root "/") == 1) path = substr(path, length(root) + 2)
    return prefix path
  }'

# purist_unit UNIT PREFIX ROOT BASE DIR ARGS... : runs `purist infer ARGS`
# in DIR and records its text report; purist's relative paths are taken
# from BASE.
purist_unit() {
  local unit=$1 prefix=$2 root=$3 base=$4 dir=$5 rc=0
  shift 5
  (cd "$dir" && "$PURIST" infer --quiet --color=never "$@") >"$T/p.out" 2>"$T/p.err" || rc=$?
  if [ "$rc" -ne 0 ]; then
    fail "purist failed on $unit (exit $rc):"
    sed 's/^/    | /' "$T/p.err" | head -n 20
  fi
  sed -n -E 's/^([^:]+):([0-9]+): ([A-Za-z_][A-Za-z0-9_]*): (const|pure|normal)(.*)$/\1\t\2\t\3\t\4\t\5/p' "$T/p.out" |
    awk -F'\t' -v OFS='\t' -v unit="$unit" -v prefix="$prefix" -v root="$root" -v base="$base" \
      "$GCCLIB_AWK_LABEL"'
      {
        rest = $5
        i = index(rest, " \342\200\224 ")        # " — " starts the reason
        if (i) rest = substr(rest, 1, i - 1)
        mnr = index(rest, "may not return") ? 1 : 0
        decl = "none"
        if (rest ~ /declared const/) decl = "const"
        else if (rest ~ /declared pure/) decl = "pure"
        print unit, label($1, base, root, prefix), $2, $3, $4, mnr, decl
      }' >>"$T/purist"
}

# gcc_tu UNIT PREFIX ROOT DIR TU FLAGS... : compiles TU in DIR with
# gcc -O2 FLAGS and the suggestion warnings and dumps; records what GCC
# says.  Runs in the background if GCCLIB_JOBS > 1 (call gcc_wait after).
gcc_tu() {
  if [ "${GCCLIB_JOBS:-1}" -gt 1 ]; then
    while [ "$(jobs -rp | wc -l)" -ge "$GCCLIB_JOBS" ]; do wait -n; done
    gcc_tu_run "$@" &
  else
    gcc_tu_run "$@"
  fi
}
gcc_wait() { wait; }

# GCC before 14 knows C23 only as c2x/gnu2x; a fixture written for clang 19
# says -std=c23, which means the same language to both compilers.
GCCLIB_C23=
gcc_knows_c23() {
  if [ -z "$GCCLIB_C23" ]; then
    if "$GCC" -std=c23 -E -x c /dev/null >/dev/null 2>&1; then GCCLIB_C23=yes
    else GCCLIB_C23=no; fi
  fi
  [ "$GCCLIB_C23" = yes ]
}

gcc_tu_run() {
  local unit=$1 prefix=$2 root=$3 dir=$4 tu=$5
  shift 5
  local out a args=()
  for a in "$@"; do
    case $a in
      -std=c23|-std=gnu23) gcc_knows_c23 || a=${a%23}2x ;;
    esac
    args+=("$a")
  done
  set -- "${args[@]}"
  out=$(mktemp -d "$T/tu/XXXXXX")
  # shellcheck disable=SC2086
  if ! (cd "$dir" && "$GCC" -O2 "$@" ${GCCLIB_EXTRA:-} -c -fdiagnostics-plain-output \
          -Wsuggest-attribute=pure -Wsuggest-attribute=const $GCC_DUMPS \
          "$tu" -o "$out/o.o") >"$out/log" 2>&1; then
    { echo "gcc failed on $unit $tu:"; sed 's/^/    | /' "$out/log" | head -n 20; } >"$out/fail"
    return
  fi
  local tulabel
  tulabel=$(awk -v t="$tu" -v d="$dir" -v r="$root" -v p="$prefix" \
    "$GCCLIB_AWK_LABEL"' BEGIN { print label(t, d, r, p) }')
  # A warning from a function pass follows "FILE: In function 'NAME':";
  # the IPA pass warns without it (NAME "?": the caller uses purist's).
  awk -v OFS='\t' -v unit="$unit" -v prefix="$prefix" -v root="$root" -v base="$dir" \
    "$GCCLIB_AWK_LABEL"'
    BEGIN { fn = "?" }
    /: In function / {
      fn = $0; sub(/^.*: In function ./, "", fn); sub(/.:$/, "", fn); next
    }
    / warning: function might be candidate for attribute / {
      if (!match($0, /^[^:]+:[0-9]+:[0-9]+: /)) next
      split(substr($0, 1, RLENGTH - 2), part, ":")
      v = ($0 ~ /attribute .const./) ? "const" : "pure"
      if ($0 ~ /if it is known to return normally/) v = "looping-" v
      print unit, label(part[1], base, root, prefix), part[2], fn, v
      fn = "?"
    }' "$out/log" >"$out/sugg"
  # Verdicts: "Function found to be [looping] pure|const: NAME/ORDER", in
  # the dumps of every pass that decides them.  Clones (NAME.part.N, the
  # split-off rest of a partly inlined function; NAME.isra.N and
  # NAME.constprop.N, specialisations) are skipped: their verdict is not
  # NAME's (incrRefCount.part.0 is only the panic path of incrRefCount).
  sed -n -E 's/.*Function found to be (looping )?(pure|const): ([A-Za-z_][A-Za-z0-9_.]*)\/[0-9]+.*/\1\2\t\3/p' "$out"/o.c.* |
    awk -F'\t' -v OFS='\t' -v unit="$unit" -v tu="$tulabel" '
      {
        v = $1; sub(/ /, "-", v)
        if (index($2, ".")) next
        print unit, tu, $2, v
      }' >"$out/found"
  sed -n -E 's/^;; Function ([A-Za-z_][A-Za-z0-9_]*)[ .].*/\1/p' "$out"/o.c.* |
    awk -v OFS='\t' -v unit="$unit" -v tu="$tulabel" '{ print unit, tu, $1 }' >"$out/seen"
  rm -f "$out"/o.c.* "$out/o.o"
  # For gcc_whole: the same unit as LTO IR.  -fno-semantic-interposition:
  # in a relocatable link GCC otherwise takes every function with explicit
  # default visibility as replaceable and ignores what it found for it
  # (purist, like a linker, binds a call to the definition in the program).
  # shellcheck disable=SC2086
  if [ "${GCCLIB_LTO:-0}" = 1 ] &&
     ! (cd "$dir" && "$GCC" -O2 "$@" ${GCCLIB_EXTRA:-} -flto -fno-semantic-interposition -c "$tu" -o "$out/lto.o") >"$out/lto.log" 2>&1; then
    { echo "gcc -flto failed on $unit $tu:"; sed 's/^/    | /' "$out/lto.log" | head -n 20; } >"$out/fail"
  fi
}

# gcclib_collect: reports the compilations that failed and appends every
# unit's records to $T/sugg, found and seen, sorted (the same report
# whatever order parallel compilations finished in).
gcclib_collect() {
  local f
  for f in "$T"/tu/*/fail; do
    [ -e "$f" ] && fail "$(cat "$f")"
  done
  cat "$T"/tu/*/sugg 2>/dev/null | sort -t "$TAB" -k1,1 -k2,2 -k3,3n >>"$T/sugg"
  cat "$T"/tu/*/found 2>/dev/null | sort -u >>"$T/found"
  cat "$T"/tu/*/seen 2>/dev/null | sort -u >>"$T/seen"
}

# cdb_each FILE : reads a compile_commands.json (CMake's "command" or
# bear's "arguments" form, one key a line as both write it) and prints one
# entry a line: DIRECTORY TAB FILE TAB COMMAND, where COMMAND is a shell
# command line (arguments quoted when they came as an array).
cdb_each() {
  awk -v OFS='\t' '
    function unq(s) { sub(/^[ \t]*"/, "", s); sub(/",?[ \t]*$/, "", s)
                      gsub(/\\"/, "\"", s); gsub(/\\\\/, "\\", s); return s }
    function shq(s) { gsub(/\047/, "\047\\\047\047", s); return "\047" s "\047" }
    /^[ \t]*"arguments"[ \t]*:/ { inargs = 1; cmd = ""; next }
    inargs && /^[ \t]*\]/ { inargs = 0; next }
    inargs { cmd = cmd (cmd == "" ? "" : " ") shq(unq($0)); next }
    /^[ \t]*"command"[ \t]*:/ { s = $0; sub(/^[ \t]*"command"[ \t]*:[ \t]*/, "", s); cmd = unq(s); next }
    /^[ \t]*"directory"[ \t]*:/ { s = $0; sub(/^[ \t]*"directory"[ \t]*:[ \t]*/, "", s); dir = unq(s); next }
    /^[ \t]*"file"[ \t]*:/ { s = $0; sub(/^[ \t]*"file"[ \t]*:[ \t]*/, "", s); file = unq(s); next }
    /^[ \t]*}/ { if (dir != "" && file != "" && cmd != "") print dir, file, cmd; dir = file = cmd = "" }
  ' "$1"
}

# cdb_flags FILE COMMAND [DIR] : prints the command's flags, one a line,
# without the compiler, -c, -o OUT, the source file (as FILE spells it, its
# base name, or with DIR any path that is the same file: `-c src/x.c` in a
# hand-written database) and the LTO options (a -flto compile stops before
# the passes whose verdicts are compared).
cdb_flags() {
  local file=$1 dir=${3:-}
  eval "set -- $2"
  shift
  while [ $# -gt 0 ]; do
    case $1 in
      -o) shift ;;
      -c) ;;
      "$file" | "${file##*/}") ;;
      -flto | -flto=* | -ffat-lto-objects | -fno-fat-lto-objects | -fuse-linker-plugin) ;;
      *) if [[ -n $dir && $1 != -* && ( $1 == /* && $1 -ef $file || $dir/$1 -ef $file ) ]]; then :
         else printf '%s\n' "$1"; fi ;;
    esac
    shift
  done
}

# verdict_table VERBOSE [WHOLE] : the agreement table of purist's class
# against GCC's dump verdicts for every function purist lists.  GCC's
# verdict is its strongest over the translation units that define the
# function (its own .c file; for a header, every unit of the same UNIT);
# "declared" if the source declares it const or pure (GCC takes the
# declaration as its verdict); "none" if GCC analysed it and found
# nothing; "unseen" if no unit analysed it (an unused static inline
# function, or one inlined everywhere before the first pass).
# WHOLE: a file of NAME TAB VERDICT TAB 0 from a whole-program (LTO)
# link; a second table then shows GCC's stronger of the two verdicts
# (names purist lists more than once, statics, are left to the first).
# With VERBOSE=1, one line per function.  The list also goes to $T/table:
# LABEL LINE NAME PURIST GCC-PER-TU [GCC-BEST].
verdict_table() {
  local whole=${2:-/dev/null}
  cp "$T/purist" "$T/purist.names"
  awk -F'\t' -v OFS='\t' -v verbose="${1:-0}" -v list="$T/table" -v haswhole="${2:+1}" '
    function rank(v) { return v == "const" ? 4 : v == "looping-const" ? 3 : v == "pure" ? 2 : v == "looping-pure" ? 1 : 0 }
    function keep(k, v) { if (!(k in f) || rank(v) > rank(f[k])) f[k] = v }
    function verdict(k) { return (k in f) ? f[k] : "" }
    function table(title, m,    i, j, r, c, same) {
      print ""
      print title
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
          if (c == r || (r == "normal" && (cols[j] == "none" || cols[j] == "inlined"))) same += m[rows[i] SUBSEP cols[j]]
        }
      }
      printf "  %d functions, %d with the same class (normal = GCC none or inlined)\n", total, same
    }
    FILENAME == ARGV[1] {
      keep($1 SUBSEP $2 SUBSEP $3, $4)
      keep($1 SUBSEP "*" SUBSEP $3, $4)
      next
    }
    FILENAME == ARGV[2] { s[$1 SUBSEP $2 SUBSEP $3] = 1; s[$1 SUBSEP "*" SUBSEP $3] = 1; next }
    FILENAME == ARGV[3] {
      if ($2 == "seen") { ws[$1] = 1; next }
      keep("LTO" SUBSEP $1, $2); next
    }
    FILENAME == ARGV[4] { names[$4]++; next }
    {
      unit = $1; label = $2; name = $4
      pc = $5 ($6 ? "-mnr" : "")
      k = unit SUBSEP (label ~ /\.c$/ ? label : "*") SUBSEP name
      g = verdict(k)
      if (g == "") g = (k in s) ? "none" : "unseen"
      b = g
      if (haswhole && names[name] == 1) {
        w = verdict("LTO" SUBSEP name)
        if (w != "" && rank(w) > rank(b)) b = w
        else if (w == "" && !(name in ws) && (b == "none" || b == "unseen")) b = "inlined"
        else if (w == "" && b == "unseen") b = "none"
      }
      if ($7 != "none") g = b = "declared"
      m1[pc SUBSEP g]++; m2[pc SUBSEP b]++; total++
      if (haswhole) print label, $3, name, pc, g, b > list
      else print label, $3, name, pc, g > list
      if (verbose) printf "  %-40s %-24s purist %-11s GCC %s%s\n", label ":" $3, name, pc, g, haswhole ? " (whole program: " b ")" : ""
    }
    END {
      nr = split("const const-mnr pure pure-mnr normal normal-mnr", rows, " ")
      nc = split("const looping-const pure looping-pure declared none unseen", cols, " ")
      table("GCC dump verdicts (local-pure-const1/2, ipa pure-const, modref1/2, ipa modref), file by file, static functions included:", m1)
      if (haswhole) {
        nc = split("const looping-const pure looping-pure declared none inlined", cols, " ")
        table("GCC, the stronger of file by file and whole program (-flto link; inlined: inlined into every caller at link time, never judged alone):", m2)
      }
    }' "$T/found" "$T/seen" "$whole" "$T/purist.names" "$T/purist"
}

# gcc_whole OUT FLAGS... : links the LTO objects gcc_tu left (GCCLIB_LTO=1)
# into one relocatable object with the IPA and late dumps, and writes
# GCC's whole-program verdicts to OUT: NAME TAB VERDICT TAB 0, and
# NAME TAB "seen" TAB 0 for each function whose body survives to the late
# passes.
gcc_whole() {
  local out=$1 d=$T/whole
  shift
  mkdir -p "$d"
  # shellcheck disable=SC2086
  if ! "$GCC" -O2 "$@" -flto -flto-partition=one -r -nostdlib -flinker-output=nolto-rel \
        $GCC_DUMPS -dumpdir "$d/" -o "$d/all.o" "$T"/tu/*/lto.o >"$d/log" 2>&1; then
    fail "the LTO link failed:"
    sed 's/^/    | /' "$d/log" | head -n 20
  fi
  sed -n -E 's/.*Function found to be (looping )?(pure|const): ([A-Za-z_][A-Za-z0-9_.]*)\/[0-9]+.*/\1\2\t\3/p' "$d"/*ltrans*.* "$d"/*wpa*.* 2>/dev/null |
    awk -F'\t' -v OFS='\t' '
      {
        v = $1; sub(/ /, "-", v); name = $2
        sub(/\.lto_priv\.[0-9]+$/, "", name)     # a static renamed at link time
        if (index(name, ".")) next                # a clone (see gcc_tu_run)
        print name, v, 0
      }' >"$out"
  # Functions whose bodies reach the late passes: the others were inlined
  # into every caller at link time, so GCC never judged them on their own.
  sed -n -E 's/^;; Function ([A-Za-z_][A-Za-z0-9_]*)[ .].*/\1\tseen\t0/p' "$d"/*ltrans*local-pure-const2 | sort -u >>"$out"
}
