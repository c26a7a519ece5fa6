/**
 * `marked` and `feed` are ES modules only. Node 20 loads them with require() (require of ES modules,
 * unflagged since 20.19), which TypeScript's node16 resolution does not model: their types are
 * imported as ES module types, and the modules required, on first use (only changelog requests need them).
 */
import type * as Marked from 'marked' with { 'resolution-mode': 'import' };
import type * as FeedModule from 'feed' with { 'resolution-mode': 'import' };
import { lazyRequire } from '../../lazy-require';

export const markedModule = lazyRequire(() => require('marked') as typeof Marked);
export const feedModule = lazyRequire(() => require('feed') as typeof FeedModule);
