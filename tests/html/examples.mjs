// examples.mjs NODE_DIR PURIST SRCDIR — the report of examples/ in a real
// browser: it loads clean, the filter narrows the table, a click opens a
// function's panel with its chain, a chain link selects the callee, the
// graph is dot's (and a tree without dot). Screenshots of the overview and
// of a panel go to the build tree, and to SRCDIR/docs/ with
// PURIST_UPDATE_SCREENSHOTS=1.
import fs from 'node:fs';
import path from 'node:path';
import { check, checkClean, configureExamples, openReport, purist, reportData, run, scratch } from './lib.mjs';

const [nodeDir, bin, src] = process.argv.slice(2);

// How many rows the table has after filtering (only those in view exist).
async function rowCount(page) {
  return parseInt(await page.textContent('#count'), 10);
}

async function rowsShown(page) {
  return page.$$eval('#rows .row', rs => rs.map(r => r.firstChild.textContent));
}

run(async () => {
  const tmp = scratch();
  const db = configureExamples(src, path.join(tmp, 'build'));
  const file = path.join(tmp, 'report.html');
  const r = purist(bin, ['report', '--html', '-p', db, '-o', file]);
  check('report of examples/ exits 1 (it has misuse errors)', r.status === 1, 'status ' + r.status + '\n' + r.stderr);
  const data = reportData(file);
  check('the page carries every defined function', data.totals.functions === 50 && data.summary.level === 0,
    JSON.stringify(data.summary));
  check('graphs were laid out by dot', data.summary.graphs === 'dot' && Object.keys(data.graphs).length > 0, data.summary.graphs);

  const { page, seen, close } = await openReport(nodeDir, file);
  try {
    check('overview counts const/pure/normal', (await page.textContent('#overview')).includes('const') &&
      await page.$$eval('.card .num', ns => ns.map(n => n.textContent).slice(0, 4).join(' ')) === '50 16 15 19');
    check('overview lists findings per check', await page.$$eval('#checks tr', rs => rs.length) > 3);
    /* Only the three that gain (calls in other files), most first (issue 19). */
    const top = await page.$$eval('#suggestions li', ls => ls.map(l => l.textContent));
    check('overview shows the top suggestions, by gain', top.length === 3 && top[0].startsWith('table_unit_name'),
      JSON.stringify(top));
    check('the page carries each suggestion\'s gain', data.findings.some(d => d.gain === 2 && d.public_api === false) &&
      data.findings.filter(d => d.origin === 'suggest').every(d => typeof d.gain === 'number'));
    check('overview draws a bar per directory', await page.$$eval('svg.chart rect', rs => rs.length) === 6);
    fs.mkdirSync(path.join(tmp, 'shots'), { recursive: true });
    await page.screenshot({ path: path.join(tmp, 'shots', 'report-overview.png'), fullPage: true });

    // "may not return" counts only where it matters, and says why (issue 35 item 4).
    const mnrCard = await page.$$eval('.card', cs => cs.map(c => c.textContent).find(t => t.includes('may not return')));
    const mnrWant = data.functions.filter(f => f.defined && f.may_not_return && f.class !== 'normal').length;
    check('the may-not-return card counts the functions otherwise const or pure',
      data.totals.may_not_return_const_pure === mnrWant && mnrCard === mnrWant + 'const or pure, but may not return' &&
      data.totals.may_not_return >= mnrWant, mnrCard + ' / ' + JSON.stringify(data.totals));
    check('the overview says what may-not-return means', (await page.textContent('#mnr-note')).includes('otherwise const or pure'));

    await page.click('#tab-functions');
    check('the table lists the defined functions', await rowCount(page) === 50, await page.textContent('#count'));
    // At 1,400 px the columns do not fit beside the panel: the table scrolls
    // sideways and the header follows, the last column reachable.
    const wide = await page.evaluate(() => {
      const vp = document.getElementById('viewport'), head = document.getElementById('thead');
      const box = document.getElementById('table').getBoundingClientRect();
      const before = head.lastChild.getBoundingClientRect().right > box.right;
      vp.scrollLeft = vp.scrollWidth;
      vp.dispatchEvent(new Event('scroll'));
      const last = head.lastChild.getBoundingClientRect(), cell = document.querySelector('#rows .row').lastChild.getBoundingClientRect();
      return { scrolls: vp.scrollWidth > vp.clientWidth, before, after: last.right <= box.right + 1,
               aligned: Math.abs(last.left - cell.left) < 2 };
    });
    check('a narrow table scrolls sideways to its last column, the header in step with the rows',
      wide.scrolls && wide.before && wide.after && wide.aligned, JSON.stringify(wide));
    await page.evaluate(() => { const vp = document.getElementById('viewport'); vp.scrollLeft = 0; vp.dispatchEvent(new Event('scroll')); });
    check('only the rows in view exist (virtualised)', (await rowsShown(page)).length < 50);
    await page.fill('#filter', 'log_');
    const some = await rowsShown(page);
    check('the filter narrows the table', some.length > 0 && some.length === await rowCount(page) && some.every(n => n.includes('log_')),
      some.join(', '));
    await page.selectOption('#class-filter', 'pure');
    const pure = await rowsShown(page);
    check('the class filter narrows it further', pure.length > 0 && pure.length < some.length, pure.join(', '));
    await page.selectOption('#class-filter', '');
    await page.fill('#filter', '');
    await page.selectOption('#check-filter', 'misuse');
    const mis = (await rowsShown(page)).sort().join(' ');
    check('the check filter keeps the functions with that finding', mis === 'config_find log_enabled', mis);
    await page.selectOption('#check-filter', '');

    await page.click('#thead button[data-col="6"]');
    await page.click('#thead button[data-col="6"]');
    const byCallers = await page.$$eval('#rows .row', rs => rs.map(r => Number(r.children[6].textContent)));
    check('sorting by callers, descending', byCallers.every((v, k) => k === 0 || byCallers[k - 1] >= v), byCallers.join(' '));

    await page.fill('#filter', 'total');
    await page.click('#rows .row:has-text("total")');
    await page.waitForSelector('#panel h2');
    check('clicking a function opens its panel', await page.textContent('#panel h2') === 'total');
    const chain = await page.$$eval('#chain li a', as => as.map(a => a.textContent));
    check('the panel shows the chain of first causes', chain.length >= 2 && chain[0] === 'total' && chain[1] === 'log_msg',
      chain.join(' -> '));
    check('the panel shows the reason', (await page.textContent('#reason')).includes('log_msg'));
    check('the panel draws dot\'s graph', await page.$$eval('#panel svg.graph g', gs => gs.length) >= 2);
    await page.click('#chain li:nth-child(2) a');
    await page.waitForFunction(() => document.querySelector('#panel h2').textContent === 'log_msg');
    check('following a chain link selects the callee', true);
    check('the callee is the selected row', await page.textContent('#rows .row.selected span') === 'log_msg');

    await page.goto(page.url().replace(/#.*/, '') + '#findings');
    check('findings are grouped by check', await page.$$eval('#findings .group h2', hs => hs.length) === Object.keys(data.checks).length);
    await page.click('#group-misuse .finding a');
    await page.waitForFunction(() => !document.getElementById('functions').hidden);
    check('a finding links to its function', ['config_find', 'log_enabled'].includes(await page.textContent('#panel h2')));
    check('the finding shows its source lines', await page.$$eval('#panel pre.src .hit', hs => hs.length) > 0);
    await page.screenshot({ path: path.join(tmp, 'shots', 'report-function.png') });
    checkClean(seen, 'examples report');
  } finally {
    await close();
  }

  // A link names a function by its name as well as by its position.
  const byName = await openReport(nodeDir, file);
  try {
    await byName.page.goto(byName.page.url() + '#fn=log_msg');
    await byName.page.waitForFunction(() => !document.getElementById('functions').hidden &&
      document.querySelector('#panel h2') && document.querySelector('#panel h2').textContent === 'log_msg');
    check('#fn=NAME selects the function of that name', true);
    await byName.page.goto(byName.page.url().replace(/#.*/, '') + '#fn=no_such_function');
    await byName.page.waitForFunction(() => !document.getElementById('overview').hidden);
    check('#fn= naming no function shows the overview', true);
    checkClean(byName.seen, 'links by name');
  } finally {
    await byName.close();
  }

  // Without dot, the panel draws the chain as an indented tree.
  const nodot = path.join(tmp, 'nodot.html');
  purist(bin, ['report', '--html', '-p', db, '-o', nodot], { env: { ...process.env, PURIST_DOT: '' } });
  check('without dot the page has no graphs', reportData(nodot).summary.graphs === 'no dot');
  const second = await openReport(nodeDir, nodot + '');
  try {
    const fn = reportData(nodot).functions.findIndex(f => f.name === 'total');
    await second.page.goto(second.page.url() + '#fn=' + fn);
    await second.page.waitForSelector('#panel ul.tree');
    check('without dot the panel shows the tree', (await second.page.textContent('#panel ul.tree')).includes('log_msg'));
    checkClean(second.seen, 'report without dot');
  } finally {
    await second.close();
  }

  // Files not analysed, and why (issue 35 item 1): a configure probe that
  // does not compile is left out, not parsed, and the overview says so.
  const probeDb = path.join(tmp, 'probe');
  fs.mkdirSync(probeDb);
  fs.writeFileSync(path.join(probeDb, 'conftest.c'), '#include <no_such_header_for_probe.h>\n');
  const entries = JSON.parse(fs.readFileSync(path.join(db, 'compile_commands.json'), 'utf8'));
  entries.unshift({ directory: probeDb, file: path.join(probeDb, 'conftest.c'), arguments: ['cc', '-c', 'conftest.c'] });
  fs.writeFileSync(path.join(probeDb, 'compile_commands.json'), JSON.stringify(entries));
  const probed = path.join(tmp, 'probe.html');
  const pr = purist(bin, ['report', '--html', '--fail-on=never', '-p', probeDb, '-o', probed]);
  check('a broken probe in the database: the report is written, exit 0', pr.status === 0 &&
    pr.stderr.includes('left out of the analysis') && reportData(probed).totals.functions === 50, pr.stderr);
  const third = await openReport(nodeDir, probed);
  try {
    const rows = await third.page.$$eval('#not-analysed tr', rs => rs.map(r => r.textContent));
    check('the overview lists the files not analysed and why', rows.length === 2 && rows[1].includes('conftest.c') &&
      rows[1].includes('skipped') && rows[1].includes('a configure probe'), JSON.stringify(rows));
    checkClean(third.seen, 'report with a probe');
  } finally {
    await third.close();
  }
  check('a complete run lists nothing as not analysed', reportData(file).not_analysed.length === 0);

  for (const shot of ['report-overview.png', 'report-function.png']) {
    const size = fs.statSync(path.join(tmp, 'shots', shot)).size;
    check(shot + ' was taken', size > 10000, size + ' bytes');
    if (process.env.PURIST_UPDATE_SCREENSHOTS === '1') fs.copyFileSync(path.join(tmp, 'shots', shot), path.join(src, 'docs', shot));
  }
});
