/**
 * `understudy --version`: the version in the package's package.json, found above this file (from
 * lib/cli when run with tsx, from dist/lib/cli when built), so the build copies nothing.
 */
import fs from 'node:fs';
import path from 'node:path';

const PACKAGE_NAME = 'understudy';

export function understudyVersion(from: string = __dirname): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    const file = path.join(dir, 'package.json');
    if (fs.existsSync(file)) {
      const manifest = JSON.parse(fs.readFileSync(file, 'utf8')) as { name?: string; version?: string };
      if (manifest.name === PACKAGE_NAME && manifest.version) return manifest.version;
    }
    if (path.dirname(dir) === dir) throw new Error(`no package.json of ${PACKAGE_NAME} above ${from}`);
  }
}
