/**
 * What a server process says at start about the object cache: one line naming the cache and how it
 * was found (or that there is none, or that nothing covers it), and, for a cache Understudy talks to
 * directly, whether its server accepts a connection. An unreachable cache is reported, never fatal:
 * the invalidations are retried until it answers.
 */
import net from 'node:net';
import { Logger } from '../../logger';
import { ObjectCacheSetting, describeSetting } from './setting';
import { ObjectCacheStatus } from './status';

export async function reportObjectCache(status: ObjectCacheStatus, logger: Logger): Promise<void> {
  const { setting, foundBy, onUncovered } = status.choice;
  if (setting.kind === 'unknown') {
    const consequence = onUncovered === 'refuse-writes'
      ? 'writes are refused (OBJECT_CACHE_UNKNOWN=refuse-writes)'
      : 'PHP may show stale data after Understudy\'s writes; readiness reports degraded (docs/deploy.md, "Beside a site with a persistent object cache")';
    logger.warn(`Object cache: ${setting.reason} (${foundBy}); ${consequence}`);
    return;
  }
  logger.info(`Object cache: ${describeSetting(setting)} (${foundBy})`);
  const target = probeTarget(setting);
  if (!target) return;
  const problem = await connectionProblem(target, 'timeoutSeconds' in setting ? setting.timeoutSeconds : 1);
  status.reached(problem === null);
  if (problem) logger.warn(`Object cache: cannot reach it at start (${problem}); writes go on and their invalidations are retried`);
}

type Target = { path: string } | { host: string; port: number };

function probeTarget(setting: ObjectCacheSetting): Target | undefined {
  if (setting.kind === 'redis') return setting.scheme === 'unix' ? { path: setting.path as string } : { host: setting.host, port: setting.port };
  if (setting.kind !== 'memcached') return undefined;
  const first = setting.servers[0];
  if (first.startsWith('unix://')) return { path: first.slice('unix://'.length) };
  const match = /^\[?([^\]]+?)\]?(?::(\d+))?$/.exec(first);
  return match ? { host: match[1], port: Number(match[2] ?? 11211) || 11211 } : undefined;
}

/** null when a connection opens within the timeout, else why not. */
function connectionProblem(target: Target, timeoutSeconds: number): Promise<string | null> {
  return new Promise((resolve) => {
    const socket = net.connect(target);
    const done = (problem: string | null) => {
      socket.destroy();
      resolve(problem);
    };
    socket.setTimeout(timeoutSeconds * 1000, () => done(`no connection within ${timeoutSeconds} s`));
    socket.once('connect', () => done(null));
    socket.once('error', (err) => done(err.message));
  });
}
