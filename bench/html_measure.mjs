// html_measure.mjs NODE_DIR REPORT — page timings for bench/html.sh: load,
// filter, sort, open a panel; the best of 3 runs each, in milliseconds.
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const [nodeDir, file] = process.argv.slice(2);
const { chromium } = createRequire(path.join(nodeDir, 'package.json'))('playwright-core');

const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: ['--no-sandbox'] });
const best = {};
const note = (k, ms) => { best[k] = Math.min(best[k] ?? Infinity, ms); };
for (let run = 0; run < 3; run++) {
  // bypassCSP: the timing harness evaluates its own code in the page; the report's CSP forbids eval.
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 }, bypassCSP: true });
  let t = Date.now();
  await page.goto(pathToFileURL(file).href);
  await page.waitForSelector('body[data-ready="yes"]', { timeout: 120000 });
  note('load (navigation to rendered overview and table)', Date.now() - t);
  const n = await page.evaluate(() => JSON.parse(document.getElementById('purist-data').textContent).functions.length);
  best.functions = n;
  await page.click('#tab-functions');
  const timed = async (label, act, done) => {
    const ms = await page.evaluate(async ([a, d]) => {
      const t0 = performance.now();
      new Function(a)();
      await new Promise(r => requestAnimationFrame(() => r()));
      if (!new Function(d)()) throw new Error('not done');
      return performance.now() - t0;
    }, [act, done]);
    note(label, ms);
  };
  await timed('filter "tu1_" (input to rendered rows)',
    "const f=document.getElementById('filter'); f.value='tu1_'; f.dispatchEvent(new Event('input'));",
    "return parseInt(document.getElementById('count').textContent) < " + n);
  await timed('clear the filter', "const f=document.getElementById('filter'); f.value=''; f.dispatchEvent(new Event('input'));",
    "return parseInt(document.getElementById('count').textContent) > 0");
  await timed('sort by callers', "document.querySelector('#thead button[data-col=\"6\"]').click();", 'return true');
  await timed('open a function panel', "location.hash='fn=" + Math.floor(n / 2) + "'; window.dispatchEvent(new HashChangeEvent('hashchange'));",
    "return document.querySelector('#panel h2') !== null");
  await timed('scroll to the middle of the table', "const v=document.getElementById('viewport'); v.scrollTop=v.scrollHeight/2; v.dispatchEvent(new Event('scroll'));",
    "return document.querySelectorAll('#rows .row').length > 0");
  await page.close();
}
await browser.close();
for (const [k, v] of Object.entries(best)) console.log(k + ': ' + (typeof v === 'number' && k !== 'functions' ? v.toFixed(0) + ' ms' : v));
