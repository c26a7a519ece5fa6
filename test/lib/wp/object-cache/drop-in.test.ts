/** Reading an object-cache.php drop-in's header as WordPress reads plugin headers (get_file_data()). */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { dropInHeader, knownDropIn, readDropInHeader } from '../../../../lib/wp/object-cache/drop-in';

describe('lib/wp/object-cache/drop-in', () => {
  it('reads Name: value lines after any comment characters, in any case, with CRLF, trimming a closing */ or ?>', () => {
    assert.deepEqual(dropInHeader('<?php\r\n/*\r\n * plugin name:   Redis Object Cache Drop-In  \r\n# Plugin URI: https://wordpress.org/plugins/redis-cache/ */\r\n@ Version: 2.6.3 ?>'), {
      name: 'Redis Object Cache Drop-In', uri: 'https://wordpress.org/plugins/redis-cache/', version: '2.6.3',
    });
    assert.deepEqual(dropInHeader('<?php /* Plugin Name: Memcached */'), { name: 'Memcached', uri: undefined, version: undefined });
    assert.deepEqual(dropInHeader('<?php\n$x = "Plugin Name: not at a line start";'), { name: undefined, uri: undefined, version: undefined });
  });

  it('knows the two covered drop-ins by name (and Automattic\'s by its plugin address too), nothing else', () => {
    assert.equal(knownDropIn({ name: 'Redis Object Cache Drop-In' }), 'redis');
    assert.equal(knownDropIn({ name: 'Memcached', uri: 'https://wordpress.org/plugins/memcached/' }), 'memcached');
    assert.equal(knownDropIn({ name: 'Memcached', uri: 'https://wordpress.org/plugins/memcached-redux/' }), undefined);
    assert.equal(knownDropIn({ name: 'Memcached' }), undefined);
    assert.equal(knownDropIn({ name: 'Object Cache Pro (Drop-in)' }), undefined);
    assert.equal(knownDropIn({}), undefined);
  });

  it('reads only the first 8 KB of the file, as WordPress does', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'understudy-drop-in-'));
    try {
      const file = path.join(dir, 'object-cache.php');
      fs.writeFileSync(file, `<?php\n/* Version: 1 */\n${' '.repeat(9000)}\n/* Plugin Name: Redis Object Cache Drop-In */\n`);
      assert.deepEqual(readDropInHeader(file), { name: undefined, uri: undefined, version: '1' });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
