#!/usr/bin/env bash
# bench/header_comment.sh — what a comment line in a header costs (issue 32
# item 2): CPU seconds (user+sys) of `purist infer -j1` cold, warm, and
# after a comment line is added atop a header, each as a ratio of cold.
#
#   bench/header_comment.sh -p DIR [-H HEADER] [--purist BIN]
#
# DIR holds compile_commands.json. HEADER (relative to DIR) defaults to the
# header the project's #include lines name most often. The project is copied
# into a scratch directory (the database's directory rewritten), so the
# original is never edited; the cache is a fresh one there. Goal: the
# comment run <= 0.2x cold.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
purist=$root/build/purist
dir= header=
while [ $# -gt 0 ]; do
  case $1 in
    -p) dir=$(cd "$2" && pwd); shift 2 ;;
    -H) header=$2; shift 2 ;;
    --purist) purist=$(cd "$(dirname "$2")" && pwd)/$(basename "$2"); shift 2 ;;
    *) echo "usage: $0 -p DIR [-H HEADER] [--purist BIN]" >&2; exit 2 ;;
  esac
done
[ -n "$dir" ] && [ -f "$dir/compile_commands.json" ] || { echo "$0: -p DIR with a compile_commands.json" >&2; exit 2; }
work=$(mktemp -d "${TMPDIR:-/tmp}/purist-hc.XXXXXX")
trap 'rm -rf "$work"' EXIT
cp -r "$dir" "$work/p"
sed -i "s|$dir|$work/p|g" "$work/p/compile_commands.json"
cd "$work/p"
if [ -z "$header" ]; then
  # The header whose base name the most #include lines of the project name.
  header=$(grep -rhoE --include='*.[ch]' '^[[:space:]]*#[[:space:]]*include[[:space:]]*"[^"]+"' . |
           sed -E 's/.*"([^"]+)"/\1/' | xargs -n1 basename | sort | uniq -c | sort -rn |
           while read -r _ name; do f=$(find . -name "$name" -type f | head -n 1); [ -n "$f" ] && { echo "${f#./}"; break; }; done)
fi
[ -f "$header" ] || { echo "$0: no header $header in $dir" >&2; exit 2; }

# cpu ARGS...: user+sys CPU seconds of one purist run; its stats line to fd 3.
cpu() {
  /usr/bin/time -f '%U %S' -o "$work/time" "$purist" "$@" >/dev/null 2>"$work/err" || true
  grep '^purist: cache:' "$work/err" >&3 || true
  awk '{ printf "%.2f", $1 + $2 }' "$work/time"
}
exec 3>&2
args=(infer -p . -j1 --stats --cache-dir "$work/cache")
cold=$(cpu "${args[@]}")
warm=$(cpu "${args[@]}")
sed -i '1i /* A comment line added by bench/header_comment.sh. */' "$header"
edit=$(cpu "${args[@]}")
echo "header: $header"
awk -v c="$cold" -v w="$warm" -v e="$edit" 'BEGIN {
  printf "cold %.2f s   warm %.2f s (%.2fx)   comment %.2f s (%.2fx cold; goal <= 0.2x)\n", c, w, w / c, e, e / c }'
