#!/usr/bin/env node
/**
 * `npm start` and `npm install` build dist/ only when what it is built from changed: the sources
 * (bin, lib, routes, schema, and the fixtures they import), the tsconfig files or the lockfile (a
 * new TypeScript). A hash of their
 * contents is kept in dist/.build-stamp after a successful build; an unchanged hash skips the build,
 * which saves starting the compiler on every start. `npm run build` always builds.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SOURCE_DIRS = ['bin', 'lib', 'routes', 'schema', 'fixtures/demo', 'fixtures/replay', 'fixtures/site'];
const SOURCE_FILES = ['tsconfig.json', 'tsconfig.build.json', 'package-lock.json'];
const STAMP = path.join(ROOT, 'dist', '.build-stamp');
const ENTRY = path.join(ROOT, 'dist', 'bin', 'understudy.js');

function filesUnder(dir) {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath, entry.name));
}

function sourcesHash() {
  const files = [...SOURCE_DIRS.flatMap((dir) => filesUnder(path.join(ROOT, dir))), ...SOURCE_FILES.map((file) => path.join(ROOT, file))]
    .filter((file) => fs.existsSync(file))
    .sort();
  const hash = createHash('sha256');
  for (const file of files) hash.update(path.relative(ROOT, file)).update('\0').update(fs.readFileSync(file)).update('\0');
  return hash.digest('hex');
}

const current = sourcesHash();
const stamped = fs.existsSync(STAMP) ? fs.readFileSync(STAMP, 'utf8').trim() : null;
if (stamped === current && fs.existsSync(ENTRY)) process.exit(0);

console.error('Building dist/ (the sources changed since the last build)');
const tsc = path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
const built = spawnSync(process.execPath, [tsc, '-p', path.join(ROOT, 'tsconfig.build.json')], { cwd: ROOT, stdio: 'inherit' });
if (built.status !== 0) process.exit(built.status ?? 1);
fs.writeFileSync(STAMP, `${current}\n`);
