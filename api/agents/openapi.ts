// The Agent API's OpenAPI 3.1 document, generated from the same zod schemas the routes parse with.
import { z } from 'zod';
import { createDocument, type ZodOpenApiOperationObject, type ZodOpenApiResponseObject } from 'zod-openapi';
import { errorBodySchema } from '../http/errors.js';
import * as s from './schemas.js';

const ERROR_TEXT: Record<number, string> = {
  400: 'Invalid body or query',
  401: 'Missing, malformed, unknown or revoked API key',
  402: 'Insufficient AI credits (body includes minCredits and totalBalance)',
  403: 'Conversation belongs to a different company',
  404: 'Unknown conversation or agent; not an API session; contactId of another company',
  409: 'Conversation ended or mismatched; late bind to a different contact',
  429: 'Request rate limit exceeded (Retry-After says when to try again)',
  500: 'Unexpected processing failure',
  503: 'Credentials encryption not configured; company memory disabled',
  504: 'Agent turn exceeded the turn timeout',
};

interface Op {
  summary: string;
  body?: z.ZodType;
  query?: z.ZodObject;
  ok: [number, z.ZodType];
  /** The same success answered as an event stream, one schema per `data:` line. */
  stream?: z.ZodType;
  errors: number[];
}

const conversationParam = z.object({ conversationId: z.uuid().meta({ description: 'Conversation id' }) });

function op(o: Op, withPath = false): ZodOpenApiOperationObject {
  const [status, schema] = o.ok;
  const content = { 'application/json': { schema }, ...(o.stream ? { 'text/event-stream': { schema: o.stream } } : {}) };
  const responses: Record<string, ZodOpenApiResponseObject> = { [String(status)]: { description: o.summary, content } };
  for (const code of [401, 429, 500, ...o.errors]) {
    responses[String(code)] = { description: ERROR_TEXT[code]!, content: { 'application/json': { schema: errorBodySchema } } };
  }
  return {
    summary: o.summary,
    security: [{ bearer: [] }],
    ...(withPath || o.query ? { requestParams: { ...(withPath ? { path: conversationParam } : {}), ...(o.query ? { query: o.query } : {}) } } : {}),
    ...(o.body ? { requestBody: { required: true, content: { 'application/json': { schema: o.body } } } } : {}),
    responses,
  };
}

export function agentOpenApiDocument() {
  return createDocument({
    openapi: '3.1.0',
    info: {
      title: 'Switchboard Agent Conversation API',
      version: '1.0.0',
      description: 'Stateful agent conversations with server-side tools, synchronous or streamed (SSE).',
    },
    servers: [{ url: '/api/v1' }],
    components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
    paths: {
      '/openapi.json': {
        get: {
          summary: 'This document',
          security: [],
          responses: { '200': { description: 'The OpenAPI 3.1 description of this API', content: { 'application/json': { schema: z.record(z.string(), z.unknown()) } } } },
        },
      },
      '/conversations': {
        post: op({
          summary: 'Create (201) or resume (200) a conversation',
          body: s.createConversationBody,
          ok: [201, s.conversationCreated],
          errors: [400, 403, 404, 409, 503],
        }),
      },
      '/conversations/{conversationId}': {
        get: op({ summary: 'Read a conversation and its transcript', query: s.readQuery, ok: [200, s.conversationView], errors: [400, 403, 404] }, true),
      },
      '/conversations/{conversationId}/messages': {
        post: op(
          {
            summary: 'Send a message; the reply is JSON, or an event stream with stream: true',
            body: s.sendMessageBody,
            ok: [200, s.messageReply],
            stream: s.streamEvent,
            errors: [400, 402, 403, 404, 409, 503, 504],
          },
          true,
        ),
      },
      '/conversations/{conversationId}/metadata': {
        patch: op({ summary: 'Replace the conversation metadata', body: s.metadataBody, ok: [200, s.metadataReply], errors: [400, 403, 404, 409] }, true),
      },
      '/conversations/{conversationId}/manual': {
        post: op({ summary: 'Append a manual (admin) message without an AI response', body: s.manualBody, ok: [201, s.manualReply], errors: [400, 403, 404, 409] }, true),
      },
      '/conversations/{conversationId}/end': {
        post: op({ summary: 'End the conversation', ok: [200, s.endReply], errors: [403, 404] }, true),
      },
    },
  });
}
