/**
 * A plugin's browser script, shipped in the repository's client/ folder and served as WordPress
 * serves a plugin's enqueued script: its source read once, a short content hash for the `ver`
 * argument, and wp_localize_script()'s one `var` line in front.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { phpJsonEncode } from './php/json';

export class ClientScript {
  private text: string | undefined;

  /** `file`: the path from the repository root, e.g. `client/svc/portal.js`. */
  constructor(private readonly file: string) {}

  /** The source, read once: from the source tree (lib/wp/) or from beside the build (dist/lib/wp/). */
  source(): string {
    if (this.text === undefined) {
      const candidates = ['../..', '../../..'].map((up) => path.resolve(__dirname, up, this.file));
      const found = candidates.find((candidate) => fs.existsSync(candidate));
      if (!found) throw new Error(`${this.file} not found (looked in ${candidates.join(', ')})`);
      this.text = fs.readFileSync(found, 'utf8');
    }
    return this.text;
  }

  /** A short content hash, used as the `ver` query argument so browsers fetch a changed script. */
  version(): string {
    return createHash('sha256').update(this.source()).digest('hex').slice(0, 10);
  }

  /** WP: wp_localize_script(): `var <name> = <JSON as PHP encodes it>;`, then the script. */
  localized(objectName: string, vars: Record<string, unknown>): string {
    return `var ${objectName} = ${phpJsonEncode(vars)};\n${this.source()}`;
  }
}
