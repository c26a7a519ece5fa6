/**
 * A user with several application passwords: each stored hash is checked in turn until one matches
 * (a phpass round each), and what each check gave is remembered, failures too, so a client signing
 * in again and again with its third password pays for no hash after the first request. The checks
 * are counted by wrapping WordPress's own check, never timed. Failures are remembered apart from
 * successes, so a flood of wrong guesses cannot push a real client's sign-in out of memory.
 */
import assert from 'node:assert/strict';
import { ApplicationPasswords, REMEMBERED_CHECKS } from '../../../../lib/wp/auth/app-passwords';
import { checkApplicationPassword, makePhpassHash } from '../../../../lib/wp/passwords';
import { userMeta } from '../../../../lib/wp/users';
import { OracleSite, credentials, openOracle } from '../../../harness/oracle';

const agent = credentials.application_passwords.agent1 as { user_login: string; password: string; uuid: string };

describe('application passwords: remembered checks', function () {
  let oracle: OracleSite;
  let checks: Array<{ password: string; hash: string }>;
  let passwords: ApplicationPasswords;
  const request = { secure: true, ip: '203.0.113.9' };
  const signIn = (password: string) => passwords.authenticate({ username: agent.user_login, password }, request);

  before(async () => {
    oracle = await openOracle();
    const user = await oracle.site.users.byLogin(agent.user_login);
    assert.ok(user);
    // Two other application passwords, stored before the one the client uses.
    const others = ['aaaaBBBBccccDDDDeeeeFFFF', 'ggggHHHHiiiiJJJJkkkkLLLL'].map((password, i) => ({
      uuid: `00000000-0000-4000-8000-00000000000${i}`, app_id: '', name: `other ${i}`, password: makePhpassHash(password),
      created: 1, last_used: null, last_ip: null,
    }));
    const mine = Object.values(userMeta(user, '_application_passwords') as Record<string, unknown>);
    await oracle.site.users.updateMeta(user.ID, '_application_passwords', [...others, ...mine]);
  });
  after(async () => { await oracle?.close(); });

  beforeEach(() => {
    checks = [];
    passwords = new ApplicationPasswords(oracle.site.users, oracle.site.options, oracle.site.clock, 'local', async (password, hash) => {
      checks.push({ password, hash });
      return checkApplicationPassword(password, hash);
    });
  });

  it('checks each stored hash once, then signs the same password in again without a hash', async () => {
    const user = await signIn(agent.password);
    assert.equal(user?.user_login, agent.user_login);
    assert.equal(checks.length, 3, 'the two other passwords, then the matching one');
    for (let i = 0; i < 3; i++) assert.equal((await signIn(agent.password))?.user_login, agent.user_login);
    assert.equal(checks.length, 3, 'no hash computed for the requests after the first');
  });

  it('still refuses a wrong password, and remembers that too without remembering it as right', async () => {
    assert.equal(await signIn('wrongWRONGwrongWRONGwron'), null);
    assert.equal(await signIn('wrongWRONGwrongWRONGwron'), null);
    assert.equal(checks.length, 3, 'three hashes for the first try, none for the repeat');
    // Each password tried is its own entry: another wrong one is checked, and the right one still works.
    assert.equal(await signIn('otherOTHERotherOTHERothe'), null);
    assert.equal(checks.length, 6);
    assert.equal((await signIn(agent.password))?.user_login, agent.user_login);
  });

  it('still signs the right password in from memory after more wrong guesses than it remembers', async function () {
    this.timeout(60_000);
    // The guesses are counted like every check but answered without the phpass round (they are
    // wrong whatever the hash), so that thousands of them stay quick.
    passwords = new ApplicationPasswords(oracle.site.users, oracle.site.options, oracle.site.clock, 'local', async (password, hash) => {
      checks.push({ password, hash });
      return password.startsWith('guess') ? false : checkApplicationPassword(password, hash);
    });
    assert.ok(await signIn(agent.password));
    const guesses = Math.ceil(REMEMBERED_CHECKS / 3) + 1;
    for (let i = 0; i < guesses; i++) assert.equal(await signIn(`guess${String(i).padStart(19, '0')}`), null);
    assert.equal(checks.length, 3 + 3 * guesses, 'every guess checked against the three stored hashes');
    assert.equal((await signIn(agent.password))?.user_login, agent.user_login);
    assert.equal(checks.length, 3 + 3 * guesses, 'the right password answered without a hash');
  });

  it('forgets what it remembered when the stored hash changes', async () => {
    assert.ok(await signIn(agent.password));
    const user = await oracle.site.users.byLogin(agent.user_login);
    const items = Object.values(userMeta(user!, '_application_passwords') as Record<string, Record<string, unknown>>);
    const changed = items.map((item) => (item.uuid === agent.uuid ? { ...item, password: makePhpassHash('newNEWnewNEWnewNEWnewNEW') } : item));
    await oracle.site.users.updateMeta(user!.ID, '_application_passwords', changed);
    const before = checks.length;
    assert.equal(await signIn(agent.password), null, 'the old password no longer signs in');
    assert.equal(checks.length - before, 1, 'only the changed hash is checked again');
    assert.ok(await signIn('newNEWnewNEWnewNEWnewNEW'));
  });
});
