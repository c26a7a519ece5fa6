/**
 * Trimming what a reply repeats: the quoted history under it and the sender's signature, so the
 * conversation shows what was newly said (the whole message is kept as `original.eml`). The rules are
 * the layouts mail clients really produce:
 * - an attribution line before a `>`-quoted block: "On <date>, <name> wrote:" and its equivalents in
 *   other languages, also when the client wrapped it over two or three lines;
 * - Outlook's header block ("From: …" followed by "Sent:"/"Date:" …, often under a `____` rule) and
 *   "-----Original Message-----" separators, which quote without `>`;
 * - a trailing `>`-quoted block with no attribution;
 * - the signature after a `-- ` line, and "Sent from my iPhone"-style footers.
 * Bottom-posted replies (the quote first, the answer under it) keep the answer. When trimming would
 * leave nothing, the text is kept whole: losing a message is worse than showing a quote.
 */

const ATTRIBUTION_OPENERS = /^(On|Am|Le|El|Op|Il|Em|Den|På|W dniu|Dne|\d{4}[年/.-])/i;
const ATTRIBUTIONS: RegExp[] = [
  /^On\s.+\swrote:$/i, // English (Gmail, Apple Mail, Thunderbird)
  /^Am\s.+\sschrieb\s?.*:$/i, // German
  /^Le\s.+\sa\sécrit\s?:$/i, // French
  /^El\s.+\sescribió:$/i, // Spanish
  /^Op\s.+\sschreef\s?.*:$/i, // Dutch
  /^Il\s.+\sha\sscritto:$/i, // Italian
  /^Em\s.+\sescreveu:$/i, // Portuguese
  /^(Den|På)\s.+\sskrev\s?.*:$/i, // Swedish, Danish, Norwegian
  /^W dniu\s.+\snapisał[a]?:$/i, // Polish
  /^\d{4}年\d{1,2}月\d{1,2}日.*[:：]$/, // Japanese Gmail: "2025年3月3日(月) 10:00 Name <a@b>:"
  /^.*<[^<>\s]+@[^<>\s]+>.*[:：]$/, // any language: a line naming an address and ending in a colon
];
const ORIGINAL_MESSAGE = /^-{2,}\s*(Original Message|Ursprüngliche Nachricht|Message d'origine|Mensaje original|Messaggio originale|Oorspronkelijk bericht|Originalmeddelande|Mensagem original)\s*-{2,}$/i;
const OUTLOOK_FROM = /^\*?(From|Von|De|Van|Da|Från|Od|Fra|差出人)\s*:\*?\s*\S/i;
const OUTLOOK_DATE = /^\*?(Sent|Date|Gesendet|Datum|Envoyé|Enviado|Verzonden|Inviato|Skickat|Data|Wysłano|送信日時)\s*:/i;
/** The rule Outlook puts above its header block: underscores in text mail, an <hr> (dashes once converted) in HTML mail. */
const OUTLOOK_RULE = /^(_{10,}|-{10,})$/;
const SIGNATURE = /^--\s?$/;
const FOOTERS = /^(Sent from my \S.*|Sent from Mail for Windows.*|Get Outlook for (iOS|Android).*|Von meinem \S+ gesendet|Envoyé de mon \S+|Enviado desde mi \S+)$/i;

export function trimQuoted(text: string): string {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  const kept = dropSignature(dropQuote(lines));
  const trimmed = kept.join('\n').replace(/^\s*\n/, '').trimEnd();
  return trimmed || text.trim();
}

function dropQuote(lines: string[]): string[] {
  const header = findQuoteHeader(lines);
  if (header) {
    const before = lines.slice(0, header.start);
    if (hasContent(before)) return before;
    // Bottom-posted: the quote comes first. Keep what follows it.
    let next = header.end + 1;
    while (next < lines.length && (isQuoted(lines[next]) || isBlank(lines[next]))) next++;
    const after = lines.slice(next);
    return hasContent(after) ? after : lines;
  }
  // No attribution: only a `>` block at the very end is history (inline answers between quotes stay).
  let end = lines.length;
  while (end > 0 && (isQuoted(lines[end - 1]) || isBlank(lines[end - 1]))) end--;
  const quotedTail = lines.slice(end).some(isQuoted);
  return quotedTail && hasContent(lines.slice(0, end)) ? lines.slice(0, end) : lines;
}

/** The first line range that introduces quoted history, or null. */
function findQuoteHeader(lines: string[]): { start: number; end: number } | null {
  for (let i = 0; i < lines.length; i++) {
    const line = (lines[i] as string).trim();
    if (!line || isQuoted(line)) continue;
    if (ORIGINAL_MESSAGE.test(line)) return { start: i, end: i };
    if (OUTLOOK_RULE.test(line) && OUTLOOK_FROM.test(nextNonBlank(lines, i + 1)?.text ?? '')) return outlookBlock(lines, i);
    if (OUTLOOK_FROM.test(line) && isOutlookHeader(lines, i)) return outlookBlock(lines, i);
    const attribution = attributionAt(lines, i);
    if (attribution !== null) return { start: i, end: attribution };
  }
  return null;
}

/** The last line of an attribution starting at `i` (up to three wrapped lines) that a `>` quote follows, or null. */
function attributionAt(lines: string[], i: number): number | null {
  const first = (lines[i] as string).trim();
  for (let span = 0; span < 3 && i + span < lines.length; span++) {
    if (span > 0 && !ATTRIBUTION_OPENERS.test(first)) break;
    const joined = lines.slice(i, i + span + 1).map((l) => l.trim()).join(' ');
    if (ATTRIBUTIONS.some((re) => re.test(joined))) {
      const quote = nextNonBlank(lines, i + span + 1);
      return quote && isQuoted(quote.text) ? i + span : null;
    }
  }
  return null;
}

/** "From:" counts as Outlook's header block when a date line follows within the next four lines. */
function isOutlookHeader(lines: string[], i: number): boolean {
  return lines.slice(i + 1, i + 5).some((l) => OUTLOOK_DATE.test(l.trim()));
}

/** Outlook quotes without `>`: everything from its header block on is the earlier message. */
function outlookBlock(lines: string[], start: number): { start: number; end: number } {
  return { start, end: lines.length - 1 };
}

function dropSignature(lines: string[]): string[] {
  const sig = lines.findIndex((l) => SIGNATURE.test(l));
  let kept = sig > 0 && hasContent(lines.slice(0, sig)) ? lines.slice(0, sig) : lines;
  let end = kept.length;
  while (end > 0 && (isBlank(kept[end - 1]) || FOOTERS.test((kept[end - 1] as string).trim()))) end--;
  if (end < kept.length && hasContent(kept.slice(0, end))) kept = kept.slice(0, end);
  return kept;
}

function nextNonBlank(lines: string[], from: number): { index: number; text: string } | null {
  for (let i = from; i < lines.length; i++) if (!isBlank(lines[i])) return { index: i, text: (lines[i] as string).trim() };
  return null;
}

function isQuoted(line: string | undefined): boolean {
  return /^\s*>/.test(line ?? '');
}

function isBlank(line: string | undefined): boolean {
  return !(line ?? '').trim();
}

function hasContent(lines: string[]): boolean {
  return lines.some((l) => !isBlank(l));
}
