/**
 * support/v1 chat, internal routes (contract section 4 "Chat"; docs/chat.md, "Admin"):
 * - POST /chat/admin/test (managers): one small provider call; ok, model and latency, or the provider's error.
 * - POST /chat/admin/learn (managers): chunks one batch of changed docs for answers, drops deleted ones; progress.
 * - GET /chat/admin/learning (agents): progress, without learning anything.
 */
import { testProvider } from '../../lib/support/chat/admin';
import { learnBatch, learningProgress } from '../../lib/support/chat/retrieval';
import { TypedArgs } from '../../lib/wp/rest/args';
import { ParamsOf, argsForOperation } from '../../lib/wp/rest/item-schema';
import { RouteDeclaration, endpoint, requireCapability } from '../../lib/wp/rest/route';
import { commonSchema } from '../../schema/support/common';
import { chatOperations } from '../../schema/support/chat-args';
import { chatRouteBase } from './chat';

const CHAT_SCHEMAS = [commonSchema] as const;
type NoParams = ParamsOf<typeof chatOperations.none, typeof CHAT_SCHEMAS>;
const noArgs: TypedArgs<NoParams> = argsForOperation(chatOperations.none, CHAT_SCHEMAS, 'create');

const requireManager = requireCapability('svc_manage');
const requireAgent = requireCapability('svc_work_tickets');

export const chatAdminTest: RouteDeclaration = {
  ...chatRouteBase,
  route: '/chat/admin/test',
  endpoints: [endpoint<NoParams>({ methods: ['POST'], args: noArgs, permission: requireManager, handler: (req) => testProvider(req.site) })],
};

export const chatAdminLearn: RouteDeclaration = {
  ...chatRouteBase,
  route: '/chat/admin/learn',
  endpoints: [endpoint<NoParams>({ methods: ['POST'], args: noArgs, permission: requireManager, handler: (req) => learnBatch(req.site) })],
};

export const chatAdminLearning: RouteDeclaration = {
  ...chatRouteBase,
  route: '/chat/admin/learning',
  endpoints: [endpoint<NoParams>({ methods: ['GET'], args: noArgs, permission: requireAgent, handler: (req) => learningProgress(req.site) })],
};
