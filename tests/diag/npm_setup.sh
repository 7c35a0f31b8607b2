#!/bin/sh
# npm_setup.sh SRC_DIR NODE_DIR — installs the npm packages of the SARIF
# schema test or of the HTML browser tests (SRC_DIR/package.json, pinned by
# package-lock.json) into NODE_DIR with `npm ci`. Quick when NODE_DIR
# already holds an install from the same lock file. Needs only node, npm
# (scripts/deps.sh --test) and the npm registry.
set -eu
src=$1
dst=$2
for tool in node npm; do
  command -v "$tool" >/dev/null 2>&1 || {
    echo "npm_setup: '$tool' not found; these tests need node and npm (scripts/deps.sh --test)" >&2
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
# --engine-strict: a pinned package that wants a newer node than this one
# (Debian 12's is 18) fails here, by name, not later inside a test.
if ! npm ci --no-audit --no-fund --ignore-scripts --engine-strict; then
  echo "npm_setup: npm ci failed in $dst (no access to the npm registry, or node $(node --version) is too old for a pinned package): the tests that need these packages fail; they are never skipped" >&2
  exit 1
fi
