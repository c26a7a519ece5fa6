/** The command-line parser: WP-CLI's flag forms plus `--flag value` for flags that take a value. */
import assert from 'node:assert/strict';
import { CliError, parseArgs, parseCommandArgs } from '../../lib/cli/args';

describe('CLI arguments', () => {
  it('separates positional arguments from --flag=value, bare --flag and --no-flag', () => {
    assert.deepEqual(parseArgs(['get', '--format=json', 'name', '--quiet', '--no-color', '--empty=']), {
      positional: ['get', 'name'],
      flags: { format: 'json', quiet: true, color: false, empty: '' },
    });
  });

  it('takes the next argument as the value only for flags declared as taking one', () => {
    assert.deepEqual(parseArgs(['--port', '9000', '--verbose', 'serve'], new Set(['port'])), {
      positional: ['serve'],
      flags: { port: '9000', verbose: true },
    });
    assert.deepEqual(parseArgs(['--port', '--host=x'], new Set(['port'])).flags, { port: true, host: 'x' });
  });

  it('keeps values that look like flags after --, and single-dash arguments, as positional', () => {
    assert.deepEqual(parseArgs(['update', 'n', '-5', '--', '--not-a-flag']), { positional: ['update', 'n', '-5', '--not-a-flag'], flags: {} });
  });

  it('keeps an = inside the value, and lets a later repeat win', () => {
    assert.deepEqual(parseArgs(['--url=https://x.test/?a=b', '--format=csv', '--format=json']).flags, { url: 'https://x.test/?a=b', format: 'json' });
  });

  it('refuses unknown flags and value flags given without a value', () => {
    assert.throws(() => parseCommandArgs(['--nope'], { format: 'string' }), new CliError('unknown --nope parameter'));
    assert.throws(() => parseCommandArgs(['--format'], { format: 'string' }), new CliError('--format needs a value (--format=<value>)'));
    assert.deepEqual(parseCommandArgs(['x', '--format', 'json'], { format: 'string' }), { positional: ['x'], flags: { format: 'json' } });
  });

  it('names the nearest known flag when one is mistyped', () => {
    assert.throws(() => parseCommandArgs(['--doc-collection=a'], { name: 'string', 'doc-collections': 'string' }),
      new CliError('unknown --doc-collection parameter (did you mean --doc-collections?)'));
    assert.throws(() => parseCommandArgs(['--formt=json'], { format: 'string' }), new CliError('unknown --formt parameter (did you mean --format?)'));
    assert.throws(() => parseCommandArgs(['--colour'], { format: 'string' }), new CliError('unknown --colour parameter'));
  });

  it('takes --json as --format=json on every command that takes --format', () => {
    assert.deepEqual(parseCommandArgs(['x', '--json'], { format: 'string' }), { positional: ['x'], flags: { format: 'json' } });
    assert.deepEqual(parseCommandArgs(['--json', '--format=json'], { format: 'string' }), { positional: [], flags: { format: 'json' } });
    assert.throws(() => parseCommandArgs(['--json', '--format=csv'], { format: 'string' }), new CliError('--json contradicts --format=csv'));
    assert.throws(() => parseCommandArgs(['--json'], { name: 'string' }), new CliError('unknown --json parameter'));
  });
});
