/**
 * Every JSON Schema `pattern` in schema/ (ajv compiles them to JavaScript RegExps and tests request
 * values with them on the main thread) matches in time linear in the value: none can backtrack
 * catastrophically on a long value (docs/security.md "Super-linear inputs").
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { assertAboutLinear } from '../fuzz/settings';

const SCHEMA_DIR = path.join(__dirname, '../../schema');

function filesUnder(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? filesUnder(path.join(dir, e.name)) : [path.join(dir, e.name)]));
}

/** Every `pattern` string and `patternProperties` key in a schema value. */
function patternsIn(node: unknown, found: Set<string>): Set<string> {
  if (!node || typeof node !== 'object') return found;
  for (const [key, value] of Object.entries(node)) {
    if (key === 'pattern' && typeof value === 'string') found.add(value);
    if (key === 'patternProperties' && value && typeof value === 'object') for (const p of Object.keys(value)) found.add(p);
    patternsIn(value, found);
  }
  return found;
}

function schemaPatterns(): string[] {
  const found = new Set<string>();
  for (const file of filesUnder(SCHEMA_DIR)) {
    if (file.endsWith('.json')) patternsIn(JSON.parse(fs.readFileSync(file, 'utf8')), found);
    else if (file.endsWith('.ts')) patternsIn(require(file), found);
  }
  return [...found];
}

/** Long values of the shapes that make a backtracking pattern slow: runs of one class, then a character that fails. */
const UNITS = ['a', ' ', '1', '-', 'a ', 'http://a', '\t\n', '!', 'é'];

describe('schema: every pattern matches in linear time', function () {
  this.timeout(120_000);
  const patterns = schemaPatterns();

  it('finds the patterns (the walk reads the schema files)', () => {
    assert.ok(patterns.includes('\\S'), patterns.join(' '));
    assert.ok(patterns.includes('^https?://\\S+$'), patterns.join(' '));
  });

  it('tests long values in linear time with each pattern', () => {
    for (const source of patterns) {
      const re = new RegExp(source, 'u');
      for (const unit of UNITS) {
        const small = `${unit.repeat(2048)}\u0000`;
        const large = `${unit.repeat(2048 * 16)}\u0000`;
        assertAboutLinear(`/${source}/ on ${JSON.stringify(unit)}…`, () => re.test(small), () => re.test(large));
      }
    }
  });
});
