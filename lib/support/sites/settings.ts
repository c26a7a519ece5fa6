/**
 * A connected site's settings: its name, listed addresses, the customer portal's switches and
 * wording, and the doc collections it may show. Defaults for a new site, the bounds a change must
 * keep, and checking a change (the CLI and any later admin route share these rules).
 */
import { OriginError, normaliseOrigins } from './origins';

export interface SiteSettings {
  name: string;
  /** Listed addresses, normalised (./origins.ts). */
  origins: string[];
  /** The customer portal is on (portal routes answer 404 `portal_disabled` while it is off). */
  portal: boolean;
  /** New tickets may be opened from the site's pages (the portal's form, keyless requests). */
  newTickets: boolean;
  /** The longest message a customer may send from the site's pages, in characters. */
  messageLimit: number;
  /** Plain text shown beside the message field (for example what to include). */
  messageHint: string;
  customerCanResolve: boolean;
  customerCanReopen: boolean;
  /** Slugs of the doc collections (`svc_doc_collection` terms) the site may show. */
  docCollections: string[];
}

export const SITE_DEFAULTS: Omit<SiteSettings, 'name'> = {
  origins: [],
  portal: false,
  newTickets: true,
  messageLimit: 5000,
  messageHint: '',
  customerCanResolve: true,
  customerCanReopen: true,
  docCollections: [],
};

export const SITE_BOUNDS = {
  nameLength: 200,
  /** A message is at most what a ticket message holds (the body schema's 65,535 characters). */
  messageLimit: { min: 1, max: 65535 },
  hintLength: 500,
  origins: 50,
  docCollections: 100,
} as const;

/** A refused setting, with a message for the person who gave it. */
export class SiteSettingsError extends Error {
  override name = 'SiteSettingsError';
}

/** Checks and normalises a change (addresses normalised, text trimmed); throws SiteSettingsError. */
export function checkSiteSettings(change: Partial<SiteSettings>): Partial<SiteSettings> {
  const out: Partial<SiteSettings> = { ...change };
  if (change.name !== undefined) {
    const name = change.name.trim();
    if (!name || name.length > SITE_BOUNDS.nameLength || /[\u0000-\u001f\u007f]/.test(name)) {
      throw new SiteSettingsError(`Invalid name: give 1 to ${SITE_BOUNDS.nameLength} characters of text on one line.`);
    }
    out.name = name;
  }
  if (change.origins !== undefined) {
    try {
      out.origins = normaliseOrigins(change.origins);
    } catch (err) {
      if (err instanceof OriginError) throw new SiteSettingsError(err.message);
      throw err;
    }
    if (out.origins.length > SITE_BOUNDS.origins) throw new SiteSettingsError(`A site lists at most ${SITE_BOUNDS.origins} addresses.`);
  }
  const limit = change.messageLimit;
  if (limit !== undefined && (!Number.isInteger(limit) || limit < SITE_BOUNDS.messageLimit.min || limit > SITE_BOUNDS.messageLimit.max)) {
    throw new SiteSettingsError(`Invalid message limit '${limit}': give a whole number of characters from ${SITE_BOUNDS.messageLimit.min} to ${SITE_BOUNDS.messageLimit.max}.`);
  }
  if (change.messageHint !== undefined) {
    const hint = change.messageHint.trim();
    if (hint.length > SITE_BOUNDS.hintLength) throw new SiteSettingsError(`The message hint is at most ${SITE_BOUNDS.hintLength} characters.`);
    out.messageHint = hint;
  }
  if (change.docCollections !== undefined) {
    const slugs = [...new Set(change.docCollections.map((s) => s.trim()).filter(Boolean))];
    const bad = slugs.find((s) => !isCollectionSlug(s));
    if (bad !== undefined) throw new SiteSettingsError(`Invalid doc collection '${bad}': give its slug (lowercase letters, digits, hyphens and underscores).`);
    if (slugs.length > SITE_BOUNDS.docCollections) throw new SiteSettingsError(`A site shows at most ${SITE_BOUNDS.docCollections} doc collections.`);
    out.docCollections = slugs;
  }
  return out;
}

/** A term slug as sanitize_title() leaves plain ASCII ones (a percent-encoded one is kept as stored). */
export function isCollectionSlug(text: string): boolean {
  return /^[a-z0-9_%-]{1,200}$/.test(text);
}
