/**
 * The worker-thread renderer (docs/changelogs.md "Rendering"): what it calls plain, which is stored
 * for good, is only a note too slow in the worker itself; a note its caller's deadline left unrendered
 * (waiting behind another note, or cut short) gets no view at all, so that no caller stores it plain.
 */
import assert from 'node:assert/strict';
import { performance } from 'node:perf_hooks';
import { renderNotes } from '../../../../lib/support/changelogs/renderer';

/** About 32 KB that marked takes seconds on (issue 27). */
const SLOW_NOTE = `- ${'_a'.repeat(16_384)}`;
const QUICK_NOTE = 'Fixed *the* bug.';

describe('changelogs: the renderer', function () {
  this.timeout(30_000);

  it('gives no view for a note its deadline cuts short, where the same note without one gets a view', async () => {
    assert.equal(await renderNotes(SLOW_NOTE, performance.now() + 100), null);
    // Rendered or plain depending on the machine (marked takes 1 to 4 s on it).
    assert.ok((await renderNotes(SLOW_NOTE))?.html.includes('_a'));
  });

  it('gives no view for a note whose deadline passed while it waited, and renders one that waited without a deadline', async () => {
    const slow = renderNotes(SLOW_NOTE);
    const late = renderNotes(QUICK_NOTE, performance.now() + 50);
    const waited = renderNotes(QUICK_NOTE);
    assert.equal(await late, null);
    const view = await waited;
    assert.equal(view?.plain, false);
    assert.match(view?.html ?? '', /Fixed <em>the<\/em> bug\./);
    assert.ok((await slow)?.html.includes('_a'));
  });
});
