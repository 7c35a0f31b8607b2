#!/usr/bin/env bash
# Every check purist can report has a page, docs/checks/CHECK.md, listed
# in docs/checks/README.md, and every SARIF rule's helpUri names its page
# (issue 20 item 4: GitHub code scanning links a rule's help there).
#
#   doc_pages.sh SRCDIR [BUILDDIR PURIST]
#
# With BUILDDIR and PURIST: `cmake --install` into a scratch DESTDIR puts
# the pages where the SARIF links of this build point (PURIST_DOCS_URL, a
# file: URL by default), and informationUri's README too.
#
# The checks are the names purist's sources emit: "misuse" and "cheat",
# and every string literal of the form KIND-… in src/checks and src/verify
# (misuse-void, verify-heap-write …). A new check without a page fails here.
set -u
src=$(realpath "$1")
docs=$src/docs/checks
fail=0
checks=$( { printf 'misuse\ncheat\n'
            grep -ohE '"(misuse|cheat|allowed|suggest|dead|redundant|loop-invariant|verify)-[a-z0-9-]+"' \
              "$src"/src/checks/*.[ch] "$src"/src/verify/*.[ch] | tr -d '"'; } | sort -u)
n=0
for c in $checks; do
    n=$((n + 1))
    if [ ! -s "$docs/$c.md" ]; then
        echo "check: docs/checks/$c.md: FAIL (no page for check '$c')"; fail=1; continue
    fi
    head -n 1 "$docs/$c.md" | grep -q "^# $c " || { echo "check: docs/checks/$c.md: FAIL (title is not '# $c …')"; fail=1; }
    grep -q "](${c}\.md)" "$docs/README.md" || { echo "check: docs/checks/README.md: FAIL (does not link $c.md)"; fail=1; }
done
echo "check: $n checks have a page and an index entry"
[ "$n" -ge 25 ] || { echo "check: FAIL (only $n checks found in the sources: the grep is broken)"; fail=1; }

# Every helpUri in the golden SARIF logs ends in checks/<rule id without purist->.md.
for f in "$src"/tests/checks/golden/*.sarif "$src"/tests/diag/golden/sarif.json; do
    [ -f "$f" ] || continue
    bad=$fail
    fail=0
    ids=$(grep -oE '"id": "purist-[a-z0-9-]+"' "$f" | grep -v not-analysed | sed 's/.*"purist-//; s/"$//' | sort -u)
    for id in $ids; do
        if ! grep -qE "\"helpUri\": \"[^\"]*/checks/$id\\.md\"" "$f"; then
            echo "check: $(basename "$f"): FAIL (rule purist-$id has no helpUri to checks/$id.md)"; fail=1
        elif [ ! -s "$docs/$id.md" ]; then
            echo "check: $(basename "$f"): FAIL (helpUri names checks/$id.md, which does not exist)"; fail=1
        fi
    done
    [ $fail -eq 0 ] && echo "check: $(basename "$f"): every rule's helpUri names an existing page"
    fail=$((fail | bad))
done

if [ $# -ge 3 ]; then
    build=$2
    purist=$3
    tmp=$(mktemp -d "${TMPDIR:-/tmp}/purist-docinst.XXXXXX")
    trap 'rm -rf "$tmp"' EXIT
    DESTDIR=$tmp/root cmake --install "$build" >"$tmp/install.log" 2>&1 || { echo "check: cmake --install: FAIL"; cat "$tmp/install.log"; exit 1; }
    printf 'int g;\nint get(void) __attribute__((const));\nint get(void) { return g; }\n' >"$tmp/a.c"
    (cd "$tmp" && "$purist" check --no-cache --format=sarif a.c) >"$tmp/a.sarif" 2>/dev/null
    uris=$(grep -oE '"(helpUri|informationUri)": "[^"]*"' "$tmp/a.sarif" | sed 's/.*: "//; s/"$//')
    [ -n "$uris" ] || { echo "check: FAIL (no helpUri in the SARIF of a misuse)"; fail=1; }
    for u in $uris; do
        case $u in
            file://*) f=$tmp/root${u#file://}
                      if [ -s "$f" ]; then echo "check: $u is installed"
                      else echo "check: $u: FAIL (not installed by cmake --install)"; fail=1; fi ;;
            *) echo "check: $u: not a file: URL (a published copy), not checked" ;;
        esac
    done
fi
exit $fail
