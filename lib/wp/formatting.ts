/**
 * WP: the text sanitizers WordPress runs on values it saves (formatting.php and kses.php), for the
 * fields a user profile holds: sanitize_text_field(), the kses filter with the small "data" tag list,
 * esc_url_raw(), sanitize_email(), sanitize_user(), sanitize_title() and the escaping that goes with
 * them. Each function reproduces what WordPress produces for ordinary input; where PHP's behaviour is
 * intricate (strip_tags()'s tag scanner, remove_accents()'s tables) the approximation is said.
 *
 * PHP works on bytes and these work on UTF-16 strings; for valid UTF-8 input that differs only where
 * a length is measured, and those places count code points as mb_strlen() does.
 *
 * This module is a facade: the code lives in ./formatting/ (php helpers, entities, tags, kses with its
 * attributes and protocols, urls, accents, users, titles), and importers keep using this path.
 */

export { mbStrlen, phpEmpty, phpLooseEqualStrings, phpTrim } from './formatting/php';
export { phpStripTags, preKsesLessThan, sanitizeTextField, stripAllTags } from './formatting/tags';
export { escHtml, normalizeEntities, specialCharsNoQuotes } from './formatting/entities';
export type { AllowedHtml } from './formatting/kses';
export { KSES_DATA_TAGS, KSES_USER_DESCRIPTION_TAGS, kses } from './formatting/kses';
export { ALLOWED_PROTOCOLS, ksesBadProtocol } from './formatting/protocols';
export { escUrlRaw, sanitizeEmail } from './formatting/urls';
export { isValidUsername, sanitizeUser } from './formatting/users';
export { removeAccents } from './formatting/accents';
export { sanitizeTitle } from './formatting/titles';
