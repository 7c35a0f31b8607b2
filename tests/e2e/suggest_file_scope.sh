#!/usr/bin/env bash
# `suggest -p DIR FILE` reports on FILE's functions: a suggestion for a
# function FILE defines goes to the prototype in its header, and is still
# FILE's (found on htop: `suggest -p . Panel.c` printed nothing for
# Panel_getSelectedIndex, whose warning is at Panel.h). The count of
# suggestions left out for gaining nothing covers FILE only, not the
# project (it said 79 for Panel.c, the project's count). Text output ends
# with those counts on stdout, as explain's "N notes generated.", so a run
# with nothing worth suggesting still says what it found (issue 35 item 2);
# JSON and SARIF stay pure JSON, the count on stderr.
set -euo pipefail
. "$(dirname "$0")/lib.sh" "$@"

mkdir -p "$T/p" && cd "$T/p"
cat >panel.h <<'C'
struct panel { int selected; };
int panel_selected(const struct panel *p);
C
cat >panel.c <<'C'
#include "panel.h"
int panel_selected(const struct panel *p) { return p->selected; }
static int twice(int v) { return 2 * v; }
int panel_step(int v) { return twice(v) + 1; }
C
cat >screen.c <<'C'
#include "panel.h"
static int thrice(int v) { return 3 * v; }
static int half(int v) { return v / 2; }
int screen_move(const struct panel *p, int d)
{
  int a = panel_selected(p) + d;
  int b = panel_selected(p) - d;
  return thrice(a * b) + half(a);
}
int main(void) { struct panel p = { 1 }; return screen_move(&p, 2); }
C
printf '[{"directory":"%s","file":"panel.c","arguments":["cc","-c","panel.c"]},{"directory":"%s","file":"screen.c","arguments":["cc","-c","screen.c"]}]\n' "$PWD" "$PWD" >compile_commands.json

check "suggest -p . panel.c: the warning at panel.h for panel.c's function"
run suggest -p . panel.c
expect_rc 0
grep -q "^panel.h:2:5: warning: 'panel_selected' can be declared pure" "$T/out" ||
  fail "expected the suggestion at panel.h${NL}$(context)"

check "the count of suggestions without gain is panel.c's (twice, panel_step), not the project's"
[ "$(tail -n 1 "$T/out")" = "1 suggestion with a gain; 2 without (no call in another file that the attribute would let the compiler delete, merge or hoist): --all shows them" ] ||
  fail "expected the last line of stdout to count 1 with a gain, 2 without (panel.c's)${NL}$(context)"
grep -q "without gain" "$T/err" && fail "the count is said twice (stdout and stderr)${NL}$(context)"

check "suggest -p . screen.c: not panel.c's function; its own three left out"
run suggest -p . screen.c
expect_rc 0
grep -q "panel_selected" "$T/out" && fail "panel_selected is panel.c's${NL}$(context)"
[ "$(cat "$T/out")" = "0 suggestions with a gain; 3 without (no call in another file that the attribute would let the compiler delete, merge or hoist): --all shows them" ] ||
  fail "expected only the summary line, 3 without gain (thrice, half, screen_move)${NL}$(context)"

check "--format=json: stdout is JSON only, the count on stderr"
run suggest -p . screen.c --format=json
expect_rc 0
grep -q "suggestions with a gain" "$T/out" && fail "a summary line in JSON${NL}$(context)"
grep -q "^purist: 3 more suggestions without gain" "$T/err" ||
  fail "expected 3 more suggestions on stderr${NL}$(context)"

check "screen_move has no prototype: the attribute goes to its definition, and the message says so"
run suggest --all -p . screen.c
expect_rc 0
grep -q "^screen.c:4:5: note: 'screen_move' can be declared pure.*add __attribute__((pure)) to the definition" "$T/out" ||
  fail "expected 'to the definition' for screen_move${NL}$(context)"
tail -n 1 "$T/out" | grep -q "^0 suggestions with a gain; 3 without .*: shown as notes$" ||
  fail "expected --all's summary: 3 shown as notes${NL}$(context)"

check "the whole project: all five left out, one warning"
run suggest -p .
expect_rc 0
[ "$(grep -c 'warning:.*suggest' "$T/out")" -eq 1 ] || fail "expected one warning${NL}$(context)"
tail -n 1 "$T/out" | grep -q "^1 suggestion with a gain; 5 without " || fail "expected 5 without${NL}$(context)"

check "--quiet: the summary is stdout's, still there"
run suggest -p . screen.c --quiet
expect_rc 0
grep -q "^0 suggestions with a gain; 3 without" "$T/out" || fail "no summary under --quiet${NL}$(context)"

check "nothing at all to suggest: one line saying so"
cat >screen.c <<'C'
int counter;
int screen_tick(void) { return ++counter; }
int main(void) { return screen_tick(); }
C
run suggest -p . screen.c
expect_rc 0
[ "$(cat "$T/out")" = "0 suggestions with a gain; none without" ] || fail "expected '0 suggestions with a gain; none without'${NL}$(context)"
echo "ok"
