#!/usr/bin/env bash
# Mutation test of `purist check` on the example project.
#
#   mutation.sh PURIST SRCDIR
#
# examples/ is copied to a scratch directory and configured once.  For each
# function `purist infer` lists:
#   - inferred normal (and not returning void): a scratch copy of its file
#     gets __attribute__((const)) right before the function's name in its
#     definition, and `purist check` must report a misuse (misuse,
#     misuse-*) or a cheat for that function; then the same with
#     __attribute__((pure));
#   - inferred const (pure), declared nothing or just that: adding const
#     (pure) must give no diagnostic at all for it (but misuse-noreturn when
#     it may not return).
# Only the edited file changes between runs; it is restored after each.
# Prints the detection figure and fails unless every wrong attribute is
# flagged and every correct one is silent.
set -u
purist=$(realpath "$1")
src=$(realpath "$2")
tmp=$(mktemp -d "${TMPDIR:-/tmp}/purist-mutation.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

cp -r "$src/examples" "$tmp/ex"
rm -rf "$tmp/ex"/build "$tmp/ex"/build-*
if ! cmake -S "$tmp/ex" -B "$tmp/build" >"$tmp/cmake.log" 2>&1; then
    echo "mutation: cannot configure the examples:"; cat "$tmp/cmake.log"; exit 2
fi
cd "$tmp/ex" || exit 2

# The JSON reports put one function (one diagnostic) on a line.
field() {   # field KEY LINE: the value of "KEY": "…" or "KEY": N in LINE
    local re="\"$1\": (\"([^\"]*)\"|([0-9]+|true|false))"
    [[ $2 =~ $re ]] && echo "${BASH_REMATCH[2]}${BASH_REMATCH[3]}"
}

"$purist" infer -p "$tmp/build" --format=json >"$tmp/infer.json" 2>"$tmp/infer.err"
rc=$?
if [ $rc -ne 0 ]; then echo "mutation: purist infer exited $rc:"; cat "$tmp/infer.err"; exit 2; fi

# Does the declaration whose name starts at FILE:LINE:COL return void?
# The text before the name, back to the end of the previous declaration
# (a ';', '}', '{', a comment's end or a preprocessor line), must end in
# the word `void` (so `void *f` is not void).
returns_void() {
    local file=$1 line=$2 col=$3 text="" l n=0
    l=$(sed -n "${line}p" "$file")
    text=${l:0:$((col - 1))}
    while [[ ! $text =~ [\;\{\}]|\*/ ]] && [ $((line - n)) -gt 1 ] && [ $n -lt 5 ]; do
        n=$((n + 1))
        l=$(sed -n "$((line - n))p" "$file")
        [[ $l =~ ^[[:space:]]*# ]] && break
        text="$l $text"
    done
    text=${text##*[;\{\}]}
    text=${text##*\*/}
    [[ $text =~ (^|[^A-Za-z0-9_])void[[:space:]]*$ ]]
}

# mutate ATTR FILE LINE COL NAME [verify]: prints the check report for
# the project with __attribute__((ATTR)) inserted before NAME at
# FILE:LINE:COL.  With "verify", also makes sure purist saw the attribute
# (infer lists NAME as declared ATTR), so that silence is not the silence
# of an edit that missed; a miss prints a report line for NAME.
mutate() {
    local attr=$1 file=$2 line=$3 col=$4 name=$5
    cp "$file" "$tmp/pristine"
    awk -v L="$line" -v C="$col" -v A="__attribute__(($attr)) " \
        'NR == L { $0 = substr($0, 1, C - 1) A substr($0, C) } { print }' "$tmp/pristine" >"$file"
    "$purist" check -p "$tmp/build" --format=json 2>"$tmp/check.err"
    local rc=$?
    [ $rc -ge 2 ] && { echo "mutation: purist check exited $rc on $attr $name:" >&2; cat "$tmp/check.err" >&2; }
    if [ "${6:-}" = verify ]; then
        local rec
        rec=$("$purist" infer -p "$tmp/build" --format=json 2>/dev/null | grep -F "\"name\": \"$name\"")
        [ "$(field declared "$rec")" = "$attr" ] ||
            echo "{\"function\": \"$name\", \"message\": \"the inserted $attr was not seen: $rec\"}"
    fi
    cp "$tmp/pristine" "$file"
}

# The report lines that are diagnostics for function NAME.
diags_for() { grep -F "\"function\": \"$1\"" || true; }

impure_total=0 const_hits=0 pure_hits=0 correct_total=0 correct_silent=0 fail=0
while IFS= read -r rec; do
    name=$(field name "$rec") || continue
    file=$(field file "$rec"); line=$(field line "$rec"); col=$(field column "$rec")
    cls=$(field class "$rec"); declared=$(field declared "$rec")
    if [ -z "$col" ]; then echo "mutation: no column for $name"; exit 2; fi
    if returns_void "$file" "$line" "$col"; then
        echo "skip: $name ($file:$line) returns void"
        continue
    fi
    case $cls in
    normal)
        impure_total=$((impure_total + 1))
        for attr in const pure; do
            found=$(mutate "$attr" "$file" "$line" "$col" "$name" | diags_for "$name" |
                    grep -E '"check": "(misuse(-[a-z-]+)?|cheat)"')
            if [ -n "$found" ]; then
                echo "check: $attr on normal $name ($file:$line): flagged ($(field check "$found"))"
                if [ $attr = const ]; then const_hits=$((const_hits + 1)); else pure_hits=$((pure_hits + 1)); fi
            else
                echo "check: $attr on normal $name ($file:$line): FAIL (no misuse or cheat reported)"
                fail=1
            fi
        done
        ;;
    const|pure)
        # Already declared something else (a misuse or an upgrade): adding
        # the right attribute would make two declarations disagree.
        if [ "$declared" != none ] && [ "$declared" != "$cls" ]; then
            echo "skip: $name ($file:$line) is declared $declared, inferred $cls"
            continue
        fi
        correct_total=$((correct_total + 1))
        found=$(mutate "$cls" "$file" "$line" "$col" "$name" verify | diags_for "$name")
        # A function that may not return (a path ends in die/abort) gets
        # only the misuse-noreturn warning (issue 14): the attribute lets the
        # compiler delete a discarded call with its check.
        if [ "$(field may_not_return "$rec")" = true ]; then
            found=$(printf '%s\n' "$found" | grep -v '"check": "misuse-noreturn"' || true)
        fi
        if [ -z "$found" ]; then
            echo "check: $cls on $cls $name ($file:$line): silent"
            correct_silent=$((correct_silent + 1))
        else
            echo "check: $cls on $cls $name ($file:$line): FAIL (reported: $found)"
            fail=1
        fi
        ;;
    esac
done < <(grep '"name": ' "$tmp/infer.json")

echo "mutation: $const_hits/$impure_total impure functions flagged as const," \
     "$pure_hits/$impure_total as pure, $correct_silent/$correct_total correct attributes silent"
[ $impure_total -gt 0 ] && [ $correct_total -gt 0 ] || { echo "mutation: nothing to mutate?"; fail=1; }
exit $fail
