// One way to describe an operation in the OpenAPI documents of every surface; each surface brings
// its error schema, the words for each status, and the errors every operation can answer.
import { z } from 'zod';
import type { ZodOpenApiOperationObject, ZodOpenApiResponseObject } from 'zod-openapi';

export interface Operation {
  /** The operationId: a generated client's method name, unique in its document. */
  id: string;
  /** The one group the operation is listed under in the reference and the SDKs. */
  tag: string;
  summary: string;
  description?: string;
  deprecated?: boolean;
  body?: z.ZodType;
  path?: z.ZodObject;
  query?: z.ZodObject;
  header?: z.ZodObject;
  /** Success statuses (a replay answers 200 where a creation answers 201), body, media type. */
  ok: [number | number[], z.ZodType, string?];
  /** The same success answered as an event stream, one schema per `data:` line. */
  stream?: z.ZodType;
  errors: number[];
}

interface ErrorStyle {
  schema: z.ZodType;
  text: Record<number, string>;
  /** Statuses every operation of the surface may answer (auth, limits, failures), with a body, and with a query. */
  always: number[];
  withBody?: number[];
  withQuery?: number[];
}

export function operation(o: Operation, style: ErrorStyle): ZodOpenApiOperationObject {
  const [statuses, schema, mediaType = 'application/json'] = o.ok;
  const content = { [mediaType]: { schema }, ...(o.stream ? { 'text/event-stream': { schema: o.stream } } : {}) };
  const responses: Record<string, ZodOpenApiResponseObject> = {};
  for (const status of [statuses].flat()) responses[String(status)] = { description: o.summary, content };
  const errors = [...style.always, ...o.errors, ...(o.body ? (style.withBody ?? []) : []), ...(o.query ? (style.withQuery ?? []) : [])];
  for (const code of [...new Set(errors)].sort()) {
    responses[String(code)] = { description: style.text[code]!, content: { 'application/json': { schema: style.schema } } };
  }
  const params = { ...(o.path ? { path: o.path } : {}), ...(o.query ? { query: o.query } : {}), ...(o.header ? { header: o.header } : {}) };
  return {
    operationId: o.id,
    tags: [o.tag],
    summary: o.summary,
    ...(o.description ? { description: o.description } : {}),
    ...(o.deprecated ? { deprecated: true } : {}),
    security: [{ bearer: [] }],
    ...(Object.keys(params).length ? { requestParams: params } : {}),
    // A body whose every field is optional may be left out.
    ...(o.body ? { requestBody: { required: !o.body.safeParse({}).success, content: { 'application/json': { schema: o.body } } } } : {}),
    responses,
  };
}

/** The `/openapi.json` operation itself: public, answers the document. */
export const documentOperation: ZodOpenApiOperationObject = {
  operationId: 'getOpenApiDocument',
  tags: ['OpenAPI'],
  summary: 'This document',
  security: [],
  responses: {
    '200': {
      description: 'The OpenAPI 3.1 description of this API',
      content: { 'application/json': { schema: z.record(z.string(), z.unknown()) } },
    },
  },
};
