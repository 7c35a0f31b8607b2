// validate_json.mjs — validates purist's JSON outputs against the JSON
// Schemas in docs/schema/ with ajv (draft-07).
//
//   node validate_json.mjs NODE_DIR [--strict] [--expect-invalid] SCHEMA FILE...
//
// NODE_DIR is where tests/diag/package.json was installed (npm ci). With
// --strict every object schema that lists properties also forbids others:
// the published schemas allow keys they do not list (DESIGN.md §4: keys
// may be added), but purist's own output must use only documented keys,
// so a key added without documenting it fails here. Exit 0 when every
// file is valid (with --expect-invalid: when every file is invalid).
import { createRequire } from 'node:module';
import fs from 'node:fs';
import path from 'node:path';

function die(msg) {
  console.error(`validate_json: ${msg}`);
  process.exit(1);
}

// A copy of schema in which each object schema with "properties" and no
// "additionalProperties" of its own gets additionalProperties: false.
function strictCopy(node) {
  if (Array.isArray(node)) return node.map(strictCopy);
  if (!node || typeof node !== 'object') return node;
  const out = {};
  for (const [k, v] of Object.entries(node)) out[k] = k === 'enum' || k === 'const' ? v : strictCopy(v);
  if (out.properties && !('additionalProperties' in out)) out.additionalProperties = false;
  return out;
}

const args = process.argv.slice(2);
const nodeDir = args.shift();
let strict = false, expectInvalid = false;
while (args[0] && args[0].startsWith('--')) {
  const a = args.shift();
  if (a === '--strict') strict = true;
  else if (a === '--expect-invalid') expectInvalid = true;
  else die(`unknown option ${a}`);
}
const schemaFile = args.shift();
if (!nodeDir || !schemaFile || !args.length)
  die('usage: validate_json.mjs NODE_DIR [--strict] [--expect-invalid] SCHEMA FILE...');

const require = createRequire(path.join(path.resolve(nodeDir), 'package.json'));
const mod = require('ajv');
const Ajv = mod.default || mod;
let schema;
try {
  schema = JSON.parse(fs.readFileSync(schemaFile, 'utf8'));
} catch (e) {
  die(`${schemaFile}: ${e.message}`);
}
const ajv = new Ajv({ allErrors: true, strict: true });
const validate = ajv.compile(strict ? strictCopy(schema) : schema);

let ok = true;
for (const file of args) {
  let doc;
  try {
    doc = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (e) {
    die(`${file}: not JSON: ${e.message}`);
  }
  const valid = validate(doc);
  if (valid) {
    console.log(`${file}: valid (${path.basename(schemaFile)}${strict ? ', strict' : ''})`);
  } else {
    console.log(`${file}: INVALID against ${path.basename(schemaFile)}:`);
    for (const e of validate.errors) console.log(`  ${e.instancePath || '/'}: ${e.message} ${JSON.stringify(e.params)}`);
  }
  if (valid === expectInvalid) ok = false;
}
process.exit(ok ? 0 : 1);
