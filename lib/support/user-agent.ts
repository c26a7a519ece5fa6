/** `Understudy/<version>`, the User-Agent of outgoing HTTP requests, from the nearest package.json. */
import fs from 'node:fs';
import path from 'node:path';

let cached: string | undefined;

export function userAgent(): string {
  cached ??= `Understudy/${packageVersion()}`;
  return cached;
}

/** Walks up from this file (lib/… in development, dist/lib/… when built) to Understudy's package.json. */
function packageVersion(): string {
  for (let dir = __dirname; ; dir = path.dirname(dir)) {
    try {
      const pkg = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'understudy' && pkg.version) return pkg.version;
    } catch {
      // No package.json here; keep walking up.
    }
    if (path.dirname(dir) === dir) return '0.0.0';
  }
}
