// validate_sarif.mjs — validates SARIF logs against the official SARIF
// 2.1.0 JSON schema, as shipped on npm, with ajv.
//
//   node validate_sarif.mjs NODE_DIR [--expect-invalid] FILE.sarif...
//
// NODE_DIR is where tests/diag/package.json was installed (npm ci); the
// schema is looked for in its node_modules, never downloaded and never
// written here: if it is missing, this fails. Exit status 0 when every file
// is valid (with --expect-invalid: when every file is invalid, which proves
// the validator rejects what it should); otherwise 1, with the errors.
import { createRequire } from 'node:module';
import fs from 'node:fs';
import path from 'node:path';

const SCHEMA_NAME = /^sarif(-schema)?-2\.1\.0(-rtm\.(\d+))?\.json$/;

function die(msg) {
  console.error(`validate_sarif: ${msg}`);
  process.exit(1);
}

// Every file under dir whose name matches re.
function findFiles(dir, re, found = []) {
  let entries;
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return found;
  }
  for (const e of entries) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) findFiles(p, re, found);
    else if (re.test(e.name)) found.push(p);
  }
  return found;
}

// The schema file to use: the OASIS name if present, else the latest
// release candidate (rtm.N) a package ships.
function pickSchema(nodeModules) {
  const rank = (p) => {
    const m = SCHEMA_NAME.exec(path.basename(p));
    return m[1] ? 1000 : m[3] === undefined ? 999 : Number(m[3]);
  };
  const found = findFiles(nodeModules, SCHEMA_NAME).sort((a, b) => rank(b) - rank(a) || a.localeCompare(b));
  if (!found.length)
    die(`no SARIF 2.1.0 schema (sarif-schema-2.1.0.json or sarif-2.1.0*.json) under ${nodeModules}; ` +
        'npm ci in tests/diag installs @microsoft/jest-sarif, which ships it');
  return found[0];
}

// Loads the schema and checks it is what it claims to be.
function loadSchema(file) {
  const schema = JSON.parse(fs.readFileSync(file, 'utf8'));
  const title = String(schema.title || '');
  if (!title.includes('2.1.0') || !schema.definitions || !schema.definitions.result)
    die(`${file} does not look like the SARIF 2.1.0 schema (title "${title}")`);
  return schema;
}

// An ajv validator for the schema's draft (the 2.1.0 schema is draft-04).
// Patterns are ECMA-262 regular expressions without the `u` flag, as JSON
// Schema specifies: the rtm.5 schema's language pattern has a lone ']',
// which only `u` mode rejects. strict is off because the schema is not
// ours to tidy (ajv's strict mode lints schemas, it does not validate
// data more strictly).
function compile(require, schema) {
  const draft04 = /draft-04/.test(schema.$schema || '');
  const mod = require(draft04 ? 'ajv-draft-04' : 'ajv');
  const Ajv = mod.default || mod;
  const ajv = new Ajv({ allErrors: true, strict: false, validateFormats: true, unicodeRegExp: false });
  const addFormats = require('ajv-formats');
  (addFormats.default || addFormats)(ajv);
  return ajv.compile(schema);
}

// What the schema cannot say but SARIF consumers rely on: ruleIndex names
// the rule of ruleId, and related location ids are unique per result.
function consistencyErrors(log) {
  const errs = [];
  for (const [r, run] of (log.runs || []).entries()) {
    const rules = (run.tool && run.tool.driver && run.tool.driver.rules) || [];
    for (const [i, res] of (run.results || []).entries()) {
      const at = `/runs/${r}/results/${i}`;
      if (res.ruleIndex !== undefined && (!rules[res.ruleIndex] || rules[res.ruleIndex].id !== res.ruleId))
        errs.push(`${at}: ruleIndex ${res.ruleIndex} does not name rule ${res.ruleId}`);
      const ids = (res.relatedLocations || []).map((l) => l.id);
      if (new Set(ids).size !== ids.length) errs.push(`${at}: duplicate relatedLocations ids`);
    }
  }
  return errs;
}

const args = process.argv.slice(2);
const nodeDir = args.shift();
const expectInvalid = args[0] === '--expect-invalid';
if (expectInvalid) args.shift();
if (!nodeDir || !args.length) die('usage: validate_sarif.mjs NODE_DIR [--expect-invalid] FILE.sarif...');

const nodeModules = path.join(path.resolve(nodeDir), 'node_modules');
const require = createRequire(path.join(path.resolve(nodeDir), 'package.json'));
const schemaFile = pickSchema(nodeModules);
const schema = loadSchema(schemaFile);
const validate = compile(require, schema);
console.log(`schema: ${path.relative(nodeModules, schemaFile)} (${schema.title})`);

let ok = true;
for (const file of args) {
  let log;
  try {
    log = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (e) {
    die(`${file}: not JSON: ${e.message}`);
  }
  const errs = validate(log)
    ? []
    : validate.errors.map((e) => `${e.instancePath || '/'}: ${e.message} ${JSON.stringify(e.params)}`);
  errs.push(...consistencyErrors(log));
  if (errs.length) {
    console.log(`${file}: INVALID, ${errs.length} error(s):`);
    for (const e of errs) console.log(`  ${e}`);
  } else {
    console.log(`${file}: valid`);
  }
  if ((errs.length === 0) === expectInvalid) ok = false;
}
process.exit(ok ? 0 : 1);
