/** The HTML report: self-contained, and every captured value escaped (captured bodies are untrusted). */
import assert from 'node:assert/strict';
import { escapeHtml, htmlReport } from '../../../../lib/replay/report/html';
import { sampleReport } from './fixture';

describe('HTML report', () => {
  const html = htmlReport(sampleReport());

  it('escapes names, URLs and bodies, so nothing captured becomes markup', () => {
    assert.ok(!html.includes('<script>alert(1)</script>'));
    assert.ok(!html.includes('<img src=x'));
    assert.ok(!html.includes('?a=<b>'));
    assert.ok(html.includes('&#60;script&#62;alert(1)&#60;/script&#62; me'));
    assert.ok(html.includes('&#60;/pre&#62;&#60;img src=x onerror=alert(1)&#62;'));
    assert.equal(escapeHtml(`&<>"'`), '&#38;&#60;&#62;&#34;&#39;');
  });

  it('needs nothing from outside and runs no script', () => {
    assert.ok(!/<script|<link|src="http|href="http/i.test(html));
    assert.match(html, /Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'"/);
  });

  it('shows the summary, the route table and one section per exchange that did not match', () => {
    assert.match(html, /1 matched, 1 differed, 1 failed, 1 excluded/);
    assert.match(html, /<td>\/wp\/v2\/users\/me<\/td><td>1<\/td><td>1<\/td><td>0<\/td><td>0<\/td>/);
    assert.equal(html.match(/<details/g)?.length, 2);
    assert.match(html, /failed: socket hang up/);
  });
});
