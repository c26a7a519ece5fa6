/**
 * The portal's secrets, derived from the site's salts (wp_salt('auth')) and the connected site's id:
 * the key of the codes' HMAC and the key that seals a code in its email job. Nothing portal-specific
 * is stored; changing the salts voids every pending code (sessions are random tokens and stay valid).
 */
import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';
import { Site } from '../../wp/site';

async function derived(site: Site, siteId: string, purpose: 'code' | 'seal'): Promise<Buffer> {
  return createHmac('sha256', await site.salts.salt('auth')).update(`svc-portal-${purpose}:${siteId}`).digest();
}

/** Lowercase hex HMAC-SHA-256 of a code for one site and address. */
export async function codeHash(site: Site, siteId: string, email: string, code: string): Promise<string> {
  return createHmac('sha256', await derived(site, siteId, 'code')).update(`${email}\n${code}`).digest('hex');
}

/** The code sealed (AES-256-GCM) for the job that emails it: the job table never holds a code in clear. */
export async function sealCode(site: Site, siteId: string, code: string): Promise<string> {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', await derived(site, siteId, 'seal'), iv);
  const body = Buffer.concat([cipher.update(code, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64');
}

export async function unsealCode(site: Site, siteId: string, sealed: string): Promise<string> {
  const raw = Buffer.from(sealed, 'base64');
  const decipher = createDecipheriv('aes-256-gcm', await derived(site, siteId, 'seal'), raw.subarray(0, 12));
  decipher.setAuthTag(raw.subarray(12, 28));
  return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
}
