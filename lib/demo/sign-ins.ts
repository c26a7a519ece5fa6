/**
 * The lines `serve` prints for the embedded demo site: each demo user's login, password and role, a
 * ready-to-paste request that signs in with their application password, and the pages to open.
 */
import { DemoFixture, demoFixture } from './fixture';

/** The sign-in lines for a server answering at `baseUrl` (no trailing slash). */
export function demoSignIns(baseUrl: string, fixture: DemoFixture = demoFixture): string[] {
  const width = Math.max(...fixture.users.map((u) => u.login.length));
  const passwordWidth = Math.max(...fixture.users.map((u) => u.password.length));
  const lines = ['Demo sign-ins (public demo passwords: keep this site to yourself):'];
  for (const user of fixture.users) {
    lines.push(`  ${user.login.padEnd(width)}  password: ${user.password.padEnd(passwordWidth)}  role: ${user.role}`);
    lines.push(`  ${' '.repeat(width)}  curl -u ${user.login}:${user.application_password.password} ${baseUrl}/wp-json/wp/v2/users/me`);
  }
  lines.push(`Try in a browser: ${baseUrl}/ (what is served), ${baseUrl}/frm/embed/contact (the demo's contact form)`);
  return lines;
}
