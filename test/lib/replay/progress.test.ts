/** Progress on stderr: a bar redrawn in place on a terminal, a few counter lines anywhere else. */
import assert from 'node:assert/strict';
import { createProgress } from '../../../lib/replay/progress';

function stream(isTTY: boolean, columns = 100) {
  const writes: string[] = [];
  return { writes, isTTY, columns, write: (text: string) => writes.push(text) };
}

describe('progress', () => {
  it('redraws one line on a terminal and clears it when done', () => {
    const out = stream(true);
    const progress = createProgress(out, 4);
    progress.tick('users-me', true);
    progress.tick('rest-nonce', false);
    progress.done();
    assert.equal(out.writes.length, 3);
    assert.ok(out.writes.every((w) => w.startsWith('\r') && !w.includes('\n')));
    assert.match(out.writes[1] as string, /\[############------------\] 2\/4 \(1 not matching\) rest-nonce/);
    assert.equal(out.writes[2], '\r\x1b[K');
  });

  it('keeps a label within the terminal width', () => {
    const out = stream(true, 60);
    createProgress(out, 1).tick('x'.repeat(500), true);
    assert.ok((out.writes[0] as string).replace('\x1b[K', '').length <= 61);
  });

  it('writes about ten counter lines, and the last, when stderr is not a terminal', () => {
    const out = stream(false);
    const progress = createProgress(out, 42);
    for (let i = 0; i < 42; i++) progress.tick(`e${i}`, i !== 7);
    progress.done();
    assert.equal(out.writes.length, 9);
    assert.equal(out.writes.at(-1), 'replay: 42/42 sent, 1 not matching\n');
  });
});
