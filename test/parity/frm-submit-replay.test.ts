/**
 * `frm_form_submit` errors as the PHP plugin answers them: fixtures/captures/contract/frm-submit-errors.json
 * holds submissions as the plugin's own script sends them (no `_frm_detail`), written by hand with the
 * answers the contract and the family's source (Core Forms' get_response_for_error_code()) give:
 * `{"message":{…}}` and nothing else. Replayed through `understudy replay` against
 * Understudy over the oracle site (with the two forms the capture names), every exchange matches, byte
 * for byte; the same requests with the form script's `_frm_detail=1` differ only by `error` and `fields`.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { Exchange, parseCapture } from '../../lib/replay/capture';
import { compileRules } from '../../lib/replay/rules';
import { runReplay } from '../../lib/replay/runner';
import { sendCaptured } from '../../lib/replay/send';
import { Site } from '../../lib/wp/site';
import { cli } from '../cli/cli-harness';
import { insertFormRow, submissionRows } from '../harness/forms';
import { RunningOracle, startOracleServer } from '../harness/running-oracle';

const CAPTURE = path.resolve(__dirname, '../../fixtures/captures/contract/frm-submit-errors.json');

/** The forms the capture was taken from, with the IDs it names. */
const FORMS = [
  { id: 90001, settings: { required_fields: 'name,email', email_fields: 'email' } },
  {
    id: 90002,
    settings: { required_fields: 'interests, address[city]', email_fields: 'email' },
    messages: { required_field_missing: 'Bitte füllen Sie alle Pflichtfelder aus.', invalid_email: 'E-Mail/Adresse ungültig.' },
  },
];

/** Writes a form as the plugin left it, then gives it the ID the capture names (posts and postmeta). */
async function formWithId(site: Site, id: number, row: Parameters<typeof insertFormRow>[1]): Promise<void> {
  const { knex, tables } = site.db;
  const made = await insertFormRow(site, row);
  await knex(tables.posts).where({ ID: made }).update({ ID: id });
  await knex(tables.postmeta).where({ post_id: made }).update({ post_id: id });
}

/** The request with `_frm_detail=1` added, as the form script sends it. */
function withDetail(exchange: Exchange): Exchange {
  const type = exchange.request.headers.find(([n]) => n.toLowerCase() === 'content-type')?.[1] ?? '';
  const boundary = /boundary=(.+)$/.exec(type)?.[1];
  const body = exchange.request.body ?? '';
  const detailed = boundary
    ? `--${boundary}\r\nContent-Disposition: form-data; name="_frm_detail"\r\n\r\n1\r\n${body}`
    : `${body}&_frm_detail=1`;
  return { ...exchange, request: { ...exchange.request, body: detailed } };
}

describe('frm_form_submit errors shaped as the PHP plugin answers them, replayed', () => {
  let running: RunningOracle;
  const exchanges = parseCapture(fs.readFileSync(CAPTURE, 'utf8'));

  before(async () => {
    running = await startOracleServer();
    for (const form of FORMS) await formWithId(running.oracle.site, form.id, { settings: form.settings, messages: form.messages });
  });
  after(() => running.close());

  it('holds validation errors of both forms, form-encoded and multipart, and a spam answer', () => {
    const bodies = exchanges.map((e) => JSON.parse(e.response.body ?? ''));
    assert.ok(exchanges.length >= 7);
    assert.ok(bodies.filter((b) => b.message.type === 'error').every((b) => Object.keys(b).join() === 'message'), 'the message object only');
    assert.ok(exchanges.some((e) => e.request.headers.some(([n, v]) => n === 'Content-Type' && v.startsWith('multipart/'))));
  });

  it('matches every exchange through `understudy replay`, with 0 differences', async () => {
    const run = await cli(['replay', CAPTURE, `--target=${running.url}`], {});
    assert.equal(run.status, 0, run.stdout + run.stderr);
    const n = exchanges.length;
    assert.equal(run.stdout.split('\n')[0], `Replayed ${n} exchanges against ${running.url}: ${n} matched, 0 differed, 0 failed, 0 excluded`);
    assert.match(run.stdout, new RegExp(`^admin-ajax:frm_form_submit\\s+${n}\\s+0\\s+0\\s+0$`, 'm'));
  });

  it('answers with the captured bytes, not only the same data', async () => {
    for (const exchange of exchanges) {
      const answer = await sendCaptured(exchange.request, running.url);
      assert.equal(answer.status, exchange.response.status, exchange.name);
      assert.equal(answer.body, exchange.response.body, exchange.name);
    }
    const spam = (await submissionRows(running.oracle.site, 90001)).filter((r) => r.is_spam === 1);
    assert.ok(spam.length >= 1, 'the spam exchange was recorded as spam');
    assert.equal((await submissionRows(running.oracle.site, 90002)).length, 0, 'no validation error stored anything');
  });

  it("gives the form script's own requests (_frm_detail=1) the code and the fields: the only differences", async () => {
    const errors = exchanges.filter((e) => JSON.parse(e.response.body ?? '').message.type === 'error');
    const report = await runReplay(errors.map(withDetail), { target: running.url, rules: compileRules({}) });
    assert.equal(report.totals.differed, errors.length);
    for (const result of report.results) {
      assert.deepEqual(result.diffs.map((d) => [d.where, d.expected]), [['body.error', '(absent)'], ['body.fields', '(absent)']], result.name);
    }
    const first = await sendCaptured(withDetail(errors[0] as Exchange).request, running.url);
    assert.deepEqual(JSON.parse(first.body), {
      message: { type: 'error', text: 'Please fill in the required fields.' }, error: 'required_field_missing', fields: ['name'],
    });
  });
});
