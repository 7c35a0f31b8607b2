#!/bin/sh
# npm_setup.sh SRC_DIR NODE_DIR — installs the SARIF schema test's npm
# packages (SRC_DIR/package.json, pinned by package-lock.json) into
# NODE_DIR with `npm ci`. Quick when NODE_DIR already holds an install from
# the same lock file. Needs only node, npm and the npm registry.
set -eu
src=$1
dst=$2
for tool in node npm; do
  command -v "$tool" >/dev/null 2>&1 || {
    echo "npm_setup: '$tool' not found; the SARIF schema test needs node and npm" >&2
    exit 1
  }
done
mkdir -p "$dst"
if [ -f "$dst/node_modules/.package-lock.json" ] && cmp -s "$src/package-lock.json" "$dst/package-lock.json"; then
  echo "npm_setup: $dst is up to date"
  exit 0
fi
cp "$src/package.json" "$src/package-lock.json" "$dst/"
cd "$dst"
# --ignore-scripts: nothing from the registry runs at install time.
npm ci --no-audit --no-fund --ignore-scripts
