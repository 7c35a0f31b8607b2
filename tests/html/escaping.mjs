// escaping.mjs NODE_DIR PURIST — a project whose directory and file names,
// comments, string literals, macro bodies and (through a verify report)
// function names, check names and messages hold markup:
// <script>alert(1)</script>, "><img src=x onerror=…>, </style>, U+2028.
// Everything renders as text: no dialog, no injected element, no console
// error (a blocked script would log a Content-Security-Policy error).
import fs from 'node:fs';
import path from 'node:path';
import { check, checkClean, openReport, purist, reportData, run, scratch } from './lib.mjs';

const [nodeDir, bin] = process.argv.slice(2);

const SCRIPT = '<script>alert(1)</script>';
const IMG = '"><img src=x onerror=alert(2)>';
const source = `/* ${SCRIPT} ${IMG} </style> */
#define EVIL_MARKUP "<script>alert(3)</script></style>"
static int counter;
int evil_lookup(const char *k) __attribute__((const));
int evil_lookup(const char *k) { // ${IMG}
  return counter + (k[0] == '<');
}
const char *evil_string(void) { return EVIL_MARKUP "\\u2028</script><img src=x onerror=alert(4)>"; }
int evil_caller(void) { return evil_lookup("</style><img src=x onerror=alert(5)>"); }
void evil_bump(void) { counter++; }
`;

run(async () => {
  const tmp = scratch();
  // Directories "<script>alert(1)<" / "script>" / "<" / "style>": the path
  // reads .../<script>alert(1)</script>/</style>/"><img ...>.c
  const dir = path.join(tmp, 'proj', SCRIPT, '</style>');
  fs.mkdirSync(dir, { recursive: true });
  const cfile = path.join(dir, IMG + '.c');
  fs.writeFileSync(cfile, source);
  const verify = path.join(tmp, 'verify.json');
  fs.writeFileSync(verify, JSON.stringify({ version: 1, diagnostics: [{
    check: 'verify-' + SCRIPT, severity: 'error', file: path.relative(path.join(tmp, 'proj'), cfile), line: 5, column: 5,
    function: '</script><script>alert(6)</script>',
    message: '<img src=x onerror=alert(7)> \u2028 \u2029 </style> & <!-- --> ]]>',
    related: [{ file: IMG, line: 1, column: 1, message: '<svg onload=alert(8)>' }] }] }));
  const out = path.join(tmp, 'report.html');
  const r = purist(bin, ['report', '--html', '--verify', verify, cfile, '-o', out], { cwd: path.join(tmp, 'proj') });
  check('the report is written (exit 1: a misuse and a verify error)', r.status === 1, 'status ' + r.status + '\n' + r.stderr);

  const html = fs.readFileSync(out, 'utf8');
  check('the file has exactly two script elements and one style element',
    (html.match(/<script/gi) || []).length === 2 && (html.match(/<style/gi) || []).length === 1 &&
    (html.match(/<\/script/gi) || []).length === 2 && (html.match(/<\/style/gi) || []).length === 1);
  check('no raw U+2028/U+2029 in the file', !/[\u2028\u2029]/.test(html));
  const data = reportData(out);
  check('the data keeps the names exactly', data.files.some(f => f.includes(SCRIPT + '/</style>/' + IMG)) &&
    data.findings.some(f => f.function === '</script><script>alert(6)</script>' && f.message.includes('\u2028')));

  const { page, seen, close } = await openReport(nodeDir, out);
  try {
    const injected = async () => page.evaluate(() => ({
      img: document.querySelectorAll('img').length,
      script: document.querySelectorAll('script').length,
      style: document.querySelectorAll('style').length,
      svgScript: document.querySelectorAll('svg script, svg[onload]').length,
      on: [...document.querySelectorAll('*')].filter(e => [...e.attributes].some(a => /^on/i.test(a.name))).length,
    }));
    const clean = o => o.img === 0 && o.script === 2 && o.style === 1 && o.svgScript === 0 && o.on === 0;
    let dom = await injected();
    check('overview: no injected element or handler', clean(dom), JSON.stringify(dom));

    await page.click('#tab-functions');
    const files = await page.$$eval('#rows .row', rs => rs.map(r => r.children[1].textContent));
    check('the table shows the markup in paths as text', files.some(f => f.includes('<script>alert(1)</script>/</style>/"><img')),
      files.join('\n'));
    await page.click('#rows .row:has-text("evil_lookup")');
    await page.waitForSelector('#panel pre.src');
    const src = await page.textContent('#panel');
    check('source lines with markup in comments and strings render as text',
      src.includes('// ' + IMG) && src.includes('(k[0] == \'<\')'), src.slice(0, 400));
    await page.goto(page.url().replace(/#.*/, '') + '#fn=' + data.functions.findIndex(f => f.name === 'evil_string'));
    await page.waitForFunction(() => document.querySelector('#panel h2').textContent === 'evil_string');

    await page.click('#tab-findings');
    const text = await page.textContent('#findings');
    check('the verify finding renders its markup as text',
      text.includes('verify-' + SCRIPT) && text.includes('</script><script>alert(6)</script>') &&
      text.includes('<img src=x onerror=alert(7)>') && text.includes('<svg onload=alert(8)>'), text.slice(0, 600));
    dom = await injected();
    check('after visiting every view: no injected element or handler', clean(dom), JSON.stringify(dom));
    await page.waitForTimeout(200);   // an injected onerror would fire by now
    checkClean(seen, 'escaping report');
  } finally {
    await close();
  }
});
