// The Agent API's OpenAPI 3.1 document, generated from the same zod schemas the routes parse with.
import { z } from 'zod';
import { createDocument } from 'zod-openapi';
import { documentOperation, operation, type Operation } from '../http/openapi.js';
import { errorBodySchema } from '../http/errors.js';
import * as agentSchemas from './schemas.js';
import * as triggerSchemas from './trigger-schemas.js';

const ERROR_TEXT: Record<number, string> = {
  400: 'Invalid body or query',
  401: 'Missing, malformed, unknown or revoked API key',
  402: 'Insufficient AI credits (body includes minCredits and totalBalance)',
  403: 'Conversation belongs to a different company',
  404: 'Unknown conversation, trigger or agent; not an API session; contactId of another company',
  409: 'Conversation ended or mismatched; pending-job cap reached; trigger cannot be cancelled or replied from its current status; asHumanReply with zero or several waiting jobs; late bind to a different contact',
  413: 'Request body is over 1 MB',
  415: "The body's charset is not UTF-8, or its Content-Encoding is not identity, gzip, deflate or br",
  429: 'Request rate limit exceeded (Retry-After says when to try again)',
  500: 'Unexpected processing failure',
  503: 'The database is unreachable or busy (Retry-After says when to try again); credentials encryption not configured; company memory disabled',
  504: 'Agent turn exceeded the turn timeout',
};

const conversationParam = z.object({ conversationId: z.uuid().meta({ description: 'Conversation id' }) });
const triggerParam = z.object({ triggerId: z.uuid().meta({ description: 'Trigger (job) id' }) });
const jobParam = z.object({ jobId: z.uuid().meta({ description: 'Trigger (job) id' }) });

const op = (o: Operation) =>
  operation(o, { schema: errorBodySchema, text: ERROR_TEXT, always: [401, 429, 500, 503], withBody: [413, 415] });

export function agentOpenApiDocument() {
  return createDocument({
    openapi: '3.1.0',
    info: {
      title: 'Switchboard Agent Conversation and Autonomous Job API',
      version: '1.0.0',
      description:
        'Stateful agent conversations with server-side tools, synchronous or streamed (SSE), and autonomous background jobs (triggers) that clients poll.',
    },
    servers: [{ url: '/api/v1' }],
    components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
    webhooks: {
      'contact.verification_requested': {
        post: {
          operationId: 'contactVerificationRequested',
          tags: ['Webhooks'],
          summary:
            "A passcode for an unverified contact, sent to the account's events address when an agent that requires verification meets one",
          description:
            'Signed as every webhook (Standard Webhooks and X-Voice headers). Until the user types the code in the conversation, or your backend calls POST /conversations/{conversationId}/verify, such an agent uses no tools and no contact memory there. Jobs are never held back.',
          requestBody: { content: { 'application/json': { schema: agentSchemas.verificationRequested } } },
          responses: { '200': { description: 'Any 2xx: received' } },
        },
      },
    },
    paths: {
      '/openapi.json': { get: documentOperation },
      '/conversations': {
        post: op({
          id: 'createConversation',
          tag: 'Conversations',
          summary: 'Create (201) or resume (200) a conversation',
          body: agentSchemas.createConversationBody,
          ok: [[201, 200], agentSchemas.conversationCreated],
          errors: [400, 403, 404, 409, 503],
        }),
      },
      '/conversations/{conversationId}': {
        get: op({
          id: 'getConversation',
          tag: 'Conversations',
          summary: 'Read a conversation and its transcript',
          path: conversationParam,
          query: agentSchemas.readQuery,
          ok: [200, agentSchemas.conversationView],
          errors: [400, 403, 404],
        }),
      },
      '/conversations/{conversationId}/messages': {
        post: op({
          id: 'sendMessage',
          tag: 'Conversations',
          summary: 'Send a message; the reply is JSON, or an event stream with stream: true',
          path: conversationParam,
          body: agentSchemas.sendMessageBody,
          ok: [200, agentSchemas.messageReply],
          stream: agentSchemas.streamEvent,
          errors: [400, 402, 403, 404, 409, 503, 504],
        }),
      },
      '/conversations/{conversationId}/metadata': {
        patch: op({
          id: 'replaceMetadata',
          tag: 'Conversations',
          summary: 'Replace the conversation metadata',
          path: conversationParam,
          body: agentSchemas.metadataBody,
          ok: [200, agentSchemas.metadataReply],
          errors: [400, 403, 404, 409],
        }),
      },
      '/conversations/{conversationId}/manual': {
        post: op({
          id: 'addManualMessage',
          tag: 'Conversations',
          summary: 'Append a manual (admin) message without an AI response',
          path: conversationParam,
          body: agentSchemas.manualBody,
          ok: [201, agentSchemas.manualReply],
          errors: [400, 403, 404, 409],
        }),
      },
      '/conversations/{conversationId}/end': {
        post: op({
          id: 'endConversation',
          tag: 'Conversations',
          summary: 'End the conversation',
          path: conversationParam,
          body: agentSchemas.endBody,
          ok: [200, agentSchemas.endReply],
          errors: [400, 403, 404],
        }),
      },
      '/conversations/{conversationId}/verify': {
        post: op({
          id: 'verifyContact',
          tag: 'Conversations',
          summary: "Verify the conversation's contact from your backend, as the passcode in a user's message would (agents may require it)",
          path: conversationParam,
          body: agentSchemas.verifyBody,
          ok: [200, agentSchemas.verifyReply],
          errors: [400, 403, 404, 409],
        }),
      },
      '/triggers': {
        post: op({
          id: 'createTrigger',
          tag: 'Jobs',
          summary: 'Start a background job (202), in a new conversation or an existing one; an idempotent replay answers 200',
          body: triggerSchemas.createTriggerBody,
          ok: [[202, 200], triggerSchemas.triggerAccepted],
          errors: [400, 403, 404, 409, 503],
        }),
      },
      '/conversations/{conversationId}/triggers': {
        post: op({
          id: 'createConversationTrigger',
          tag: 'Jobs',
          summary: 'Start a background job in this conversation (202); an idempotent replay answers 200',
          path: conversationParam,
          body: triggerSchemas.conversationTriggerBody,
          ok: [[202, 200], triggerSchemas.triggerAccepted],
          errors: [400, 403, 404, 409, 503],
        }),
        get: op({
          id: 'listConversationTriggers',
          tag: 'Jobs',
          summary: "List the conversation's jobs, newest first",
          path: conversationParam,
          query: triggerSchemas.listTriggersQuery,
          ok: [200, triggerSchemas.triggerList],
          errors: [400, 403, 404],
        }),
      },
      '/triggers/{triggerId}': {
        get: op({
          id: 'getTrigger',
          tag: 'Jobs',
          summary: 'Poll a job (optionally long-polling with wait)',
          path: triggerParam,
          query: triggerSchemas.getTriggerQuery,
          ok: [200, triggerSchemas.triggerObject],
          errors: [400, 404],
        }),
      },
      '/triggers/{triggerId}/cancel': {
        post: op({
          id: 'cancelTrigger',
          tag: 'Jobs',
          summary: 'Cancel a job that is not running',
          path: triggerParam,
          body: triggerSchemas.cancelBody,
          ok: [200, triggerSchemas.triggerObject],
          errors: [400, 404, 409],
        }),
      },
      '/triggers/{triggerId}/reply': {
        post: op({
          id: 'replyToTrigger',
          tag: 'Jobs',
          summary: 'Answer a job waiting for a reply, which resumes it',
          path: triggerParam,
          body: triggerSchemas.replyBody,
          ok: [200, triggerSchemas.triggerObject],
          errors: [400, 404, 409],
        }),
      },
      '/jobs/{jobId}': {
        get: op({
          id: 'getJob',
          tag: 'Jobs',
          summary: 'Legacy: the raw stored job; use GET /triggers/{triggerId}',
          path: jobParam,
          ok: [200, triggerSchemas.rawJob],
          errors: [404],
          deprecated: true,
        }),
      },
    },
  });
}
