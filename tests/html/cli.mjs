// cli.mjs PURIST SRCDIR — `purist report` on the command line, without a
// browser: usage and input errors (exit 2, with the file and the reason),
// --verify, atomic -o, and the same project giving the same page.
import fs from 'node:fs';
import path from 'node:path';
import { check, configureExamples, purist, reportData, run, scratch } from './lib.mjs';

const [bin, src] = process.argv.slice(2);

run(async () => {
  const tmp = scratch();
  const db = configureExamples(src, path.join(tmp, 'build'));
  const out = path.join(tmp, 'r.html');
  let r = purist(bin, ['report', '-p', db, '-o', out]);
  check('report without --html: usage error', r.status === 2 && r.stderr.includes('report needs --html') && !fs.existsSync(out), r.stderr);
  r = purist(bin, ['check', '--html', '-p', db]);
  check('--html on another command: usage error', r.status === 2 && r.stderr.includes('--html and --verify are for report'), r.stderr);
  r = purist(bin, ['report', '--html', '--max-size', '0', '-p', db]);
  check('--max-size 0: usage error', r.status === 2 && r.stderr.includes('--max-size'), r.stderr);

  const cases = [
    ['missing.json', null, 'missing.json: '],
    ['bad.json', '{"version":1,"diagnostics":[', 'bad.json:1:'],
    ['v2.json', '{"version":2,"diagnostics":[]}', 'unsupported "version"'],
    ['shape.json', '{"version":1,"functions":[]}', 'not a diagnostics report'],
    ['nocheck.json', '{"version":1,"diagnostics":[{"severity":"error","file":"a.c","message":"m"}]}', 'diagnostic 1 has no "check"'],
    ['sev.json', '{"version":1,"diagnostics":[{"check":"c","severity":"fatal","file":"a.c","message":"m"}]}', 'diagnostic 1 has no "severity"'],
  ];
  for (const [name, text, want] of cases) {
    const f = path.join(tmp, name);
    if (text !== null) fs.writeFileSync(f, text);
    r = purist(bin, ['report', '--html', '--verify', f, '-p', db, '-o', out]);
    check('--verify ' + name + ': input error naming the file', r.status === 2 && r.stderr.includes(want) &&
      r.stderr.includes(name) && !fs.existsSync(out), r.stderr);
  }

  const ver = path.join(tmp, 'verify.json');
  fs.writeFileSync(ver, JSON.stringify({ version: 1, diagnostics: [
    { check: 'verify-const', severity: 'warning', file: 'src/log.c', line: 20, column: 5, function: 'log_enabled',
      message: 'two calls returned different values' }] }));
  r = purist(bin, ['report', '--html', '--fail-on=never', '--verify', ver, '-p', db, '-o', out]);
  const d = reportData(out);
  const vf = d.findings.find(f => f.origin === 'verify');
  check('--verify: its findings are shown, attached to their function', r.status === 0 && d.verify.count === 1 && vf &&
    d.functions[vf.fn].name === 'log_enabled' && d.checks['verify-const'].warning === 1, r.stderr);
  check('--verify: with the source lines around them', vf.source && vf.source.lines.length === 5);

  const again = path.join(tmp, 'again.html');
  purist(bin, ['report', '--html', '--fail-on=never', '--verify', ver, '-p', db, '-o', again]);
  check('the same project gives the same page', fs.readFileSync(out, 'utf8') === fs.readFileSync(again, 'utf8'));
  const stdout = purist(bin, ['report', '--html', '--fail-on=never', '--verify', ver, '-p', db]).stdout;
  check('without -o the page goes to standard output', stdout === fs.readFileSync(out, 'utf8'));

  // Library functions are listed too: why one may not return is what is
  // known of it (found on redis: abort, exit said "unknown").
  const lib = path.join(tmp, 'lib');
  fs.mkdirSync(lib);
  fs.writeFileSync(path.join(lib, 'stop.c'), '#include <stdlib.h>\n_Noreturn void give_up(int why);\n' +
    'int checked(int v) { if (v < 0) abort(); if (v > 9) give_up(v); return v; }\n');
  r = purist(bin, ['report', '--html', 'stop.c', '-o', out], { cwd: lib });
  const mnr = Object.fromEntries(reportData(out).functions.map(f => [f.name, f.may_not_return_reason]));
  check('a library function that never returns: "does not return"',
    mnr.abort === 'does not return' && mnr.give_up === 'does not return', JSON.stringify(mnr));

  // The C23 class (issue 15): per function, its reason, and the totals.
  const c23dir = path.join(tmp, 'c23');
  fs.mkdirSync(c23dir);
  fs.writeFileSync(path.join(c23dir, 'c.c'), 'int level;\nint split(double x, int *e) { *e = (int)x; return x > 0; }\n' +
    'int get_level(void) [[unsequenced]];\nint get_level(void) { return level; }\n');
  r = purist(bin, ['report', '--html', '--fail-on=never', 'c.c', '-o', out, '--', '-std=c23'], { cwd: c23dir });
  const cd = reportData(out);
  const c23 = Object.fromEntries(cd.functions.filter(f => f.defined).map(f => [f.name, [f.c23, f.declared_c23]]));
  check('C23: each function carries its class and its declared C23 attribute',
    c23.split[0] === 'unsequenced' && c23.split[1] === 'none' && c23.get_level[0] === 'reproducible' &&
    c23.get_level[1] === 'unsequenced', JSON.stringify(c23));
  check('C23: with the reason', cd.functions.find(f => f.name === 'get_level').c23_reason.includes("reads global 'level'"));
  check('C23: totals and the misuse finding', cd.totals.c23_unsequenced === 1 && cd.totals.declared_c23_wrong === 1 &&
    cd.checks['misuse-c23'].error === 1, JSON.stringify(cd.totals));

  fs.writeFileSync(out, 'previous report');
  r = purist(bin, ['report', '--html', '-p', db, '-o', path.join(tmp, 'no', 'such', 'dir', 'r.html')]);
  check('an unwritable -o: input error naming it', r.status === 2 && r.stderr.includes('no/such/dir/r.html'), r.stderr);
  fs.chmodSync(tmp, 0o555);
  r = purist(bin, ['report', '--html', '-p', db, '-o', out]);
  fs.chmodSync(tmp, 0o755);
  if (process.getuid() !== 0)
    check('a failed write leaves the previous report', r.status === 2 && fs.readFileSync(out, 'utf8') === 'previous report', r.stderr);
  check('no temporary file is left behind', !fs.readdirSync(tmp).some(f => f.includes('.tmp.')), fs.readdirSync(tmp).join(' '));
});
