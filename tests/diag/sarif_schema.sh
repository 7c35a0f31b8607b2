#!/bin/sh
# sarif_schema.sh EMIT VALIDATOR NODE_DIR — writes purist's SARIF for the
# sample diagnostics (and for none) with EMIT, then validates both against
# the SARIF 2.1.0 schema from NODE_DIR/node_modules (validate_sarif.mjs).
set -eu
emit=$1
validator=$2
node_dir=$3
tmp=$(mktemp -d "${TMPDIR:-/tmp}/purist-sarif-XXXXXX")
trap 'rm -rf "$tmp"' EXIT
"$emit" "$tmp/full.sarif" "$tmp/empty.sarif"
node "$validator" "$node_dir" "$tmp/full.sarif" "$tmp/empty.sarif"
