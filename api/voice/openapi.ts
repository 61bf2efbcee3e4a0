// The Voice API's OpenAPI 3.1 document, generated from the same zod schemas the routes parse with.
import { z } from 'zod';
import { createDocument } from 'zod-openapi';
import { documentOperation, operation, type Operation } from '../http/openapi.js';
import { voiceErrorSchema } from './errors.js';
import * as tenantSchemas from './tenant-schemas.js';
import * as callSchemas from './call-schemas.js';
import { campaignPaths } from './campaign-openapi.js';
import { voiceWebhooks } from './event-schemas.js';
import * as numberSchemas from './number-schemas.js';
import * as simSchemas from './sim-schemas.js';
import * as queueSchemas from './queue-schemas.js';
import * as mailboxSchemas from './mailbox-schemas.js';
import * as messageSchemas from './message-schemas.js';

const ERROR_TEXT: Record<number, string> = {
  400: 'invalid_json: the body is not JSON, or the body or query string has a field the endpoint does not take; bad_request: more than one Authorization header',
  401: 'unauthorized: no key, malformed header, wrong or revoked key',
  403: 'module_off: the account lacks the feature (the message names it)',
  404: "not_found: no such thing on the account (another account's answers the same)",
  409: "call_ended or not_live: the request does not fit the call's state; run_active, run_ended or connection_in_use for campaigns",
  413: 'body_too_large: the body is over 128 KB',
  415: "unsupported_media_type: the body's charset is not UTF-8, or its Content-Encoding is not identity, gzip, deflate or br",
  422: 'A value in the body or query string was refused: invalid_<field> (invalid_to, invalid_wait…), do_not_call, idempotency_mismatch…',
  429: 'rate_limited (Retry-After gives the seconds to wait) or tenant_busy (simultaneous-call cap)',
  500: 'internal: failure on the service side; retry',
  503: 'unavailable: the database is unreachable or busy (Retry-After gives the seconds to wait)',
};

const callParam = z.object({ id: z.string().meta({ description: 'Call id (cal_…)' }) });
const messageParam = z.object({ id: z.string().meta({ description: 'Message id (msg_…)' }) });

const op = (o: Operation) =>
  operation(o, {
    schema: voiceErrorSchema,
    text: ERROR_TEXT,
    always: [401, 429, 500, 503],
    withBody: [400, 413, 415, 422],
    withQuery: [400, 422],
  });

export function voiceOpenApiDocument() {
  return createDocument({
    openapi: '3.1.0',
    info: {
      title: 'Switchboard Voice Calling API',
      version: '1.0.0',
      description:
        "AI phone calls placed by API (and by MCP at /mcp with the same keys and tools), their results, campaigns whose lists come from the customer's system, API keys, account settings and usage reports. Errors are {error: {code, message}}. Requests are limited to 300 a minute per API key and, separately, per connected app (the Switchboard-App header).",
    },
    servers: [{ url: '/v1' }],
    components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
    webhooks: voiceWebhooks,
    paths: {
      '/openapi.json': { get: documentOperation },
      '/calls': {
        post: op({
          id: 'placeCall',
          tag: 'Calls',
          summary: 'Place a call (201); a replay with the same Idempotency-Key and body answers 200 with the original call',
          description: 'A task or callback_url needs the voice_api feature.',
          body: callSchemas.placeCallBody,
          header: z.object({
            'Idempotency-Key': z.string().min(1).max(callSchemas.IDEMPOTENCY_KEY_MAX).optional().meta({ description: 'Any unique string' }),
          }),
          ok: [[201, 200], callSchemas.callRecordSchema],
          errors: [403, 422],
        }),
        get: op({
          id: 'listCalls',
          tag: 'Calls',
          summary: "List the account's calls, newest first",
          query: callSchemas.listCallsQuery,
          ok: [200, callSchemas.callListSchema],
          errors: [400, 422],
        }),
      },
      '/calls/{id}': {
        get: op({
          id: 'getCall',
          tag: 'Calls',
          summary: 'Read a call',
          path: callParam,
          ok: [200, callSchemas.callRecordSchema],
          errors: [404],
        }),
      },
      '/calls/{id}/result': {
        get: op({
          id: 'getCallResult',
          tag: 'Calls',
          summary: 'The call result; with wait, held until it is final or the seconds run out',
          path: callParam,
          query: callSchemas.resultQuery,
          ok: [200, callSchemas.callResultSchema],
          errors: [400, 403, 404, 422],
        }),
      },
      '/calls/{id}/steer': {
        post: op({
          id: 'steerCall',
          tag: 'Calls',
          summary: 'Steer a live call',
          path: callParam,
          body: callSchemas.steerBody,
          ok: [202, callSchemas.steerAcceptedSchema],
          errors: [403, 404, 409, 422],
        }),
      },
      '/calls/{id}/hangup': {
        post: op({
          id: 'hangUpCall',
          tag: 'Calls',
          summary: 'Hang up a call; before answer it ends canceled',
          path: callParam,
          body: callSchemas.hangupBody,
          ok: [200, callSchemas.callRecordSchema],
          errors: [404, 409],
        }),
      },
      '/voices': {
        get: op({ id: 'listVoices', tag: 'Calls', summary: 'The voice catalogue', ok: [200, callSchemas.voiceListSchema], errors: [] }),
      },
      '/messages': {
        get: op({
          id: 'listMessages',
          tag: 'Messages',
          summary: "The account's messages (voicemails and AI messages), newest first",
          query: messageSchemas.listMessagesQuery,
          ok: [200, messageSchemas.messageListSchema],
          errors: [400, 422],
        }),
      },
      '/messages/{id}': {
        get: op({
          id: 'getMessage',
          tag: 'Messages',
          summary: 'Read a message',
          path: messageParam,
          ok: [200, messageSchemas.messageSchema],
          errors: [404],
        }),
        patch: op({
          id: 'updateMessage',
          tag: 'Messages',
          summary: 'Mark a message read or archived (new → read → archived; a move back is 422 invalid_status)',
          path: messageParam,
          body: messageSchemas.patchMessageBody,
          ok: [200, messageSchemas.messageSchema],
          errors: [404, 422],
        }),
      },
      '/messages/{id}/recording': {
        get: op({
          id: 'getMessageRecording',
          tag: 'Messages',
          summary: "A voicemail's recording",
          path: messageParam,
          ok: [200, z.string().meta({ format: 'binary' }), 'audio/wav'],
          errors: [404],
        }),
      },
      '/numbers': {
        get: op({
          id: 'listNumbers',
          tag: 'Numbers',
          summary: "The account's phone numbers (the operator assigns them)",
          ok: [200, numberSchemas.numberListSchema],
          errors: [],
        }),
      },
      '/numbers/{e164}': {
        get: op({
          id: 'getNumber',
          tag: 'Numbers',
          summary: "Read one of the account's numbers",
          path: numberSchemas.numberParam,
          ok: [200, numberSchemas.numberSchema],
          errors: [404],
        }),
        patch: op({
          id: 'updateNumber',
          tag: 'Numbers',
          summary: 'Name a number and set how its calls are answered',
          description: 'A refused routing step answers 422 invalid_routing naming its path (routing.options.1.agent_id).',
          path: numberSchemas.numberParam,
          body: numberSchemas.numberPatchBody,
          ok: [200, numberSchemas.numberSchema],
          errors: [404, 422],
        }),
      },
      '/queues': {
        post: op({
          id: 'createQueue',
          tag: 'Queues',
          summary: 'Create a call queue',
          body: queueSchemas.createQueueBody,
          ok: [201, queueSchemas.queueSchema],
          errors: [422],
        }),
        get: op({
          id: 'listQueues',
          tag: 'Queues',
          summary: "The account's call queues",
          ok: [200, queueSchemas.queueListSchema],
          errors: [],
        }),
      },
      '/queues/{id}': {
        get: op({
          id: 'getQueue',
          tag: 'Queues',
          summary: 'Read a queue',
          path: queueSchemas.queueParam,
          ok: [200, queueSchemas.queueSchema],
          errors: [404],
        }),
        patch: op({
          id: 'updateQueue',
          tag: 'Queues',
          summary: 'Change a queue (members: the whole list)',
          path: queueSchemas.queueParam,
          body: queueSchemas.patchQueueBody,
          ok: [200, queueSchemas.queueSchema],
          errors: [404, 422],
        }),
        delete: op({
          id: 'deleteQueue',
          tag: 'Queues',
          summary: 'Delete a queue',
          path: queueSchemas.queueParam,
          ok: [200, queueSchemas.queueSchema],
          errors: [404],
        }),
      },
      '/mailboxes': {
        post: op({
          id: 'createMailbox',
          tag: 'Mailboxes',
          summary: 'Create a mailbox for voicemails',
          body: mailboxSchemas.createMailboxBody,
          ok: [201, mailboxSchemas.mailboxSchema],
          errors: [422],
        }),
        get: op({
          id: 'listMailboxes',
          tag: 'Mailboxes',
          summary: "The account's mailboxes",
          ok: [200, mailboxSchemas.mailboxListSchema],
          errors: [],
        }),
      },
      '/mailboxes/{id}': {
        get: op({
          id: 'getMailbox',
          tag: 'Mailboxes',
          summary: 'Read a mailbox',
          path: mailboxSchemas.mailboxParam,
          ok: [200, mailboxSchemas.mailboxSchema],
          errors: [404],
        }),
      },
      '/sim/calls': {
        post: op({
          id: 'simulateCall',
          tag: 'Simulator',
          summary: "The simulated network rings one of the account's numbers as a caller (201: the inbound call, ringing)",
          body: simSchemas.simCallBody,
          ok: [201, callSchemas.callRecordSchema],
          errors: [422],
        }),
      },
      '/tenants/{account_id}/api-keys': {
        post: op({
          id: 'createApiKey',
          tag: 'API keys',
          summary: 'Create an API key; the key is in this reply only',
          path: tenantSchemas.tenantParam,
          body: tenantSchemas.createKeyBody,
          ok: [201, tenantSchemas.apiKeyCreatedSchema],
          errors: [404, 422],
        }),
        get: op({
          id: 'listApiKeys',
          tag: 'API keys',
          summary: "List the account's API keys, revoked ones included",
          path: tenantSchemas.tenantParam,
          ok: [200, tenantSchemas.apiKeyListSchema],
          errors: [404],
        }),
      },
      '/tenants/{account_id}/api-keys/{key_id}': {
        delete: op({
          id: 'revokeApiKey',
          tag: 'API keys',
          summary: 'Revoke an API key, at once; it stays listed as revoked',
          path: tenantSchemas.keyParam,
          ok: [200, tenantSchemas.apiKeySchema],
          errors: [404],
        }),
      },
      '/tenants/{account_id}/settings': {
        get: op({
          id: 'getSettings',
          tag: 'Account',
          summary: "The account's settings and the limits an operator sets for it",
          path: tenantSchemas.tenantParam,
          ok: [200, tenantSchemas.settingsSchema],
          errors: [404],
        }),
        patch: op({
          id: 'updateSettings',
          tag: 'Account',
          summary: 'Change account settings',
          path: tenantSchemas.tenantParam,
          body: tenantSchemas.settingsBody,
          ok: [200, tenantSchemas.settingsSchema],
          errors: [404, 422],
        }),
      },
      '/tenants/{account_id}/carrier': {
        get: op({
          id: 'getCarrier',
          tag: 'Account',
          summary: "The carrier the account's calls go through; its auth token is never shown",
          path: tenantSchemas.tenantParam,
          ok: [200, tenantSchemas.carrierSettingsSchema],
          errors: [404],
        }),
      },
      '/reports/api-usage': {
        get: op({
          id: 'getApiUsage',
          tag: 'Reports',
          summary: 'Usage of the API and MCP: requests, requests over the limit and calls placed',
          query: tenantSchemas.usageQuery,
          ok: [200, tenantSchemas.usageReportSchema],
          errors: [400, 422],
        }),
      },
      '/reports/api-usage.csv': {
        get: op({
          id: 'getApiUsageCsv',
          tag: 'Reports',
          summary: 'The usage report as CSV: the same columns, with a header row',
          query: tenantSchemas.usageQuery,
          ok: [200, z.string(), 'text/csv'],
          errors: [400, 422],
        }),
      },
      ...campaignPaths(op),
    },
  });
}
