/**
 * support/v1 chat, internal routes (contract section 4 "Chat"; docs/chat.md, "Admin"):
 * - POST /chat/admin/test (managers): one small provider call; ok, model and latency, or the provider's error.
 * - POST /chat/admin/learn (managers): chunks one batch of changed docs for answers, drops deleted ones; progress.
 * - GET /chat/admin/learning (agents): progress, without learning anything.
 */
import { testProvider } from '../../lib/support/chat/admin';
import { learnBatch, learningProgress } from '../../lib/support/chat/retrieval';
import { endpoint, requireCapability } from '../../lib/wp/rest/route';
import { chatArgs } from './chat';
import { supportRoute } from './kit';

const requireManager = requireCapability('svc_manage');
const requireAgent = requireCapability('svc_work_tickets');

export const chatAdminTest = supportRoute({
  route: '/chat/admin/test',
  endpoints: [endpoint({ methods: ['POST'], args: chatArgs.none, permission: requireManager, handler: (req) => testProvider(req.site) })],
});

export const chatAdminLearn = supportRoute({
  route: '/chat/admin/learn',
  endpoints: [endpoint({ methods: ['POST'], args: chatArgs.none, permission: requireManager, handler: (req) => learnBatch(req.site) })],
});

export const chatAdminLearning = supportRoute({
  route: '/chat/admin/learning',
  endpoints: [endpoint({ methods: ['GET'], args: chatArgs.none, permission: requireAgent, handler: (req) => learningProgress(req.site) })],
});
