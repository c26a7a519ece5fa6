/**
 * A fresh site on an empty database: the options and roles WordPress's installer writes
 * (populate_options / populate_roles, the part clients can observe), plus the capabilities the two
 * plugins add on activation (already present in fixtures/site/roles.json).
 */
import roles from '../../fixtures/site/roles.json';
import { WP_68_DB_VERSION } from './password-format';
import { Site } from './site';

export interface InstallOptions {
  siteUrl: string;
  title: string;
  adminEmail: string;
}

export async function installSite(site: Site, { siteUrl, title, adminEmail }: InstallOptions): Promise<void> {
  const defaults: Record<string, unknown> = {
    siteurl: siteUrl,
    home: siteUrl,
    blogname: title,
    blogdescription: '',
    users_can_register: '0',
    admin_email: adminEmail,
    start_of_week: '1',
    blog_charset: 'UTF-8',
    gmt_offset: '0',
    timezone_string: '',
    date_format: 'F j, Y',
    time_format: 'g:i a',
    permalink_structure: '/%postname%/',
    default_role: 'subscriber',
    show_avatars: '1',
    avatar_default: 'mystery',
    avatar_rating: 'G',
    // A new site is a current one: WordPress 6.8's database version (it reads and writes $wp$ hashes).
    db_version: String(WP_68_DB_VERSION),
    [site.db.tables.userRolesOption]: roles,
  };
  for (const [name, value] of Object.entries(defaults)) await site.options.add(name, value);
}
