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
/** base64 or base64url of 24 or more characters mixing upper case, lower case and digits (portal and chat tokens). */
const BASE64 = /^(?!\/)(?=[^a-z]*[a-z])(?=[^A-Z]*[A-Z])(?=\D*\d)[A-Za-z0-9+/_-]{24,}={0,2}$/;
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

/** The words of a name: split at anything not a letter or digit and at camelCase humps, lower-cased. */
function wordsOf(name: string): string[] {
  return name.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase().split(/[^a-z0-9]+/).filter(Boolean);
}

export function isNonceName(name: string): boolean {
  return NONCE_NAMES.has(name.toLowerCase()) || wordsOf(name).some((w) => NONCE_WORDS.has(w));
}

/** Whether a field, parameter or header of this name holds a secret whatever its value. */
export function isSecretName(name: string): boolean {
  const words = wordsOf(name);
  return words.some((w, i) => SECRET_WORDS.has(w) || (w === 'key' && (words.length === 1 || KEY_QUALIFIERS.has(words[i - 1] as string))));
}

/** A field named like a code (`code`, `portal_code`, `verification_code`). */
export function isCodeName(name: string): boolean {
  return wordsOf(name).at(-1) === 'code';
}

/** Whether a whole value has the shape of a generated credential. */
export function looksLikeToken(value: string): boolean {
  const v = value.trim();
  if (JWT.test(v) || SCHEMED.test(v) || APP_PASSWORD.test(v)) return true;
  return v.length <= LONGEST_TOKEN && (HEX.test(v) || BASE64.test(v));
}

/**
 * Whether a value a person typed into a form looks like a password: 8 to 64 characters without
 * spaces mixing all four of lower case, upper case, digits and symbols, and not an address.
 */
export function looksLikePassword(value: string): boolean {
  if (value.length < 8 || value.length > 64 || /\s/.test(value) || /^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(value) || /^[a-z][a-z0-9+.-]*:\/\//i.test(value)) return false;
  return /[a-z]/.test(value) && /[A-Z]/.test(value) && /\d/.test(value) && /[^A-Za-z0-9]/.test(value);
}

/** A sign-in code in a field named like one. */
export function isDigitCode(name: string, value: string): boolean {
  return isCodeName(name) && DIGIT_CODE.test(value.trim());
}

/** Each credential found inside `text` replaced by what `replace` gives for it. */
export function replaceInText(text: string, replace: (secret: string) => string): string {
  return IN_TEXT.reduce((out, pattern) => out.replace(pattern, (whole: string, secret: string) => whole.slice(0, whole.length - secret.length) + replace(secret)), text);
}
