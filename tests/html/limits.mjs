// limits.mjs NODE_DIR PURIST — the edges of the report: a project without
// functions gives a valid page that says so; a report over --max-size is
// summarised to fit, keeps the functions with findings, says so in a
// banner, and still counts every function in the overview.
import fs from 'node:fs';
import path from 'node:path';
import { check, checkClean, openReport, purist, reportData, run, scratch } from './lib.mjs';

const [nodeDir, bin] = process.argv.slice(2);

// A generated file of n functions: chains of const and pure helpers, a
// global they read and one writer, and one misused attribute.
function bigSource(n) {
  let s = 'static int level_of_detail;\nvoid bump_level(void) { level_of_detail++; }\n';
  s += 'int misdeclared(int x) __attribute__((const));\nint misdeclared(int x) { return x + level_of_detail; }\n';
  for (let i = 0; i < n; i++) {
    const prev = i ? `generated_function_number_${i - 1}(x)` : 'x';
    const body = i % 3 === 0 ? `${prev} + level_of_detail` : i % 3 === 1 ? `${prev} * 2` : `${prev} - 1`;
    s += `int generated_function_number_${i}(int x) { return ${body}; }\n`;
  }
  return s;
}

run(async () => {
  const tmp = scratch();

  const empty = path.join(tmp, 'empty');
  fs.mkdirSync(empty);
  fs.writeFileSync(path.join(empty, 'nothing.c'), '/* no functions here */\nint a_variable;\n');
  const eout = path.join(tmp, 'empty.html');
  let r = purist(bin, ['report', '--html', 'nothing.c', '-o', eout], { cwd: empty });
  check('an empty project: exit 0', r.status === 0, r.stderr);
  check('an empty project: zero functions', reportData(eout).totals.functions === 0);
  let b = await openReport(nodeDir, eout);
  try {
    check('an empty project: the page says so', (await b.page.textContent('#empty')).includes('No functions'));
    await b.page.click('#tab-functions');
    check('an empty project: the table says so', (await b.page.textContent('#rows')).includes('the project is empty'));
    await b.page.click('#tab-findings');
    check('an empty project: no findings', (await b.page.textContent('#findings')).includes('No findings'));
    checkClean(b.seen, 'empty report');
  } finally {
    await b.close();
  }

  const big = path.join(tmp, 'big');
  fs.mkdirSync(big);
  fs.writeFileSync(path.join(big, 'big.c'), bigSource(6000));
  const full = path.join(tmp, 'full.html'), small = path.join(tmp, 'small.html');
  r = purist(bin, ['report', '--html', 'big.c', '-o', full], { cwd: big });
  check('a large project: full report', r.status === 1 && reportData(full).summary.level === 0, r.stderr);
  r = purist(bin, ['report', '--html', '--max-size', '1', 'big.c', '-o', small], { cwd: big });
  const size = fs.statSync(small).size, d = reportData(small);
  check('over --max-size 1: the page fits in 1 MiB', size <= 1 << 20 && fs.statSync(full).size > 1 << 20,
    size + ' bytes, full ' + fs.statSync(full).size);
  check('over --max-size: summarised to the top functions', d.summary.level === 2 &&
    d.summary.functions_shown < d.totals.functions && d.totals.functions === 6002, JSON.stringify(d.summary));
  check('over --max-size: the function with an error is kept', d.functions.some(f => f.name === 'misdeclared' && f.findings.length));
  check('over --max-size: every function is counted', d.totals.const + d.totals.pure + d.totals.normal === 6002);
  b = await openReport(nodeDir, small);
  try {
    const banner = await b.page.textContent('#banner');
    check('over --max-size: the banner says what was left out',
      await b.page.isVisible('#banner') && banner.includes('of 6002 functions'), banner);
    checkClean(b.seen, 'summarised report');
  } finally {
    await b.close();
  }
});
