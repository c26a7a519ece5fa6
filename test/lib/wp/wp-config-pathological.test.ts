/**
 * wp-config.php files no one writes by hand, found by the fuzz suite (test/fuzz/wp-config.test.ts):
 * values nested tens of thousands deep, and thousands of calls or heredocs that are never closed.
 * Reading still returns (the reader promises never to throw on odd PHP), in time that grows with the
 * file's size rather than its square, and the ordinary definitions around them are read as before.
 */
import assert from 'node:assert/strict';
import { performance } from 'node:perf_hooks';
import { parseWpConfig } from '../../../lib/wp/wp-config/parse';

/** Reads the source, failing if that takes longer than `withinMs`. */
function readWithin(source: string, withinMs: number) {
  const started = performance.now();
  const cfg = parseWpConfig(source, 'wp-config.php');
  const took = performance.now() - started;
  assert.ok(took < withinMs, `took ${took.toFixed(0)} ms`);
  return cfg;
}

describe('lib/wp/wp-config: pathological files', () => {
  it('reads values nested tens of thousands deep without running out of stack', () => {
    const cfg = parseWpConfig(
      `<?php define( 'SHALLOW', ((('a')) . 'b') );
define( 'PARENS', ${'('.repeat(20_000)}1${')'.repeat(20_000)} );
define( 'SIGNS', ${'- '.repeat(20_000)}1 );
define( 'INTERPOLATED', "x ${'{$a["'.repeat(20_000)}${'"]}'.repeat(20_000)}" );
define( 'AFTER', 'ok' );`,
      'wp-config.php',
    );
    assert.equal(cfg.constants.SHALLOW, 'ab');
    // Too deep to evaluate: recorded as computed at runtime, like any value we cannot work out.
    assert.equal(cfg.constants.PARENS, null);
    assert.equal(cfg.dynamic?.PARENS?.length, 40_001);
    assert.equal(cfg.constants.SIGNS, null);
    assert.equal(cfg.constants.INTERPOLATED, null);
    assert.equal(cfg.constants.AFTER, 'ok');
    // Nesting a person might write is evaluated as before.
    assert.equal(parseWpConfig(`<?php define( 'D', ${Array(255).fill('-').join(' ')} 1 );`, 'f').constants.D, -1);
    assert.equal(parseWpConfig(`<?php define( 'P', ${'('.repeat(200)}2 * 3${')'.repeat(200)} );`, 'f').constants.P, 6);
  });

  it('reads a file of 20,000 unclosed define( calls in linear time (16,000 took 15 s)', () => {
    const cfg = readWithin(`<?php define( 'A', 1 ); ${'define('.repeat(20_000)}`, 3_000);
    assert.equal(cfg.constants.A, 1);
    // A call that does close, inside an unclosed one, still counts, as before.
    assert.equal(parseWpConfig(`<?php define( define( 'B', 2 ) ${'define('.repeat(10)}`, 'f').constants.B, 2);
  });

  it('reads a file of 20,000 unclosed heredocs in linear time (16,000 took 9 s), and closes real ones as before', () => {
    const cfg = readWithin(`<?php define( 'A', 1 ); ${'<<<EOT\n'.repeat(10_000)}${'<<<X1\n<<<X2\n'.repeat(5_000)}`, 3_000);
    assert.equal(cfg.constants.A, 1);
    const heredocs = parseWpConfig(`<?php
define( 'UNCLOSED', <<<NOPE
  never closed );
define( 'H', <<<EOT
    one
      two
    EOT );
define( 'NOT_A_MARKER', <<<'END'
  ENDING is not the marker
  END );`, 'f');
    assert.equal(heredocs.constants.H, 'one\n  two');
    assert.equal(heredocs.constants.NOT_A_MARKER, 'ENDING is not the marker');
    // Not a heredoc without its marker: the value is PHP we cannot evaluate, as before.
    assert.equal(heredocs.constants.UNCLOSED, null);
    assert.match(heredocs.dynamic?.UNCLOSED ?? '', /^< < < NOPE never closed$|^<<<NOPE never closed$/);
  });
});
