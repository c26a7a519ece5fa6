/**
 * One mailbox (RFC 5322 section 3.4), read strictly: a bare addr-spec, or a display name and one
 * addr-spec in angle brackets, with nothing else around them but whitespace and comments. Loose
 * parsers (mailparser's, nodemailer's) repair what they are given: `<a@good.test>@evil.test` comes out
 * as a@good.test, while a relay checking the sender's domain reads evil.test. When readers can
 * disagree about who a message is from, it is from no one we can name, so such a value is refused,
 * not repaired. Used for the From of incoming mail and for every address of outgoing mail.
 */

export interface Mailbox {
  /** The display name as written (quotes and escapes removed, encoded-words left encoded); may be ''. */
  name: string;
  address: string;
}

/** atext (RFC 5322 3.2.3) and, for internationalized addresses (RFC 6532), any non-ASCII character. */
const ATEXT = "[A-Za-z0-9!#$%&'*+/=?^_`{|}~\\-\\u0080-\\uffff]";
const LABEL = '[A-Za-z0-9\\u0080-\\uffff](?:[A-Za-z0-9\\-\\u0080-\\uffff]*[A-Za-z0-9\\u0080-\\uffff])?';
/** An address literal of RFC 5321 (`[192.0.2.1]`, `[IPv6:::1]`): WordPress's own sender on such a host. */
const ADDRESS_LITERAL = '\\[(?:IPv6:)?[0-9A-Fa-f:.]+\\]';
/**
 * A dot-atom local part at a host name or address literal. Quoted local parts, general domain
 * literals and source routes are valid RFC 5322, but no WordPress user can have them (is_email()
 * refuses them) and they are where parsers disagree.
 */
const ADDR_SPEC = new RegExp(`^${ATEXT}+(?:\\.${ATEXT}+)*@(?:${LABEL}(?:\\.${LABEL})*|${ADDRESS_LITERAL})$`);
const QUOTED_STRING = /"(?:[^"\\]|\\.)*"/g;
/** What a phrase may hold outside quoted strings: atoms, the dots old mailers leave unquoted (RFC 5322 obs-phrase), spaces. */
const PHRASE_REST = new RegExp(`^(?:${ATEXT}|[.\\s])*$`);
const MAX_LOCAL = 64;
const MAX_ADDRESS = 254;

/** The one mailbox `value` names, or null when it is not exactly one cleanly written mailbox. */
export function parseMailbox(value: string): Mailbox | null {
  // Folding is undone by the caller; a line break still here would end the header.
  if (/[\x00-\x08\x0a-\x1f\x7f]/.test(value)) return null;
  const text = withoutComments(value);
  if (text === null) return null;
  const angle = angleBrackets(text);
  if (angle === null) return null;
  if (angle === 'none') return addrSpec(text.trim()) ? { name: '', address: text.trim() } : null;
  const phrase = text.slice(0, angle.open);
  const inside = text.slice(angle.open + 1, angle.close);
  const after = text.slice(angle.close + 1);
  if (after.trim() !== '' || !addrSpec(inside) || !isPhrase(phrase)) return null;
  return { name: displayName(phrase), address: inside };
}

/** Whether `value` is a bare address of the shape parseMailbox accepts. */
export function isCleanAddress(value: string): boolean {
  return addrSpec(value);
}

function addrSpec(value: string): boolean {
  // Length first: the pattern is only ever run over an address-sized string.
  return value.length <= MAX_ADDRESS && ADDR_SPEC.test(value) && value.lastIndexOf('@') <= MAX_LOCAL;
}

/** A display name: words (atoms, quoted strings) and nothing that could start another address, a group or a route. */
function isPhrase(text: string): boolean {
  return PHRASE_REST.test(text.replace(QUOTED_STRING, ' '));
}

/**
 * The value with each comment (nested parentheses, backslash escapes) replaced by a space, so that a
 * comment inside an address splits it; null when a comment or quoted string is left open.
 */
function withoutComments(value: string): string | null {
  let out = '';
  let depth = 0;
  let quoted = false;
  for (let i = 0; i < value.length; i++) {
    const ch = value[i] as string;
    if (ch === '\\' && (quoted || depth > 0)) {
      if (i + 1 >= value.length) return null;
      if (quoted) out += ch + value[i + 1];
      i++;
    } else if (depth > 0) {
      if (ch === '(') depth++;
      else if (ch === ')' && --depth === 0) out += ' ';
    } else if (quoted) {
      out += ch;
      if (ch === '"') quoted = false;
    } else if (ch === '(') {
      depth = 1;
    } else if (ch === ')') {
      return null;
    } else {
      out += ch;
      if (ch === '"') quoted = true;
    }
  }
  return depth === 0 && !quoted ? out : null;
}

/**
 * Where the one pair of angle brackets outside quoted strings is: 'none' when there is none, null
 * when there are several, or one without its partner.
 */
function angleBrackets(text: string): { open: number; close: number } | 'none' | null {
  const opens: number[] = [];
  const closes: number[] = [];
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted && ch === '\\') i++;
    else if (ch === '"') quoted = !quoted;
    else if (!quoted && ch === '<') opens.push(i);
    else if (!quoted && ch === '>') closes.push(i);
  }
  if (!opens.length && !closes.length) return 'none';
  const [open] = opens;
  const [close] = closes;
  if (opens.length !== 1 || closes.length !== 1 || open === undefined || close === undefined || close < open) return null;
  return { open, close };
}

/** A phrase as text: quoted strings unquoted, runs of whitespace made one space. */
function displayName(phrase: string): string {
  return phrase.replace(QUOTED_STRING, (quoted) => quoted.slice(1, -1).replace(/\\(.)/g, '$1')).replace(/\s+/g, ' ').trim();
}
