// scale.mjs NODE_DIR PURIST — a report with thousands of findings stays
// responsive: showing the findings tab again does not lay out every
// finding (those off screen are skipped by the browser), so it takes a
// fraction of a second, not the seconds it took before (found on curl).
import fs from 'node:fs';
import path from 'node:path';
import { check, checkClean, openReport, purist, reportData, run, scratch } from './lib.mjs';

const [nodeDir, bin] = process.argv.slice(2);
const N = 3000;

// N functions, each calling a visible const helper twice: a redundant-call
// note each, and a suggest-const warning each.
function source() {
  let s = 'static int square_of(int x) { return x * x; }\n';
  for (let i = 0; i < N; i++) s += `int twice_squared_${i}(int x) { return square_of(x) + square_of(x); }\n`;
  return s;
}

// Clicks sel in the page; ms until the next frame after it was drawn.
async function clickToFrame(page, sel) {
  return page.evaluate(async sel => {
    const t0 = performance.now();
    document.querySelector(sel).click();
    await new Promise(r => requestAnimationFrame(() => setTimeout(r, 0)));
    return performance.now() - t0;
  }, sel);
}

run(async () => {
  const tmp = scratch();
  fs.writeFileSync(path.join(tmp, 'many.c'), source());
  const file = path.join(tmp, 'many.html');
  const r = purist(bin, ['report', '--html', 'many.c', '-o', file], { cwd: tmp });
  check('report of ' + N + ' functions: exit 0', r.status === 0, r.stderr);
  const data = reportData(file);
  check('every finding is on the page', data.findings.length === 2 * N + 1 && data.summary.level === 0,
    data.findings.length + ' findings, level ' + data.summary.level);
  const { page, seen, close } = await openReport(nodeDir, file);
  try {
    await clickToFrame(page, '#tab-findings');
    await clickToFrame(page, '#tab-functions');
    const ms = await clickToFrame(page, '#tab-findings');
    console.log('findings tab shown again in ' + ms.toFixed(0) + ' ms');
    // Chromium decides which content-visibility:auto subtrees to skip in a
    // rendering step of its own; on a loaded machine that step may come a
    // few frames after the tab is shown, so ask again for up to 5 s.
    const skipped = await page.evaluate(async () => {
      const all = document.querySelectorAll('#findings .finding pre.src');
      if (all.length <= 100) return false;
      for (let t0 = performance.now(); performance.now() - t0 < 5000;) {
        if (!all[all.length - 1].checkVisibility({ contentVisibilityAuto: true })) return true;
        await new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));
      }
      return false;
    });
    check('findings off screen are not laid out', skipped);
    check('showing the findings tab takes under 3 s (it took 12 s)', ms < 3000, ms.toFixed(0) + ' ms');
    const last = await page.evaluate(async () => {
      const f = document.querySelectorAll('#findings .finding pre.src');
      f[f.length - 1].closest('.finding').scrollIntoView();
      await new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));
      return f[f.length - 1].checkVisibility({ contentVisibilityAuto: true }) && f[f.length - 1].getBoundingClientRect().height > 0;
    });
    check('a finding scrolled to is drawn with its source lines', last);
    // The helper has N callers; a panel lists 500 and says why not the
    // rest (found on redis: abort's 551 callers said "51 more callers not
    // in this report", but they all were).
    const sq = data.functions.findIndex(f => f.name === 'square_of');
    await page.goto(page.url().replace(/#.*/, '') + '#fn=' + sq);
    await page.waitForFunction(() => document.querySelector('#panel h2')?.textContent === 'square_of');
    const listed = await page.$$eval('#panel ul.links li', ls => ls.length);
    const more = await page.$$eval('#panel p.muted', ps => ps.map(p => p.textContent).join(' | '));
    check('a function with ' + N + ' callers lists 500 of them and says why not the rest', listed === 500 &&
      more.includes((N - 500) + ' more callers not listed: a panel lists at most 500'), listed + ' listed; ' + more);
    checkClean(seen, 'report with many findings');
  } finally {
    await close();
  }
});
