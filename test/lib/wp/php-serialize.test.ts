import assert from 'node:assert/strict';
import fs from 'node:fs';
import { parseDumpInserts } from '../../harness/mysqldump';
import {
  PhpArray,
  PhpCustomObject,
  PhpEnum,
  PhpFloat,
  PhpObject,
  PhpReference,
  PhpUnserializeError,
  PhpValue,
  demanglePropertyName,
  isSerialized,
  maybeSerialize,
  maybeUnserialize,
  normalizeKey,
  phpEntries,
  phpFloatRepr,
  phpFloatToString,
  phpGet,
  serialize,
  toPlain,
  unserialize,
  unserializeOrThrow,
  utf8Length,
} from '../../../lib/wp/php';
import { oracleFile } from '../../harness/oracle-files';

const DUMP_PATH = oracleFile('wp-oracle.sql');

/** Asserts both directions: `value` serializes to `text`, and `text` reads back and re-serializes unchanged. */
function assertRoundTrip(text: string): PhpValue {
  const value = unserialize(text);
  assert.notEqual(value, undefined, `failed to unserialize ${JSON.stringify(text)}`);
  assert.equal(serialize(value), text);
  return value as PhpValue;
}

describe('php-serialize', () => {
  describe('serialize scalars', () => {
    it('writes null and undefined as N;', () => {
      assert.equal(serialize(null), 'N;');
      assert.equal(serialize(undefined), 'N;');
    });

    it('writes booleans as b:1; and b:0;', () => {
      assert.equal(serialize(true), 'b:1;');
      assert.equal(serialize(false), 'b:0;');
    });

    it('writes integral numbers within int64 as i:', () => {
      assert.equal(serialize(0), 'i:0;');
      assert.equal(serialize(-3), 'i:-3;');
      assert.equal(serialize(-0), 'i:0;');
      assert.equal(serialize(Number.MAX_SAFE_INTEGER), 'i:9007199254740991;');
      assert.equal(serialize(2 ** 62), 'i:4611686018427387904;');
    });

    it('writes bigints as i: and rejects ones beyond int64', () => {
      assert.equal(serialize(9223372036854775807n), 'i:9223372036854775807;');
      assert.equal(serialize(-9223372036854775808n), 'i:-9223372036854775808;');
      assert.throws(() => serialize(9223372036854775808n), TypeError);
    });

    it('writes non-integral numbers as d: with the shortest repr, as PHP 7.1+ does', () => {
      assert.equal(serialize(0.1), 'd:0.1;');
      assert.equal(serialize(1.5), 'd:1.5;');
      assert.equal(serialize(-1.5), 'd:-1.5;');
      assert.equal(serialize(0.1 + 0.2), 'd:0.30000000000000004;');
      assert.equal(serialize(0.0001), 'd:0.0001;');
      assert.equal(serialize(0.00001), 'd:1.0E-5;');
      assert.equal(serialize(1e-7), 'd:1.0E-7;');
      assert.equal(serialize(1.5e-10), 'd:1.5E-10;');
      assert.equal(serialize(NaN), 'd:NAN;');
      assert.equal(serialize(Infinity), 'd:INF;');
      assert.equal(serialize(-Infinity), 'd:-INF;');
    });

    it('writes integral numbers beyond int64 as floats in exponent form', () => {
      assert.equal(serialize(1e25), 'd:1.0E+25;');
      assert.equal(serialize(2 ** 64), 'd:1.8446744073709552E+19;');
      assert.equal(serialize(-1e100), 'd:-1.0E+100;');
    });

    it('writes PhpFloat as d: even when integral', () => {
      assert.equal(serialize(new PhpFloat(1)), 'd:1;');
      assert.equal(serialize(new PhpFloat(-0)), 'd:-0;');
      assert.equal(serialize(new PhpFloat(1e16)), 'd:10000000000000000;');
      assert.equal(serialize(new PhpFloat(1e17)), 'd:1.0E+17;');
      assert.equal(serialize(new PhpFloat(123456789012345680)), 'd:1.2345678901234568E+17;');
    });

    it('counts string lengths in UTF-8 bytes and writes the bytes unescaped', () => {
      assert.equal(serialize(''), 's:0:"";');
      assert.equal(serialize('abc'), 's:3:"abc";');
      assert.equal(serialize('é'), 's:2:"é";');
      assert.equal(serialize('€'), 's:3:"€";');
      assert.equal(serialize('😀'), 's:4:"😀";');
      assert.equal(serialize('a"b;\\\0'), 's:6:"a"b;\\\0";');
    });

    it('rejects functions, symbols, class instances and cycles', () => {
      assert.throws(() => serialize(() => 1), TypeError);
      assert.throws(() => serialize(Symbol('x')), TypeError);
      assert.throws(() => serialize(new Date(0)), TypeError);
      const cyclic: Record<string, unknown> = {};
      cyclic.self = cyclic;
      assert.throws(() => serialize(cyclic), /circular/);
    });

    it('allows the same object twice when it is not a cycle', () => {
      const shared = { a: 1 };
      assert.equal(serialize([shared, shared]), 'a:2:{i:0;a:1:{s:1:"a";i:1;}i:1;a:1:{s:1:"a";i:1;}}');
    });
  });

  describe('serialize arrays', () => {
    it('writes JS arrays as lists with i: keys', () => {
      assert.equal(serialize([]), 'a:0:{}');
      assert.equal(serialize(['a', 1, null]), 'a:3:{i:0;s:1:"a";i:1;i:1;i:2;N;}');
    });

    it('writes plain objects with string keys, turning integer-like keys into i: as PHP does', () => {
      assert.equal(serialize({ name: 'x' }), 'a:1:{s:4:"name";s:1:"x";}');
      assert.equal(serialize({ '5': true }), 'a:1:{i:5;b:1;}');
      assert.equal(serialize({ '-5': true }), 'a:1:{i:-5;b:1;}');
      // Not canonical ints, so PHP keeps them as strings.
      assert.equal(serialize({ '05': 1 }), 'a:1:{s:2:"05";i:1;}');
      assert.equal(serialize({ '-0': 1 }), 'a:1:{s:2:"-0";i:1;}');
      assert.equal(serialize({ '1.5': 1 }), 'a:1:{s:3:"1.5";i:1;}');
      assert.equal(serialize({ '9223372036854775808': 1 }), 'a:1:{s:19:"9223372036854775808";i:1;}');
      assert.equal(serialize({ '9223372036854775807': 1 }), 'a:1:{i:9223372036854775807;i:1;}');
    });

    it('writes Maps in insertion order and collapses "5" and 5 into one key', () => {
      assert.equal(serialize(new Map<unknown, unknown>([['b', 1], [3, 2], ['a', 3]])), 'a:3:{s:1:"b";i:1;i:3;i:2;s:1:"a";i:3;}');
      assert.equal(serialize(new Map<unknown, unknown>([['5', 'x'], [5, 'y']])), 'a:1:{i:5;s:1:"y";}');
    });

    it('writes PhpArray keys in their insertion order, which a plain object could not keep', () => {
      const array = new PhpArray([[5, 'a'], [1, 'b']]);
      assert.equal(serialize(array), 'a:2:{i:5;s:1:"a";i:1;s:1:"b";}');
    });

    it('writes nested arrays', () => {
      assert.equal(
        serialize({ administrator: { name: 'Administrator', capabilities: { read: true } } }),
        'a:1:{s:13:"administrator";a:2:{s:4:"name";s:13:"Administrator";s:12:"capabilities";a:1:{s:4:"read";b:1;}}}',
      );
    });
  });

  describe('serialize objects', () => {
    it('writes PhpObject with class name and verbatim property names, NUL bytes included', () => {
      const object = new PhpObject('stdClass', [['a', 1], ['\0*\0b', 'x'], ['\0Foo\0c', null]]);
      assert.equal(serialize(object), 'O:8:"stdClass":3:{s:1:"a";i:1;s:4:"\0*\0b";s:1:"x";s:6:"\0Foo\0c";N;}');
    });

    it('keeps a string property name "0" as s: (PHP 7.2+ objects have string property names)', () => {
      assert.equal(serialize(new PhpObject('stdClass', { '0': 'x' })), 'O:8:"stdClass":1:{s:1:"0";s:1:"x";}');
    });

    it('writes enum cases, Serializable payloads and references', () => {
      assert.equal(serialize(new PhpEnum('Suit', 'Hearts')), 'E:11:"Suit:Hearts";');
      assert.equal(serialize(new PhpCustomObject('ArrayObject', 'x:i:0;a:0:{};m:a:0:{}')), 'C:11:"ArrayObject":21:{x:i:0;a:0:{};m:a:0:{}}');
      assert.equal(serialize([new PhpReference('R', 2)]), 'a:1:{i:0;R:2;}');
    });
  });

  describe('unserialize', () => {
    it('reads every scalar type', () => {
      assert.equal(unserialize('N;'), null);
      assert.equal(unserialize('b:1;'), true);
      assert.equal(unserialize('b:0;'), false);
      assert.equal(unserialize('i:-3;'), -3);
      assert.equal(unserialize('i:0;'), 0);
      assert.equal(unserialize('d:1.5;'), 1.5);
      assert.equal(unserialize('d:0.1;'), 0.1);
      assert.ok(Number.isNaN(unserialize('d:NAN;')));
      assert.equal(unserialize('d:-INF;'), -Infinity);
      assert.equal(unserialize('s:5:"hello";'), 'hello');
    });

    it('returns integral floats as PhpFloat so they re-serialize as d:', () => {
      const one = unserialize('d:1;');
      assert.ok(one instanceof PhpFloat);
      assert.equal(+one, 1);
      assert.equal(serialize(one), 'd:1;');
      const big = assertRoundTrip('d:1.0E+25;');
      assert.ok(big instanceof PhpFloat && big.value === 1e25);
      const negativeZero = assertRoundTrip('d:-0;');
      assert.ok(negativeZero instanceof PhpFloat && Object.is(negativeZero.value, -0));
    });

    it('returns ints beyond the safe range as bigint', () => {
      assert.equal(unserialize('i:9223372036854775807;'), 9223372036854775807n);
      assert.equal(unserialize('i:9007199254740991;'), 9007199254740991);
      assert.equal(unserialize('i:9223372036854775808;'), undefined);
    });

    it('counts s: lengths in UTF-8 bytes', () => {
      assert.equal(unserialize('s:2:"é";'), 'é');
      assert.equal(unserialize('s:4:"😀";'), '😀');
      assert.equal(unserialize('s:9:"é😀€";'), 'é😀€');
      assert.equal(unserialize('s:1:"é";'), undefined, 'a length that ends inside a character is malformed');
      assert.equal(unserialize('s:3:"é";'), undefined);
    });

    it('takes string content by length, so quotes and semicolons inside are data', () => {
      assert.equal(unserialize('s:4:"a";b";'), 'a";b');
      assert.equal(unserialize('s:3:"}N;";'), '}N;');
    });

    it('returns a JS array for lists and a PhpArray when keys are not 0..n-1 in order', () => {
      assert.deepEqual(unserialize('a:2:{i:0;s:1:"a";i:1;s:1:"b";}'), ['a', 'b']);
      assert.deepEqual(unserialize('a:0:{}'), []);
      const reordered = unserialize('a:2:{i:1;s:1:"b";i:0;s:1:"a";}');
      assert.ok(reordered instanceof PhpArray);
      assert.deepEqual([...reordered.keys()], [1, 0]);
      const map = unserialize('a:2:{i:5;s:1:"a";i:1;s:1:"b";}');
      assert.ok(map instanceof PhpArray);
      assert.deepEqual([...map.entries()], [[5, 'a'], [1, 'b']]);
    });

    it('keeps key types: int 5 and string "x" stay distinct types, in order', () => {
      const value = assertRoundTrip('a:3:{s:1:"x";i:1;i:7;i:2;s:2:"07";i:3;}');
      assert.ok(value instanceof PhpArray);
      assert.deepEqual([...value.keys()], ['x', 7, '07']);
    });

    it('normalizes an integer-like string key to an int, as PHP does', () => {
      const value = unserialize('a:1:{s:1:"5";b:1;}');
      assert.ok(value instanceof PhpArray);
      assert.deepEqual([...value.keys()], [5]);
      assert.equal(serialize(value), 'a:1:{i:5;b:1;}');
    });

    it('keeps int keys beyond the safe range exactly', () => {
      const value = assertRoundTrip('a:1:{i:9223372036854775807;b:1;}');
      assert.ok(value instanceof PhpArray);
      assert.equal(value.get('9223372036854775807'), true);
    });

    it('lets a duplicate key overwrite the earlier value in place, as PHP does', () => {
      const value = unserialize('a:3:{s:1:"a";i:1;s:1:"b";i:2;s:1:"a";i:3;}');
      assert.ok(value instanceof PhpArray);
      assert.deepEqual([...value.entries()], [['a', 3], ['b', 2]]);
    });

    it('reads nested arrays', () => {
      const value = assertRoundTrip('a:1:{s:5:"outer";a:2:{i:0;a:1:{s:1:"k";d:0.5;}i:1;a:0:{}}}');
      assert.deepEqual(toPlain(value), { outer: [{ k: 0.5 }, []] });
    });

    it('reads objects with class name and private/protected property names', () => {
      const text = 'O:3:"Foo":3:{s:3:"pub";i:1;s:6:"\0*\0pro";i:2;s:8:"\0Foo\0pri";i:3;}';
      const value = assertRoundTrip(text);
      assert.ok(value instanceof PhpObject);
      assert.equal(value.className, 'Foo');
      assert.equal(value.get('pub'), 1);
      assert.equal(value.get('pro'), 2);
      assert.equal(value.get('pri'), 3);
      assert.equal(value.get('none'), undefined);
      assert.deepEqual(toPlain(value), { pub: 1 });
    });

    it('round-trips stdClass, enums, Serializable payloads and references', () => {
      assertRoundTrip('O:8:"stdClass":1:{s:1:"a";O:8:"stdClass":0:{}}');
      assertRoundTrip('a:2:{i:0;E:11:"Suit:Hearts";i:1;E:11:"Suit:Spades";}');
      assertRoundTrip('C:11:"ArrayObject":21:{x:i:0;a:0:{};m:a:0:{}}');
      const refs = assertRoundTrip('a:2:{i:0;O:8:"stdClass":0:{}i:1;r:2;}');
      assert.ok(Array.isArray(refs) && refs[1] instanceof PhpReference && refs[1].index === 2);
    });

    it('round-trips class names with namespaces and non-ASCII bytes', () => {
      const value = assertRoundTrip('O:11:"Näme\\Space":0:{}');
      assert.ok(value instanceof PhpObject && value.className === 'Näme\\Space');
    });

    it('returns undefined for malformed input instead of throwing', () => {
      const garbage = [
        '', 'N', 'x', 'i:1', 'i:;', 'i:1.5;', 'b:2;', 'b:;', 'd:abc;', 'd:;', 's:-1:"";', 's:3:"ab";',
        's:2:"abc";', 's:1:"a"', 'a:1:{', 'a:1:{}', 'a:1:{i:0;}', 'a:-1:{}', 'a:1:{d:1;i:1;}', 'a:1:{N;i:1;}',
        'a:0:{', 'O:0:"":0:{}', 'O:3:"a b":0:{}', 'O:8:"stdClass":1:{}', 'E:4:"Suit";', 'E:5:"Suit:";',
        'r:0;', 'i:99999999999999999999;', 's:99999999999:"a";', '\0', '{}', 'a:1:{i:0;a:1:{i:0;N;}',
      ];
      for (const text of garbage) {
        assert.equal(unserialize(text), undefined, JSON.stringify(text));
      }
    });

    it('rejects trailing data unless asked to accept it like PHP', () => {
      assert.equal(unserialize('i:1;x'), undefined);
      assert.equal(unserialize('i:1;x', { allowTrailingData: true }), 1);
    });

    it('reports the failure offset from unserializeOrThrow', () => {
      assert.throws(
        () => unserializeOrThrow('a:1:{i:0;x}'),
        (err: unknown) => err instanceof PhpUnserializeError && err.offset === 9,
      );
    });

    it('accepts non-canonical spellings PHP accepts, normalizing them', () => {
      assert.equal(unserialize('i:+5;'), 5);
      assert.equal(unserialize('d:.5;'), 0.5);
      assert.equal(unserialize('d:1e3;') instanceof PhpFloat, true);
      assert.equal(serialize(unserialize('d:0.10000000000000001;')), 'd:0.1;');
    });

    it('rejects nesting deeper than PHP allows without overflowing the stack', () => {
      const nest = (depth: number): string => 'a:1:{i:0;'.repeat(depth) + 'N;' + '}'.repeat(depth);
      assert.equal(unserialize(nest(20000)), undefined);
      assert.deepEqual(unserialize(nest(3)), [[[null]]]);
    });

    it('rejects every proper prefix of a valid value without throwing', () => {
      const text = 'a:3:{s:2:"é";O:8:"stdClass":1:{s:1:"p";d:1.5;}i:9;a:1:{i:0;b:1;}s:1:"n";N;}';
      assert.notEqual(unserialize(text), undefined);
      for (let i = 0; i < text.length; i++) {
        assert.equal(unserialize(text.slice(0, i)), undefined, `prefix of length ${i}`);
      }
    });

    it('never throws on corrupted input (every character replaced in turn)', () => {
      const text = 'a:2:{s:3:"k\u00e9";a:1:{i:0;d:0.25;}i:4;O:8:"stdClass":1:{s:1:"x";s:2:"yz";}}';
      for (let i = 0; i < text.length; i++) {
        for (const replacement of ['9', '"', ';', '}', 'a', ':']) {
          const corrupted = text.slice(0, i) + replacement + text.slice(i + 1);
          const value = unserialize(corrupted);
          if (value !== undefined) assert.equal(typeof serialize(value), 'string');
        }
      }
    });
  });

  describe('round trip of generated values', () => {
    it('serialize → unserialize → serialize is stable for 500 random nested values', () => {
      let seed = 12345;
      const random = (): number => {
        seed = (seed * 1103515245 + 12345) % 2147483648;
        return seed / 2147483648;
      };
      const strings = ['', 'a', 'é', '😀', 'a"b;}', '5', '05', '-1', 'x y', '\0*\0p'];
      const make = (depth: number): unknown => {
        const kind = Math.floor(random() * (depth > 3 ? 6 : 9));
        switch (kind) {
          case 0: return null;
          case 1: return random() < 0.5;
          case 2: return Math.floor(random() * 2000) - 1000;
          case 3: return (random() - 0.5) * 10 ** Math.floor(random() * 40 - 20);
          case 4: return strings[Math.floor(random() * strings.length)];
          case 5: return new PhpFloat(Math.floor(random() * 100));
          case 6: return Array.from({ length: Math.floor(random() * 4) }, () => make(depth + 1));
          case 7: {
            const array = new PhpArray();
            for (let i = Math.floor(random() * 4); i > 0; i--) {
              array.set(random() < 0.5 ? strings[Math.floor(random() * strings.length)]! : Math.floor(random() * 20) - 5, make(depth + 1) as PhpValue);
            }
            return array;
          }
          default:
            return new PhpObject('stdClass', [['p', make(depth + 1) as PhpValue], ['\0*\0q', make(depth + 1) as PhpValue]]);
        }
      };
      for (let i = 0; i < 500; i++) {
        const text = serialize(make(0));
        const again = unserialize(text);
        assert.notEqual(again, undefined, text);
        assert.equal(serialize(again), text);
      }
    });
  });

  describe('PhpArray', () => {
    it('normalizes keys like PHP: canonical int strings, floats, booleans, null', () => {
      assert.equal(normalizeKey('5'), 5);
      assert.equal(normalizeKey('-5'), -5);
      assert.equal(normalizeKey('05'), '05');
      assert.equal(normalizeKey('-0'), '-0');
      assert.equal(normalizeKey(' 5'), ' 5');
      assert.equal(normalizeKey(1.9), 1);
      assert.equal(normalizeKey(true), 1);
      assert.equal(normalizeKey(false), 0);
      assert.equal(normalizeKey(null), '');
      assert.equal(normalizeKey('9223372036854775807'), '9223372036854775807');
      assert.throws(() => normalizeKey(NaN), TypeError);
    });

    it('appends with push at one past the highest int key, and delete does not lower it', () => {
      const array = new PhpArray([['a', 1], [7, 2]]);
      array.push(3);
      assert.deepEqual([...array.keys()], ['a', 7, 8]);
      array.delete(8);
      array.push(4);
      assert.deepEqual([...array.keys()], ['a', 7, 9]);
      assert.deepEqual([...new PhpArray().push('x').entries()], [[0, 'x']]);
    });

    it('finds values by string or int spelling of the same key', () => {
      const array = new PhpArray([['5', 'x']]);
      assert.equal(array.get(5), 'x');
      assert.equal(array.get('5'), 'x');
      assert.equal(array.has('05'), false);
      assert.equal(array.size, 1);
    });

    it('reports isList and converts to plain objects', () => {
      assert.equal(new PhpArray([[0, 'a'], [1, 'b']]).isList(), true);
      assert.equal(new PhpArray([[1, 'b'], [0, 'a']]).isList(), false);
      assert.deepEqual(PhpArray.fromObject({ a: 1, '2': 'x' }).toObject(), { a: 1, '2': 'x' });
      assert.deepEqual(toPlain(new PhpArray([[0, new PhpFloat(2)], [1, 'b']])), [2, 'b']);
      assert.deepEqual(toPlain(new PhpArray([['k', [1n]]])), { k: [1n] });
    });

    it('reads nested values with phpGet and phpEntries', () => {
      const roles = unserialize('a:1:{s:6:"editor";a:2:{s:4:"name";s:6:"Editor";s:12:"capabilities";a:1:{s:4:"read";b:1;}}}') as PhpValue;
      assert.equal(phpGet(phpGet(phpGet(roles, 'editor'), 'capabilities'), 'read'), true);
      assert.equal(phpGet(roles, 'missing'), undefined);
      assert.equal(phpGet(['a', 'b'], '1'), 'b');
      assert.deepEqual(phpEntries(['a']), [[0, 'a']]);
      assert.deepEqual(phpEntries(phpGet(roles, 'editor')).map(([k]) => k), ['name', 'capabilities']);
      assert.deepEqual(phpEntries('scalar'), []);
    });

    it('demangles private and protected property names', () => {
      assert.deepEqual(demanglePropertyName('\0*\0x'), { name: 'x', visibility: 'protected' });
      assert.deepEqual(demanglePropertyName('\0Foo\0x'), { name: 'x', visibility: 'private', className: 'Foo' });
      assert.deepEqual(demanglePropertyName('x'), { name: 'x', visibility: 'public' });
    });
  });

  describe('float formatting', () => {
    it('phpFloatRepr gives the serialize/json_encode form', () => {
      assert.equal(phpFloatRepr(1), '1');
      assert.equal(phpFloatRepr(100), '100');
      assert.equal(phpFloatRepr(0.5), '0.5');
      assert.equal(phpFloatRepr(123.456), '123.456');
      assert.equal(phpFloatRepr(1e-4), '0.0001');
      assert.equal(phpFloatRepr(1.234e-5), '1.234E-5');
    });

    it('phpFloatToString gives the (string)/echo form with 14 significant digits', () => {
      assert.equal(phpFloatToString(0.1 + 0.2), '0.3');
      assert.equal(phpFloatToString(1 / 3), '0.33333333333333');
      assert.equal(phpFloatToString(1.5), '1.5');
      assert.equal(phpFloatToString(1e13), '10000000000000');
      assert.equal(phpFloatToString(1e14), '1.0E+14');
      assert.equal(phpFloatToString(1e25), '1.0E+25');
      assert.equal(phpFloatToString(-0), '-0');
      assert.equal(phpFloatToString(0.00001), '1.0E-5');
      assert.equal(phpFloatToString(NaN), 'NAN');
    });

    it('phpFloatToString rounds exact ties to even like PHP dtoa (and C printf %.14g), not up like JS', () => {
      assert.equal(phpFloatToString(123456789012345), '1.2345678901234E+14');
      assert.equal(phpFloatToString(123456789012355), '1.2345678901236E+14');
    });

    it('utf8Length counts bytes', () => {
      assert.equal(utf8Length('aé€😀'), 1 + 2 + 3 + 4);
    });
  });

  describe('isSerialized (WordPress is_serialized)', () => {
    const strictTable: Array<[string, boolean]> = [
      ['N;', true],
      ['  N;\n', true],
      ['b:1;', true],
      ['b:0;', true],
      ['b:5;', true], // only the shape is checked
      ['i:-3;', true],
      ['d:1.5;', true],
      ['d:1.0E+25;', true],
      ['s:0:"";', true],
      ['s:2:"é";', true],
      ['s:5:"x";', true], // wrong length still passes the shape check
      ['a:0:{}', true],
      ['a:1:{i:0;b:1;}', true],
      ['O:8:"stdClass":0:{}', true],
      ['E:11:"Suit:Hearts";', true],
      ['\t a:0:{} \r\n', true],
      ['', false],
      ['N', false],
      ['N;x', false],
      ['i:1', false],
      ['i:1;;', false],
      ['i:abc;', false],
      ['i:1;x', false],
      ['b:;', false],
      ['d:NAN;', false], // PHP writes it, but the regex only allows [0-9.E+-]
      ['s:1:"a";x', false],
      ['s:1:"a;', false],
      ['s:1:a;', false],
      ['a:b:{}', false],
      ['a:0:{', false],
      ['x:0:{}', false],
      ['C:11:"ArrayObject":0:{}', false],
      ['r:1;', false],
      ['hello', false],
      ['a:', false],
      ['\u00a0N;', false], // PHP's trim() does not strip a no-break space
    ];
    for (const [input, expected] of strictTable) {
      it(`strict: ${JSON.stringify(input)} → ${expected}`, () => {
        assert.equal(isSerialized(input), expected);
      });
    }

    it('loose mode only needs a ; or } past the start', () => {
      assert.equal(isSerialized('a:0:{}trailing', false), true);
      assert.equal(isSerialized('a:0:{}trailing', true), false);
      assert.equal(isSerialized('i:1;junk', false), true);
      assert.equal(isSerialized('s:1:"a";junk', false), true);
      assert.equal(isSerialized('s:1:a;junk', false), false);
      assert.equal(isSerialized('i:;1', false), false);
      assert.equal(isSerialized('a:0:', false), false);
    });

    it('is false for non-strings', () => {
      assert.equal(isSerialized(null), false);
      assert.equal(isSerialized(1), false);
      assert.equal(isSerialized(['N;']), false);
    });
  });

  describe('maybeSerialize (WordPress maybe_serialize + the string the DB stores)', () => {
    it('serializes an already-serialized string again', () => {
      assert.equal(maybeSerialize('a:0:{}'), 's:6:"a:0:{}";');
      assert.equal(maybeSerialize('N;'), 's:2:"N;";');
      assert.equal(maybeSerialize('i:1;junk'), 's:8:"i:1;junk";'); // loose check
    });

    it('stores other strings unchanged', () => {
      assert.equal(maybeSerialize('hello'), 'hello');
      assert.equal(maybeSerialize(''), '');
      assert.equal(maybeSerialize('é'), 'é');
    });

    it('turns scalars into PHP strings', () => {
      assert.equal(maybeSerialize(true), '1');
      assert.equal(maybeSerialize(false), '');
      assert.equal(maybeSerialize(null), '');
      assert.equal(maybeSerialize(undefined), '');
      assert.equal(maybeSerialize(42), '42');
      assert.equal(maybeSerialize(-7), '-7');
      assert.equal(maybeSerialize(2 ** 62), '4611686018427387904');
      assert.equal(maybeSerialize(1.5), '1.5');
      assert.equal(maybeSerialize(0.1 + 0.2), '0.3');
      assert.equal(maybeSerialize(1e25), '1.0E+25');
      assert.equal(maybeSerialize(new PhpFloat(2)), '2');
      assert.equal(maybeSerialize(10n), '10');
    });

    it('serializes arrays and objects', () => {
      assert.equal(maybeSerialize([1, 2]), 'a:2:{i:0;i:1;i:1;i:2;}');
      assert.equal(maybeSerialize({ administrator: true }), 'a:1:{s:13:"administrator";b:1;}');
      assert.equal(maybeSerialize([]), 'a:0:{}');
      assert.equal(maybeSerialize(new PhpObject('stdClass')), 'O:8:"stdClass":0:{}');
    });
  });

  describe('maybeUnserialize (WordPress maybe_unserialize)', () => {
    it('unserializes what passes the strict check, after trimming', () => {
      assert.deepEqual(toPlain(maybeUnserialize('a:1:{s:13:"administrator";b:1;}') as PhpValue), { administrator: true });
      assert.equal(maybeUnserialize('  i:5; \n'), 5);
      assert.equal(maybeUnserialize('N;'), null);
    });

    it('reads a double-serialized value back as the inner string', () => {
      assert.equal(maybeUnserialize(maybeSerialize('a:0:{}')), 'a:0:{}');
    });

    it('returns false for values that look serialized but do not parse, like @unserialize()', () => {
      assert.equal(maybeUnserialize('b:5;'), false);
      assert.equal(maybeUnserialize('s:5:"x";'), false);
      assert.equal(maybeUnserialize('a:1:{}'), false);
    });

    it('returns anything else unchanged', () => {
      assert.equal(maybeUnserialize('hello'), 'hello');
      assert.equal(maybeUnserialize('i:1;junk'), 'i:1;junk');
      assert.equal(maybeUnserialize(''), '');
      assert.equal(maybeUnserialize(null), null);
      assert.equal(maybeUnserialize(7), 7);
    });

    it('inverts maybeSerialize for strings, including ones that look serialized', () => {
      for (const text of ['plain', 'a:0:{}', 'N;', 'b:1;', 's:1:"x";', 'é😀', '']) {
        assert.equal(maybeUnserialize(maybeSerialize(text)), text);
      }
    });
  });

  describe('the oracle WordPress dump', () => {
    const tables = parseDumpInserts(fs.readFileSync(DUMP_PATH, 'utf8'));
    const serialized: Array<{ table: string; value: string }> = [];
    for (const table of tables) {
      for (const row of table.rows) {
        for (const value of row) if (typeof value === 'string' && isSerialized(value)) serialized.push({ table: table.table, value });
      }
    }
    const optionValue = (name: string): string => {
      const row = tables.find((t) => t.table === 'wp_options')!.rows.find((r) => r[1] === name);
      assert.ok(row, `option ${name}`);
      return row[2] as string;
    };

    it(`round-trips all ${serialized.length} serialized values byte for byte`, () => {
      // 27 options (wp_user_roles, rewrite_rules, cron, widgets...) + 18 usermeta (capabilities, app passwords, session tokens).
      assert.equal(serialized.length, 45);
      assert.equal(serialized.filter((s) => s.table === 'wp_options').length, 27);
      assert.equal(serialized.filter((s) => s.table === 'wp_usermeta').length, 18);
      for (const { value } of serialized) {
        const parsed = unserialize(value);
        assert.notEqual(parsed, undefined, value.slice(0, 80));
        assert.equal(serialize(parsed), value);
      }
    });

    it('reads wp_user_roles: roles with names and boolean capabilities', () => {
      const roles = unserialize(optionValue('wp_user_roles')) as PhpValue;
      assert.ok(roles instanceof PhpArray);
      assert.deepEqual([...roles.keys()].slice(0, 5), ['administrator', 'editor', 'author', 'contributor', 'subscriber']);
      assert.equal(phpGet(phpGet(roles, 'administrator'), 'name'), 'Administrator');
      assert.equal(phpGet(phpGet(phpGet(roles, 'administrator'), 'capabilities'), 'svc_manage'), true);
      assert.equal(phpGet(phpGet(phpGet(roles, 'support_agent'), 'capabilities'), 'svc_work_tickets'), true);
    });

    it('reads cron with its int timestamp keys in stored order and the version entry last', () => {
      const cron = unserialize(optionValue('cron'));
      assert.ok(cron instanceof PhpArray);
      const keys = [...cron.keys()];
      assert.equal(keys[keys.length - 1], 'version');
      assert.ok(keys.slice(0, -1).every((k) => typeof k === 'number'));
      assert.equal(cron.get('version'), 2);
    });

    it('reads rewrite_rules whose regex keys contain backslashes (byte lengths count them once)', () => {
      const rules = unserialize(optionValue('rewrite_rules'));
      assert.ok(rules instanceof PhpArray);
      assert.equal(rules.size, 93);
      assert.equal(rules.get('^wp-sitemap\\.xml$'), 'index.php?sitemap=index');
    });
  });
});
