#!/usr/bin/env bash
# The README's first command: install what is missing, build purist, build
# the example project's compile database, and run purist on it.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build -j"$(nproc)" >/dev/null
cmake -S examples -B examples/build -DCMAKE_EXPORT_COMPILE_COMMANDS=ON >/dev/null
echo "== purist infer -p examples/build" >&2
build/purist infer -p examples/build
echo "== purist infer --why total -p examples/build" >&2
build/purist infer --why total -p examples/build
# check exits 1 when it finds a misuse: the example project has two on purpose.
echo "== purist check -p examples/build" >&2
build/purist check -p examples/build || true
echo "== purist suggest -p examples/build" >&2
build/purist suggest -p examples/build
echo "== purist explain -p examples/build" >&2
build/purist explain -p examples/build
echo "== purist fix --dry-run -p examples/build   (the edits fix would make, as a diff)" >&2
build/purist fix --dry-run -p examples/build
echo "== purist impact -p examples/build   (gcc, before and after the attributes)" >&2
build/purist impact -p examples/build
echo "== purist report --html -o examples/build/purist.html -p examples/build" >&2
build/purist report --html -o examples/build/purist.html -p examples/build || true
echo "report written: examples/build/purist.html (open it in a browser)" >&2
