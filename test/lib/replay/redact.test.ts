/** Redaction: secrets disappear from every value a report shows. */
import assert from 'node:assert/strict';
import { REDACTED, Redactor } from '../../../lib/replay/redact';

describe('Redactor', () => {
  const redactor = new Redactor(['agent1:secret-pass', 'secret-pass', 'ab'], [/^[0-9a-f]{10}$/]);

  it('hides known secrets wherever they appear, longest first, but not strings too short to be secrets', () => {
    assert.equal(redactor.text('user agent1:secret-pass here'), `user ${REDACTED} here`);
    assert.equal(redactor.text('only secret-pass'), `only ${REDACTED}`);
    assert.equal(redactor.text('about'), 'about');
  });

  it('hides whole values shaped like a secret (a fresh nonce the target made)', () => {
    assert.equal(redactor.text('0123456789'), REDACTED);
    assert.equal(redactor.text('01234567890'), '01234567890');
  });

  it('hides credential headers in differences whatever their value, but keeps "(absent)"', () => {
    assert.deepEqual(redactor.difference({ where: 'header set-cookie', expected: 'a=b', actual: '(absent)' }), {
      where: 'header set-cookie', expected: REDACTED, actual: '(absent)',
    });
    assert.deepEqual(redactor.difference({ where: 'body.name', expected: 'x secret-pass', actual: 'y' }), {
      where: 'body.name', expected: `x ${REDACTED}`, actual: 'y',
    });
  });
});
