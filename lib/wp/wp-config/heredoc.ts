/**
 * PHP heredoc (`<<<ID`, `<<<"ID"`) and nowdoc (`<<<'ID'`) literals for the wp-config tokenizer, kept apart
 * from the other string forms because of their closing-marker and indentation rules.
 */
import { ByteBuilder, QuotedString, decodeEscape } from './strings';
import { IDENT_START } from './token';

const HEREDOC_RE = /<<<[ \t]*(["']?)([A-Za-z_\u0080-\uffff][A-Za-z0-9_\u0080-\uffff]*)\1\r?\n/y;

/** `<<<ID` / `<<<"ID"` (heredoc) or `<<<'ID'` (nowdoc), PHP 7.3 flexible closing marker. */
export function scanHeredoc(src: string, at: number): QuotedString | undefined {
  HEREDOC_RE.lastIndex = at;
  const m = HEREDOC_RE.exec(src);
  if (!m) return undefined;
  const nowdoc = m[1] === "'";
  const id = m[2];
  const bodyStart = at + m[0].length;
  const closeRe = new RegExp(`^([ \\t]*)${id}(?![A-Za-z0-9_\\u0080-\\uffff])`);
  let lineStart = bodyStart;
  while (lineStart <= src.length) {
    const close = closeRe.exec(src.slice(lineStart, lineStart + id.length + 200));
    if (close) {
      const indent = close[1];
      const raw = lineStart > bodyStart ? src.slice(bodyStart, lineStart).replace(/\r?\n$/, '') : '';
      const lines = raw.split('\n').map((line) => (line.startsWith(indent) ? line.slice(indent.length) : line.trimStart()));
      const body = lines.join('\n');
      const end = lineStart + close[0].length;
      if (nowdoc) return { end, value: body, dynamic: false };
      return { ...decodeHeredocBody(body), end };
    }
    const nl = src.indexOf('\n', lineStart);
    if (nl < 0) break;
    lineStart = nl + 1;
  }
  return undefined;
}

function decodeHeredocBody(body: string): { value: string; dynamic: boolean } {
  const bytes = new ByteBuilder();
  let dynamic = false;
  let i = 0;
  while (i < body.length) {
    const c = body[i];
    if (c === '\\') {
      i = decodeEscape(body, i, null, bytes);
    } else if ((c === '$' && (body[i + 1] === '{' || IDENT_START.test(body[i + 1] ?? ''))) || (c === '{' && body[i + 1] === '$')) {
      dynamic = true;
      i++;
    } else {
      bytes.text(c);
      i++;
    }
  }
  return { value: bytes.toString(), dynamic };
}
