/**
 * A routing file that takes effect without a restart: re-read on SIGHUP (the caller forwards it),
 * when the file changes (fs.watch on its folder, debounced, since editors replace files by rename),
 * and by a periodic stat in case watching misses a change (network filesystems, some containers).
 * A file that does not load keeps the routes in force and says why. The `shadow` section is read at
 * start only: it sizes the comparison queue and decides whether the job worker runs.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Surface } from '../app';
import type { Logger } from '../logger';
import type { RequestTarget } from '../replay/route-key';
import { Mode, Routing, ShadowSettings, createRouting } from './routing';

export interface LiveRoutingOptions {
  file: string;
  surface: Surface;
  logger: Logger;
  /** Quiet time after a change event before the file is read (editors write in several steps). */
  debounceMs?: number;
  /** How often the file's size and time are checked, whatever fs.watch says. */
  pollMs?: number;
}

interface Loaded {
  routing: Routing;
  text: string;
  modes: Map<string, Mode>;
}

export class LiveRouting implements Routing {
  readonly shadow: Required<ShadowSettings>;
  private current: Loaded;
  private watcher: fs.FSWatcher | null = null;
  private poller: NodeJS.Timeout | null = null;
  private debounce: NodeJS.Timeout | null = null;
  private lastStat = '';

  /** Loads the file; a mistake throws, so the proxy does not start on a bad file. */
  constructor(private readonly options: LiveRoutingOptions) {
    this.current = this.load(fs.readFileSync(options.file, 'utf8'));
    this.shadow = this.current.routing.shadow;
    this.lastStat = this.statKey();
  }

  get records(): boolean {
    return Boolean(this.current.routing.records);
  }

  decide(target: RequestTarget, routeKey: string): Mode {
    return this.current.routing.decide(target, routeKey);
  }

  /** Reads the file again; true when new routes are in force, false when the old ones stay. */
  reload(reason: string): boolean {
    const { file, logger } = this.options;
    const name = path.basename(file);
    try {
      const text = fs.readFileSync(file, 'utf8');
      if (text === this.current.text) return false;
      const next = this.load(text);
      if (JSON.stringify(next.routing.shadow) !== JSON.stringify(this.shadow)) {
        throw new Error('its shadow section changed, which takes a restart of the proxy');
      }
      const changes = describeChanges(this.current.modes, next.modes);
      this.current = next;
      logger.info(`proxy: routing file ${name} re-read (${reason}): ${changes.length ? changes.join(', ') : 'no route changed'}`);
      return true;
    } catch (err) {
      logger.warn(`proxy: routing file ${name} not applied (${reason}); the previous routes stay in force`, { error: err instanceof Error ? err.message : String(err) });
      return false;
    }
  }

  /** Starts following the file. */
  watch(): void {
    const { file, debounceMs = 200, pollMs = 5_000 } = this.options;
    const later = (reason: string) => {
      if (this.debounce) clearTimeout(this.debounce);
      this.debounce = setTimeout(() => {
        this.debounce = null;
        this.lastStat = this.statKey();
        this.reload(reason);
      }, debounceMs);
      this.debounce.unref();
    };
    try {
      this.watcher = fs.watch(path.dirname(file), (_event, changed) => {
        if (!changed || changed.toString() === path.basename(file)) later('file changed');
      });
      this.watcher.on('error', () => undefined);
    } catch {
      this.watcher = null; // CASE: no watching here; the periodic check still sees changes.
    }
    this.poller = setInterval(() => {
      if (this.statKey() !== this.lastStat) later('file changed (periodic check)');
    }, pollMs);
    this.poller.unref();
  }

  close(): void {
    this.watcher?.close();
    if (this.poller) clearInterval(this.poller);
    if (this.debounce) clearTimeout(this.debounce);
  }

  private load(text: string): Loaded {
    const name = path.basename(this.options.file);
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (err) {
      throw new Error(`Routing file ${name}: ${err instanceof Error ? err.message : String(err)}`);
    }
    return { routing: createRouting(parsed, this.options.surface, name), text, modes: modesOf(parsed) };
  }

  private statKey(): string {
    try {
      const stat = fs.statSync(this.options.file);
      return `${stat.ino}:${stat.size}:${stat.mtimeMs}`;
    } catch {
      return 'missing';
    }
  }
}

/** Every mode the file states, keyed by section and name (`routes /support/v1/tickets`). */
function modesOf(file: unknown): Map<string, Mode> {
  const modes = new Map<string, Mode>();
  for (const section of ['namespaces', 'routes', 'ajax'] as const) {
    const entries = (file as Record<string, Record<string, Mode> | undefined>)[section] ?? {};
    for (const [name, mode] of Object.entries(entries)) modes.set(`${section} ${name}`, mode);
  }
  return modes;
}

function describeChanges(before: Map<string, Mode>, after: Map<string, Mode>): string[] {
  const names = [...new Set([...before.keys(), ...after.keys()])].sort();
  return names
    .filter((name) => before.get(name) !== after.get(name))
    .map((name) => `${name}: ${before.get(name) ?? 'default'} -> ${after.get(name) ?? 'default'}`);
}
