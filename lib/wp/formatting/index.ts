/**
 * WP: the text sanitizers WordPress runs on values it saves (formatting.php and kses.php), for the
 * fields a user profile holds: sanitize_text_field(), the kses filter with the small "data" tag list,
 * esc_url_raw(), sanitize_email(), sanitize_user(), sanitize_title() and the escaping that goes with
 * them. Each function reproduces what WordPress produces for ordinary input; where PHP's behaviour is
 * intricate (strip_tags()'s tag scanner, remove_accents()'s tables) the approximation is said.
 *
 * test/lib/wp/formatting/wordpress-vectors.test.ts holds each of them to what WordPress 6.1.9 itself
 * returned for 80 inputs (fixtures/oracle/formatting-vectors.json).
 *
 * PHP works on bytes and these work on UTF-16 strings; for valid UTF-8 input that differs only where
 * a length is measured, and those places count code points as mb_strlen() does.
 *
 * The modules: php helpers, entities, tags, kses with its attributes and protocols, urls, accents,
 * users, titles, and the format checks (is_email(), rest_is_ip_address(), …).
 */

export { mbStrlen, phpEmpty, phpLooseEqualStrings, phpTrim } from './php';
export { phpStripTags, preKsesLessThan, removeScriptsAndStyles, sanitizeTextField, stripAllTags } from './tags';
export { escHtml, normalizeEntities, specialCharsNoQuotes } from './entities';
export type { AllowedHtml } from './kses';
export { KSES_DATA_TAGS, KSES_USER_DESCRIPTION_TAGS, kses } from './kses';
export { ALLOWED_PROTOCOLS, ksesBadProtocol } from './protocols';
export { escUrlRaw, sanitizeEmail } from './urls';
export { isValidUsername, sanitizeUser } from './users';
export { removeAccents } from './accents';
export type { TitleContext } from './titles';
export { sanitizeTitle, sanitizeTitleForQuery, sanitizeTitleWithDashes, truncatePostSlug } from './titles';
export { isEmail, isHexColor, isIpAddress, isRestDate, isUuid } from './formats';
