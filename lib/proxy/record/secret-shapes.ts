/**
 * What a credential looks like, for values the recorder cannot tell by where they stand: the names of
 * fields and headers that hold secrets, and the shapes of generated secrets. Shapes match whole values
 * only (a token inside ticket text is not one), except the few that announce themselves (`Bearer …`,
 * a JWT). docs/replay-and-proxy.md lists them, with what they may also catch.
 */

/** Words of a name that make its value a secret (`user_pass`, `clientSecret`, `X-Auth-Token`). */
const SECRET_WORDS = new Set(['pwd', 'pass', 'passwd', 'password', 'passphrase', 'pass1', 'pass2', 'secret', 'token', 'signature', 'apikey', 'otp', 'credential', 'credentials']);

/** `key` names a secret alone or after one of these (`site_key`, `X-Api-Key`), not in `route_key` or `request_key`. */
const KEY_QUALIFIERS = new Set(['api', 'site', 'secret', 'private', 'access', 'license', 'app', 'auth', 'relay', 'reset', 'activation']);

/** Words of a name that make its value a WordPress nonce (`_wpnonce`, `_ajax_nonce`, `_frm_nonce`). */
const NONCE_WORDS = new Set(['nonce', 'wpnonce']);

/** Nonce parameters WordPress names otherwise. */
const NONCE_NAMES = new Set(['security']);

/** Generated secrets are at most this long; longer runs are data (a base64 file in a JSON body). */
const LONGEST_TOKEN = 256;

/** 32 or more hex digits, with letters and digits both (site keys, mailbox tokens, relay secrets, md5s). */
const HEX = /^(?=[0-9a-f]*[a-f])(?=[0-9a-f]*\d)[0-9a-f]{32,}$/i;
/** base64 or base64url (not a path): with upper case, lower case and digits all three, it is a portal or chat token. */
const BASE64 = /^[A-Za-z0-9+_-][A-Za-z0-9+/_-]*={0,2}$/;
/** A JSON Web Token: three base64url parts, the first two JSON objects. */
const JWT = /^eyJ[\w-]{5,}\.eyJ[\w-]{5,}\.[\w-]*$/;
/** A WordPress application password as shown: six groups of four, at least one digit or inner capital (not six short words). */
const APP_PASSWORD = /^(?=.*(?:\d|[A-Za-z0-9][A-Z]))[A-Za-z0-9]{4}(?: [A-Za-z0-9]{4}){5}$/;
/** A credential with its scheme. */
const SCHEMED = /^(?:Bearer|Basic|Token)\s+\S{8,}$/i;
/** A code of the kind emailed for sign-in. */
const DIGIT_CODE = /^\d{6,8}$/;

/** Shapes that are found inside text too, with the part to replace as group 1. */
const IN_TEXT = [
  /\b(eyJ[\w-]{5,}\.eyJ[\w-]{5,}\.[\w-]*)/g,
  /\bBearer\s+([A-Za-z0-9._~+/-]{16,}=*)/g,
  /\bBasic\s+([A-Za-z0-9+/]{12,}={0,2})(?![A-Za-z0-9+/=])/g,
];

/** What a name says of its value; names repeat across exchanges, so the answer is kept (for a bounded number). */
type NameKind = 'nonce' | 'secret' | 'code' | null;
const NAME_KINDS = new Map<string, NameKind>();
const NAMES_KEPT = 2_000;

function nameKind(name: string): NameKind {
  let kind = NAME_KINDS.get(name);
  if (kind !== undefined) return kind;
  // Words: split at anything not a letter or digit and at camelCase humps, lower-cased.
  const words = name.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase().split(/[^a-z0-9]+/).filter(Boolean);
  if (NONCE_NAMES.has(name.toLowerCase()) || words.some((w) => NONCE_WORDS.has(w))) kind = 'nonce';
  else if (words.some((w, i) => SECRET_WORDS.has(w) || (w === 'key' && (words.length === 1 || KEY_QUALIFIERS.has(words[i - 1] as string))))) kind = 'secret';
  else kind = words.at(-1) === 'code' ? 'code' : null;
  if (NAME_KINDS.size >= NAMES_KEPT) NAME_KINDS.clear();
  NAME_KINDS.set(name, kind);
  return kind;
}

export function isNonceName(name: string): boolean {
  return nameKind(name) === 'nonce';
}

/** Whether a field, parameter or header of this name holds a secret whatever its value. */
export function isSecretName(name: string): boolean {
  return nameKind(name) === 'secret';
}

/** Whether a whole value has the shape of a generated credential. */
export function looksLikeToken(value: string): boolean {
  // Most strings are short or long prose: both are told apart before any pattern runs.
  if (value.length < 18 || (value.length > LONGEST_TOKEN && !value.includes('eyJ'))) return false;
  const v = value.trim();
  if (v.startsWith('eyJ')) return JWT.test(v);
  if (/^(?:Bearer|Basic|Token)\s/i.test(v)) return SCHEMED.test(v);
  if (v.length < 24 || v.length > LONGEST_TOKEN) return false;
  if (v.length === 29 && v.includes(' ')) return APP_PASSWORD.test(v);
  return HEX.test(v) || (BASE64.test(v) && /[a-z]/.test(v) && /[A-Z]/.test(v) && /\d/.test(v));
}

/**
 * Whether a value a person typed into a form looks like a password: 8 to 64 characters without
 * spaces mixing all four of lower case, upper case, digits and symbols, and not an address.
 */
export function looksLikePassword(value: string): boolean {
  if (value.length < 8 || value.length > 64 || /\s/.test(value) || /^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(value) || /^[a-z][a-z0-9+.-]*:\/\//i.test(value)) return false;
  return /[a-z]/.test(value) && /[A-Z]/.test(value) && /\d/.test(value) && /[^A-Za-z0-9]/.test(value);
}

/** A sign-in code in a field named like one (`code`, `portal_code`, `verification_code`). */
export function isDigitCode(name: string, value: string): boolean {
  return nameKind(name) === 'code' && DIGIT_CODE.test(value.trim());
}

/** Each credential found inside `text` replaced by what `replace` gives for it. */
export function replaceInText(text: string, replace: (secret: string) => string): string {
  return IN_TEXT.reduce((out, pattern) => out.replace(pattern, (whole: string, secret: string) => whole.slice(0, whole.length - secret.length) + replace(secret)), text);
}
