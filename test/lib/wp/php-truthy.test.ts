import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { PhpArray, PhpFloat, PhpObject, PhpValue, phpFlag, phpTruthy, serialize, toPlain } from '../../../lib/wp/php';

/** Stored values and how PHP's `(bool)` reads them: what a plugin's PHP sees in the same option or meta row. */
const TABLE: Array<[string, PhpValue, boolean]> = [
  ["''", '', false],
  ["'0'", '0', false],
  ["'1'", '1', true],
  ["'00'", '00', true],
  ["'0.0'", '0.0', true],
  ["' '", ' ', true],
  ["' 0'", ' 0', true],
  ["'false'", 'false', true],
  ["'off'", 'off', true],
  ["'no'", 'no', true],
  ["'FALSE'", 'FALSE', true],
  ["'yes'", 'yes', true],
  ['b:0', false, false],
  ['b:1', true, true],
  ['i:0', 0, false],
  ['i:2', 2, true],
  ['i:-1', -1, true],
  ['d:0', new PhpFloat(0), false],
  ['d:1', new PhpFloat(1), true],
  ['d:0.5', 0.5, true],
  ['N', null, false],
  ['a:0:{}', [], false],
  ['a:1:{i:0;i:0;}', [0], true],
  ['a:1:{s:1:"k";s:0:"";}', new PhpArray([['k', '']]), true],
  ['O:8:"stdClass":0:{}', new PhpObject('stdClass', []), true],
];

describe('PHP truthiness of stored flags (phpTruthy, phpFlag)', () => {
  it('reads every stored value as PHP\'s (bool) does, whether as a PHP value or its plain form', () => {
    for (const [name, value, expected] of TABLE) {
      assert.equal(phpTruthy(value), expected, name);
      if (!(value instanceof PhpObject)) assert.equal(phpTruthy(toPlain(value)), expected, `${name} (plain)`);
    }
  });

  it('gives the fallback only when there is no value (no row, no key, or null), never for \'\' or \'0\'', () => {
    for (const fallback of [true, false]) {
      assert.equal(phpFlag(undefined, fallback), fallback);
      assert.equal(phpFlag(null, fallback), fallback);
      assert.equal(phpFlag('', fallback), false);
      assert.equal(phpFlag('0', fallback), false);
      assert.equal(phpFlag('off', fallback), true);
      assert.equal(phpFlag('1', fallback), true);
    }
  });

  it('agrees with real PHP on every row of the table', function () {
    const probe = spawnSync('php', ['-r', 'echo 1;'], { encoding: 'utf8' });
    if (probe.status !== 0) this.skip();
    // Each value goes to PHP serialized, as it is stored; PHP prints its (bool) as 0 or 1 per line.
    const script = 'foreach (json_decode(stream_get_contents(STDIN)) as $s) echo (bool) unserialize($s) ? "1\\n" : "0\\n";';
    const php = spawnSync('php', ['-r', script], { input: JSON.stringify(TABLE.map(([, value]) => serialize(value))), encoding: 'utf8' });
    assert.equal(php.status, 0, php.stderr);
    const fromPhp = php.stdout.trim().split('\n').map((line) => line === '1');
    assert.deepEqual(TABLE.map(([name, value]) => [name, phpTruthy(value)]), TABLE.map(([name], i) => [name, fromPhp[i]]));
  });
});
