// lib.mjs — what the HTML report tests share.
//
// The tests drive the purist binary to write a report, then open it in
// Debian's chromium through playwright-core (installed by npm ci into the
// build tree; no browser is ever downloaded). Each prints one "check:" line
// per thing it checks and exits non-zero at the first failure, saying what
// was expected and what happened.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

export const CHROMIUM = '/usr/bin/chromium';

// check(what, ok, detail): prints the check; throws with detail if !ok.
export function check(what, ok, detail = '') {
  console.log('check: ' + what);
  if (!ok) throw new Error('FAIL: ' + what + (detail ? '\n  ' + detail : ''));
}

// A scratch directory removed at exit.
export function scratch() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'purist-html-'));
  process.on('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

// Runs purist; returns {status, stdout, stderr}.
export function purist(bin, args, opts = {}) {
  const r = spawnSync(path.resolve(bin), args, { encoding: 'utf8', maxBuffer: 1 << 30, ...opts });
  if (r.error) throw r.error;
  if (/Sanitizer|runtime error:/.test(r.stderr)) throw new Error('FAIL: purist ' + args.join(' ') + ' reported:\n' + r.stderr);
  return r;
}

// Configures examples/ into dir (only compile_commands.json is needed).
export function configureExamples(src, dir) {
  const r = spawnSync('cmake', ['-S', path.join(src, 'examples'), '-B', dir], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error('cannot configure examples/: ' + r.stdout + r.stderr);
  return dir;
}

// The JSON data block of a report file, parsed as the page parses it.
export function reportData(file) {
  const html = fs.readFileSync(file, 'utf8');
  const m = /<script type="application\/json" id="purist-data">([\s\S]*?)<\/script>/.exec(html);
  if (!m) throw new Error('FAIL: no data block in ' + file);
  return JSON.parse(m[1]);
}

// Opens a report in headless chromium. Every request other than the
// report file itself is recorded and aborted; console errors, page errors
// and dialogs are recorded. Returns {browser, page, seen, close()}.
export async function openReport(nodeDir, file) {
  const require = createRequire(path.join(nodeDir, 'package.json'));
  const { chromium } = require('playwright-core');
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox'] });
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  const seen = { requests: [], errors: [], dialogs: [] };
  const url = pathToFileURL(file).href;
  await context.route('**/*', route => {
    const u = route.request().url();
    if (u === url) return route.continue();
    seen.requests.push(u);
    return route.abort();
  });
  const page = await context.newPage();
  page.on('request', r => { if (r.url() !== url) seen.requests.push(r.url()); });
  page.on('console', m => { if (m.type() === 'error' || m.type() === 'warning') seen.errors.push(m.type() + ': ' + m.text()); });
  page.on('pageerror', e => seen.errors.push('page error: ' + e.message));
  page.on('dialog', d => { seen.dialogs.push(d.type() + ': ' + d.message()); d.dismiss().catch(() => {}); });
  await page.goto(url);
  await page.waitForSelector('body[data-ready="yes"]', { timeout: 20000 });
  return { browser, page, seen, close: () => browser.close() };
}

// The checks every page must pass: nothing loaded, nothing logged, no dialog.
export function checkClean(seen, what) {
  check(what + ': no network request', seen.requests.length === 0, seen.requests.join('\n  '));
  check(what + ': no console error or page error', seen.errors.length === 0, seen.errors.join('\n  '));
  check(what + ': no dialog opened', seen.dialogs.length === 0, seen.dialogs.join('\n  '));
}

// Runs main, reporting a failure as exit status 1.
export function run(main) {
  main().then(() => process.exit(0), e => { console.error(e.message || e); process.exit(1); });
}
