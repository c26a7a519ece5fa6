import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import bcrypt from 'bcryptjs';
import {
  BCRYPT_COST,
  MAX_PASSWORD_BYTES,
  checkApplicationPassword,
  checkPassword,
  hashEquals,
  hashPassword,
  makePhpassHash,
  needsRehash,
  normalizeApplicationPassword,
  passFrag,
  phpassHash,
  wpFastHash,
  wpPrehash,
} from '../../../lib/wp/passwords';
import { phpTrim } from '../../../lib/wp/formatting/php';
import { oracleFile } from '../../harness/oracle-files';

interface PasswordHashVector {
  format: 'wp-bcrypt' | 'bcrypt' | 'md5';
  source: string;
  hash_input: string;
  hash: string;
  accepts: string[];
  rejects: string[];
  note: string;
}
interface PhpassVector {
  source: string;
  password: string;
  setting: string;
  hash: string;
  check_password: boolean;
  note: string;
}
interface Vectors {
  password_hashes: { entries: PasswordHashVector[] };
  phpass: { entries: PhpassVector[] };
  wp_prehash: { entries: { source: string; input: string; output: string }[] };
  wp_fast_hash: { entries: { source: string; input: string; hash: string }[] };
}
interface Credentials {
  users: Record<string, { user_login: string; password: string; user_pass_hash: string }>;
  application_passwords: Record<
    string,
    { user_login: string; password: string; password_chunked: string; password_hash: string }
  >;
}

const vectors = JSON.parse(
  fs.readFileSync(path.resolve(__dirname, '../../../fixtures/hash-vectors/vectors.json'), 'utf8'),
) as Vectors;
const credentials = JSON.parse(
  fs.readFileSync(oracleFile('credentials.json'), 'utf8'),
) as Credentials;

/** Short printable label for a test name. */
function label(s: string): string {
  const j = JSON.stringify(s);
  return j.length > 40 ? j.slice(0, 30) + `…(${s.length} chars)"` : j;
}

// Values real WordPress 7.1 produced (docs/wordpress-compat.md, "Test vectors").
const DOC = {
  md5: { password: 'password', hash: '5f4dcc3b5aa765d61d8327deb882cf99' },
  phpass: [
    { password: 'password', setting: '$P$B12345678', hash: '$P$B12345678Eg2z6eqcenWjcSosVt4mZ.' },
    { password: 'secret-pass', setting: '$P$BabcdefgH', hash: '$P$BabcdefgHrm5p6fSeHYjbUinv0yqqz0' },
    { password: 'pässwörd', setting: '$P$Bsaltsalt', hash: '$P$BsaltsaltgHrfrtamQnuz3Iu9YsgMg0' },
  ],
  phpassH: { password: 'password', setting: '$H$912345678', hash: '$H$9123456788s0mFKXzuyFSE/Gr5G66z0' },
  prehash: { input: 'secret-pass', output: 'SkgOnAyJ+gZREBTAAo307CuIL/JqWFjV8bVv1xetwxVu8oOJ8RSoLqjAA0Whpc62' },
  wpHash: { password: 'secret-pass', hash: '$wp$2y$10$zhWDDb.5.k7ai6W42AJH2uXsJ61B6tPA83n3Wyw7z1ahayDdl6lJK' },
  fastHash: { input: 'S1dtoQXuHccISIBrvOZ3ZrMK', hash: '$generic$anDRSLn1xHpRAyT1dF-x02Pc3woKvAw6i4UHkZys' },
};

describe('lib/wp/passwords', () => {
  describe('vectors.json (independent reference implementation + WordPress 7.1 values)', () => {
    it('contains every format the module handles', () => {
      const formats = new Set(vectors.password_hashes.entries.map((e) => e.format));
      assert.deepEqual([...formats].sort(), ['bcrypt', 'md5', 'wp-bcrypt']);
      assert.ok(vectors.phpass.entries.length >= 8);
      assert.ok(vectors.wp_fast_hash.entries.length >= 5);
      assert.ok(vectors.wp_prehash.entries.length >= 2);
    });

    describe('checkPassword accepts and rejects exactly what the vector says', () => {
      for (const v of vectors.password_hashes.entries) {
        const name = `${v.format} of ${label(v.hash_input)}${v.note ? ` (${v.note})` : ''}${
          v.source.startsWith('docs/') ? ' [WordPress 7.1]' : ''
        }`;
        it(name, async () => {
          assert.ok(v.accepts.length + v.rejects.length > 0);
          for (const p of v.accepts) assert.equal(await checkPassword(p, v.hash), true, `should accept ${label(p)}`);
          for (const p of v.rejects) assert.equal(await checkPassword(p, v.hash), false, `should reject ${label(p)}`);
        });
      }
    });

    describe('phpassHash reproduces each phpass vector, and checkPassword agrees with 6.8+', () => {
      for (const v of vectors.phpass.entries) {
        it(`${v.setting} of ${label(v.password)} → ${v.check_password ? 'accepted' : 'rejected'}${
          v.note ? ` (${v.note})` : ''
        }`, async () => {
          assert.equal(phpassHash(v.password, v.setting), v.hash);
          assert.equal(await checkPassword(v.password, v.hash), v.check_password);
          assert.equal(await checkPassword(v.password + 'x', v.hash), false);
        });
      }
    });

    it('wpPrehash matches every pre-hash vector', () => {
      for (const v of vectors.wp_prehash.entries) assert.equal(wpPrehash(v.input), v.output, label(v.input));
    });

    it('wpFastHash matches every wp_fast_hash vector', () => {
      for (const v of vectors.wp_fast_hash.entries) assert.equal(wpFastHash(v.input), v.hash, label(v.input));
    });

    it('checkApplicationPassword accepts each $generic$ vector input and rejects a changed input', async () => {
      for (const v of vectors.wp_fast_hash.entries) {
        assert.equal(await checkApplicationPassword(v.input, v.hash), true, label(v.input));
        assert.equal(await checkApplicationPassword(v.input + 'A', v.hash), false, label(v.input));
      }
    });
  });

  describe('compat-doc vectors (made by WordPress 7.1)', () => {
    it('legacy MD5 hash of "password" verifies; "Password" does not', async () => {
      assert.equal(await checkPassword(DOC.md5.password, DOC.md5.hash), true);
      assert.equal(await checkPassword('Password', DOC.md5.hash), false);
    });

    it('phpass $P$B hashes are reproduced and verify (including UTF-8)', async () => {
      for (const v of DOC.phpass) {
        assert.equal(phpassHash(v.password, v.setting), v.hash);
        assert.equal(await checkPassword(v.password, v.hash), true, v.password);
        assert.equal(await checkPassword(v.password.toUpperCase(), v.hash), false, v.password);
      }
    });

    it('$H$ hash is computed correctly by phpassHash but rejected by checkPassword', async () => {
      assert.equal(phpassHash(DOC.phpassH.password, DOC.phpassH.setting), DOC.phpassH.hash);
      assert.equal(await checkPassword(DOC.phpassH.password, DOC.phpassH.hash), false);
    });

    it('$wp pre-hash of "secret-pass"', () => {
      assert.equal(wpPrehash(DOC.prehash.input), DOC.prehash.output);
      assert.equal(DOC.prehash.output.length, 64);
    });

    it('$wp$2y$10$ hash of "secret-pass" verifies; near misses do not', async () => {
      assert.equal(await checkPassword(DOC.wpHash.password, DOC.wpHash.hash), true);
      assert.equal(await checkPassword('secret-pasS', DOC.wpHash.hash), false);
      assert.equal(await checkPassword(' secret-pass', DOC.wpHash.hash), false);
    });

    it('wp_fast_hash of "S1dtoQXuHccISIBrvOZ3ZrMK"', async () => {
      assert.equal(wpFastHash(DOC.fastHash.input), DOC.fastHash.hash);
      assert.equal(await checkApplicationPassword(DOC.fastHash.input, DOC.fastHash.hash), true);
    });
  });

  describe('checkPassword', () => {
    it('rejects a wrong password for every format', async () => {
      const phpass = makePhpassHash('right-one', 8);
      const wp = await hashPassword('right-one');
      const plain = await bcrypt.hash('right-one', '$2y$04$' + 'abcdefghijklmnopqrstuu');
      const cases: [string, string][] = [
        ['md5', crypto.createHash('md5').update('right-one').digest('hex')],
        ['$P$', phpass],
        ['$wp', wp],
        ['$2y$', plain],
      ];
      for (const [fmt, hash] of cases) {
        assert.equal(await checkPassword('right-one', hash), true, fmt);
        assert.equal(await checkPassword('wrong-one', hash), false, fmt);
      }
    });

    it('rejects every $H$ hash, even one phpass itself would accept', async () => {
      const setting = '$H$Babcdefgh';
      const hash = phpassHash('pw', setting);
      assert.match(hash, /^\$H\$B[./0-9A-Za-z]{30}$/);
      // Same salt and cost under $P$ is accepted, so only the identifier decides.
      assert.equal('$P$' + hash.slice(3), phpassHash('pw', '$P$Babcdefgh'));
      assert.equal(await checkPassword('pw', '$P$' + hash.slice(3)), true);
      assert.equal(await checkPassword('pw', hash), false);
    });

    it('rejects passwords over 4096 bytes for $P$ hashes, measuring bytes not characters', async () => {
      const atLimit = 'a'.repeat(MAX_PASSWORD_BYTES);
      const overLimit = 'a'.repeat(MAX_PASSWORD_BYTES + 1);
      const wideOver = 'é'.repeat(2049); // 2049 chars, 4098 bytes
      assert.equal(await checkPassword(atLimit, makePhpassHash(atLimit, 7)), true);
      const overHash = makePhpassHash(overLimit, 7);
      assert.equal(phpassHash(overLimit, overHash), overHash); // the hash itself is right…
      assert.equal(await checkPassword(overLimit, overHash), false); // …but the length check wins
      assert.equal(await checkPassword(wideOver, makePhpassHash(wideOver, 7)), false);
    });

    it('rejects passwords over 4096 bytes for $wp and plain bcrypt hashes', async () => {
      const overLimit = 'b'.repeat(MAX_PASSWORD_BYTES + 1);
      const wpHash = '$wp' + (await bcrypt.hash(wpPrehash(overLimit), '$2y$04$abcdefghijklmnopqrstuu'));
      assert.equal(await bcrypt.compare(wpPrehash(overLimit), wpHash.slice(3)), true);
      assert.equal(await checkPassword(overLimit, wpHash), false);
      const plain = await bcrypt.hash(overLimit, '$2y$04$abcdefghijklmnopqrstuu');
      assert.equal(await checkPassword(overLimit, plain), false);
      assert.equal(await checkPassword(overLimit.slice(0, 72), plain), true); // bcrypt truncation, within limit
    });

    it('checks short (MD5) hashes before the length limit, as WordPress does', async () => {
      const huge = 'c'.repeat(MAX_PASSWORD_BYTES * 2);
      const md5 = '5f4dcc3b5aa765d61d8327deb882cf99'; // md5("password"), for shape only
      assert.equal(await checkPassword(huge, md5), false);
      const hugeMd5 = crypto.createHash('md5').update(huge).digest('hex');
      assert.equal(await checkPassword(huge, hugeMd5), true);
    });

    it('returns false (not an exception) for hashes it cannot read', async () => {
      const unreadable = [
        '',
        '*',
        '*0',
        '$wp',
        '$wp$2y$10$short',
        '$wp$2x$10$zhWDDb.5.k7ai6W42AJH2uXsJ61B6tPA83n3Wyw7z1ahayDdl6lJK',
        '$wp$2y$03$zhWDDb.5.k7ai6W42AJH2uXsJ61B6tPA83n3Wyw7z1ahayDdl6lJK',
        '$2y$10$zhWDDb.5.k7ai6W42AJH2uXsJ61B6tPA83n3Wyw7z1ahayDdl6lJ!',
        '$P$4abcdefghXp2jJlFNGMUZm9UQjL4QM/',
        '$P$Babc',
        '$argon2id$v=19$m=65536,t=4,p=1$c29tZXNhbHQ$RdescudvJCsgt3ub+b+dWRWJTmaaJObG',
        '$1$saltsalt$qjXMvbEw8oaL.CzflDugX/',
      ];
      for (const hash of unreadable) assert.equal(await checkPassword('password', hash), false, hash);
    });

    it('does not trim the password it checks', async () => {
      const hash = makePhpassHash('pw', 7);
      assert.equal(await checkPassword('pw', hash), true);
      assert.equal(await checkPassword(' pw', hash), false);
      assert.equal(await checkPassword('pw\n', hash), false);
    });
  });

  describe('hashPassword', () => {
    it('produces a 63-char $wp$2y$10$ hash that verifies and does not accept other passwords', async () => {
      const hash = await hashPassword('correct horse');
      assert.equal(hash.length, 63);
      assert.match(hash, /^\$wp\$2y\$10\$[./A-Za-z0-9]{53}$/);
      assert.equal(await checkPassword('correct horse', hash), true);
      assert.equal(await checkPassword('correct horsE', hash), false);
      assert.equal(BCRYPT_COST, 10);
    });

    it('hashes the HMAC-SHA384 pre-hash with bcrypt (checked directly with bcryptjs)', async () => {
      const hash = await hashPassword('pässwörd');
      assert.equal(await bcrypt.compare(wpPrehash('pässwörd'), hash.slice(3)), true);
      assert.equal(await bcrypt.compare('pässwörd', hash.slice(3)), false);
    });

    it('uses a fresh salt every time', async () => {
      const [a, b] = await Promise.all([hashPassword('same'), hashPassword('same')]);
      assert.notEqual(a, b);
    });

    it('trims the password with PHP trim() semantics before hashing', async () => {
      const spaced = await hashPassword('  spaced out \t\r\n\0\x0B');
      assert.equal(await checkPassword('spaced out', spaced), true);
      assert.equal(await checkPassword('  spaced out \t\r\n\0\x0B', spaced), false);
      const nbsp = await hashPassword('\u00a0nbsp\u00a0');
      assert.equal(await checkPassword('\u00a0nbsp\u00a0', nbsp), true);
      assert.equal(await checkPassword('nbsp', nbsp), false);
    });

    it('lets bytes past 72 count, unlike plain bcrypt', async () => {
      const base = 'x'.repeat(72);
      const hash = await hashPassword(base + 'one');
      assert.equal(await checkPassword(base + 'one', hash), true);
      assert.equal(await checkPassword(base + 'two', hash), false);
    });

    it('returns "*" for passwords over 4096 bytes, and "*" never verifies', async () => {
      const over = 'd'.repeat(MAX_PASSWORD_BYTES + 1);
      assert.equal(await hashPassword(over), '*');
      assert.equal(await hashPassword('é'.repeat(2049)), '*');
      assert.equal(await checkPassword(over, '*'), false);
      assert.equal(await checkPassword('', '*'), false);
      assert.match(await hashPassword('d'.repeat(MAX_PASSWORD_BYTES)), /^\$wp\$2y\$10\$/);
    });
  });

  describe('needsRehash', () => {
    it('is true for every hash that is not $wp-prefixed', () => {
      for (const hash of [
        DOC.md5.hash,
        DOC.phpass[0]!.hash,
        DOC.phpassH.hash,
        DOC.wpHash.hash.slice(3), // the same bcrypt without $wp
        '$argon2id$v=19$m=65536,t=4,p=1$c29tZXNhbHQ$RdescudvJCsgt3ub+b+dWRWJTmaaJObG',
        '',
      ]) {
        assert.equal(needsRehash(hash), true, hash);
      }
    });

    it('is false for $wp$2y$10$ hashes and true for another cost or revision', async () => {
      assert.equal(needsRehash(DOC.wpHash.hash), false);
      assert.equal(needsRehash(await hashPassword('x')), false);
      assert.equal(needsRehash(DOC.wpHash.hash.replace('$10$', '$12$')), true);
      assert.equal(needsRehash(DOC.wpHash.hash.replace('$10$', '$12$'), 12), false);
      assert.equal(needsRehash(DOC.wpHash.hash.replace('$2y$', '$2b$')), true);
    });
  });

  describe('passFrag', () => {
    it('takes the last 4 characters of $wp hashes', () => {
      assert.equal(passFrag(DOC.wpHash.hash), '6lJK');
    });

    it('takes characters 8..12 of $P$ hashes', () => {
      assert.equal(passFrag('$P$BhQE99EU/M8XGbeIoFV0z6umzd2cN1/'), '9EU/');
      assert.equal(passFrag(DOC.phpass[0]!.hash), '5678');
    });

    it('takes characters 8..12 of plain $2y$ hashes but the last 4 of $2b$/$2a$', () => {
      const inner = DOC.wpHash.hash.slice(3); // $2y$10$zhWDDb.5...
      assert.equal(passFrag(inner), 'hWDD');
      assert.equal(passFrag(inner.replace('$2y$', '$2b$')), '6lJK');
      assert.equal(passFrag(inner.replace('$2y$', '$2a$')), '6lJK');
    });

    it('takes the last 4 characters of MD5, argon2 and short values', () => {
      assert.equal(passFrag(DOC.md5.hash), 'cf99');
      assert.equal(passFrag('$argon2id$v=19$m=65536,t=4,p=1$c29tZXNhbHQ$RdescudvJCsgt3ub+b+dWRWJTmaaJObG'), 'JObG');
      assert.equal(passFrag('*'), '*');
      assert.equal(passFrag(''), '');
    });

    it('changes when a phpass hash is rehashed to $wp (old cookies stop working)', async () => {
      const old = credentials.users.admin!.user_pass_hash;
      const rehashed = await hashPassword(credentials.users.admin!.password);
      assert.notEqual(passFrag(old), passFrag(rehashed));
      assert.equal(passFrag(rehashed), rehashed.slice(-4));
    });
  });

  describe('phpass helpers', () => {
    it('makePhpassHash writes $P$B + 8-char salt + 22 chars (34) and verifies', async () => {
      const hash = makePhpassHash('seed me');
      assert.match(hash, /^\$P\$B[./0-9A-Za-z]{30}$/);
      assert.equal(hash.length, 34);
      assert.equal(phpassHash('seed me', hash), hash);
      assert.equal(await checkPassword('seed me', hash), true);
      assert.equal(await checkPassword('seed mE', hash), false);
    });

    it('makePhpassHash uses a random salt and the requested cost letter', () => {
      assert.notEqual(makePhpassHash('x', 7), makePhpassHash('x', 7));
      assert.equal(makePhpassHash('x', 7)[3], '5');
      assert.equal(makePhpassHash('x', 11)[3], '9');
      assert.throws(() => makePhpassHash('x', 6), RangeError);
      assert.throws(() => makePhpassHash('x', 31), RangeError);
    });

    it('phpassHash returns the failure marker for bad settings', () => {
      assert.equal(phpassHash('x', '$P$4abcdefgh'), '*0'); // log2 6
      assert.equal(phpassHash('x', '$P$Babc'), '*0'); // short salt
      assert.equal(phpassHash('x', '$X$Babcdefgh'), '*0');
      assert.equal(phpassHash('x', '*0whatever..'), '*1');
    });
  });

  describe('application passwords', () => {
    it('wpFastHash is $generic$ + 40 base64url chars (49 in all)', () => {
      const h = wpFastHash('anything');
      assert.equal(h.length, 49);
      assert.match(h, /^\$generic\$[A-Za-z0-9_-]{40}$/);
    });

    it('normalizeApplicationPassword keeps only ASCII letters and digits', () => {
      assert.equal(normalizeApplicationPassword('LLWc r1yG a3Lx sNQh UWmF Y1Cj'), 'LLWcr1yGa3LxsNQhUWmFY1Cj');
      assert.equal(normalizeApplicationPassword(' ab-cd_ef.gh/é+ß\t12 '), 'abcdefgh12');
      assert.equal(normalizeApplicationPassword(''), '');
    });

    it('checkApplicationPassword accepts the normalized chunked form of a $generic$ hash only', async () => {
      const raw = 'abcd EFGH ijkl MNOP qrst 1234';
      const hash = wpFastHash(normalizeApplicationPassword(raw));
      assert.equal(await checkApplicationPassword(normalizeApplicationPassword(raw), hash), true);
      assert.equal(await checkApplicationPassword(raw, hash), false);
      assert.equal(await checkApplicationPassword('abcdEFGHijklMNOPqrst1235', hash), false);
    });

    it('checkApplicationPassword falls back to checkPassword for non-$generic$ hashes', async () => {
      assert.equal(await checkApplicationPassword('secret-pass', DOC.wpHash.hash), true);
      assert.equal(await checkApplicationPassword('password', DOC.md5.hash), true);
      assert.equal(await checkApplicationPassword('password', DOC.phpassH.hash), false);
    });
  });

  describe('real WordPress data (fixtures/oracle/credentials.json, WordPress 6.1.9)', () => {
    const users = Object.values(credentials.users);
    const appPasswords = Object.values(credentials.application_passwords);

    it('has users and application passwords to check', () => {
      assert.ok(users.length >= 6);
      assert.ok(appPasswords.length >= 6);
    });

    for (const user of users) {
      it(`user ${user.user_login}: password verifies against user_pass, a wrong one does not`, async () => {
        assert.equal(await checkPassword(user.password, user.user_pass_hash), true);
        assert.equal(await checkPassword(user.password + '!', user.user_pass_hash), false);
        assert.equal(needsRehash(user.user_pass_hash), true);
      });
    }

    for (const app of appPasswords) {
      it(`application password of ${app.user_login}: plain and chunked forms verify, the account password does not`, async () => {
        assert.equal(await checkApplicationPassword(normalizeApplicationPassword(app.password), app.password_hash), true);
        assert.equal(
          await checkApplicationPassword(normalizeApplicationPassword(app.password_chunked), app.password_hash),
          true,
        );
        const account = credentials.users[app.user_login]!;
        assert.equal(
          await checkApplicationPassword(normalizeApplicationPassword(account.password), app.password_hash),
          false,
        );
        assert.equal(await checkPassword(app.password, account.user_pass_hash), false);
      });
    }
  });

  describe('small helpers', () => {
    it('hashEquals compares exactly, including length and case', () => {
      assert.equal(hashEquals('abc', 'abc'), true);
      assert.equal(hashEquals('abc', 'abd'), false);
      assert.equal(hashEquals('abc', 'abcd'), false);
      assert.equal(hashEquals('ABC', 'abc'), false);
      assert.equal(hashEquals('', ''), true);
    });

    it('phpTrim strips only PHP trim()’s default characters', () => {
      assert.equal(phpTrim(' \t\n\r\0\x0Bx y\x0B\0\r\n\t '), 'x y');
      assert.equal(phpTrim('\u00a0x\u2003'), '\u00a0x\u2003');
      assert.equal(phpTrim('\fx\f'), '\fx\f');
    });
  });
});
