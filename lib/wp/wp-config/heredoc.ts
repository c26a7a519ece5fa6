/**
 * PHP heredoc (`<<<ID`, `<<<"ID"`) and nowdoc (`<<<'ID'`) literals for the wp-config tokenizer, kept apart
 * from the other string forms because of their closing-marker and indentation rules.
 */
import { ByteBuilder, QuotedString, decodeEscape } from './strings';
import { IDENT_START } from './token';

const HEREDOC_RE = /<<<[ \t]*(["']?)([A-Za-z_\u0080-\uffff][A-Za-z0-9_\u0080-\uffff]*)\1\r?\n/y;

/**
 * Where each identifier stands at the start of a line (after spaces and tabs): the candidates for a
 * heredoc's closing marker. Built once per file on the first heredoc, so that finding (or not finding)
 * a marker costs a lookup instead of a scan of the rest of the file; a file of thousands of unclosed
 * `<<<ID` openers stays linear.
 */
export class ClosingMarkers {
  private readonly byId = new Map<string, number[]>();

  constructor(src: string) {
    const lead = /[ \t]*([A-Za-z0-9_\u0080-\uffff]+)/y;
    for (let lineStart = 0; lineStart <= src.length;) {
      lead.lastIndex = lineStart;
      const m = lead.exec(src);
      if (m) {
        const starts = this.byId.get(m[1] as string);
        if (starts) starts.push(lineStart);
        else this.byId.set(m[1] as string, [lineStart]);
      }
      const nl = src.indexOf('\n', lineStart);
      if (nl < 0) break;
      lineStart = nl + 1;
    }
  }

  /** The first line starting at or after `from` that begins with exactly `id`, or -1. */
  firstLine(id: string, from: number): number {
    const starts = this.byId.get(id);
    if (!starts) return -1;
    let lo = 0;
    let hi = starts.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((starts[mid] as number) < from) lo = mid + 1;
      else hi = mid;
    }
    return lo < starts.length ? (starts[lo] as number) : -1;
  }
}

/** `<<<ID` / `<<<"ID"` (heredoc) or `<<<'ID'` (nowdoc), PHP 7.3 flexible closing marker. */
export function scanHeredoc(src: string, at: number, markers: ClosingMarkers = new ClosingMarkers(src)): QuotedString | undefined {
  HEREDOC_RE.lastIndex = at;
  const m = HEREDOC_RE.exec(src);
  if (!m) return undefined;
  const nowdoc = m[1] === "'";
  const id = m[2];
  const bodyStart = at + m[0].length;
  const lineStart = markers.firstLine(id, bodyStart);
  if (lineStart < 0) return undefined;
  const indentRe = /[ \t]*/y;
  indentRe.lastIndex = lineStart;
  const indent = (indentRe.exec(src) as RegExpExecArray)[0];
  const raw = lineStart > bodyStart ? src.slice(bodyStart, lineStart).replace(/\r?\n$/, '') : '';
  const lines = raw.split('\n').map((line) => (line.startsWith(indent) ? line.slice(indent.length) : line.trimStart()));
  const body = lines.join('\n');
  const end = lineStart + indent.length + id.length;
  if (nowdoc) return { end, value: body, dynamic: false };
  return { ...decodeHeredocBody(body), end };
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
