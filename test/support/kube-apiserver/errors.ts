// Failures as the API server reports them: a meta/v1 Status with the HTTP code, reason and message
// k8s.io/apimachinery/pkg/api/errors builds for the same situation.
import type { ResourceType } from './resources.js';

export type Obj = Record<string, any>;

export interface StatusDetails {
  name?: string;
  group?: string;
  kind?: string;
  uid?: string;
  causes?: { reason: string; message: string; field?: string }[];
}

export class ApiError extends Error {
  constructor(
    readonly code: number,
    readonly reason: string,
    message: string,
    readonly details?: StatusDetails,
  ) {
    super(message);
  }

  status(): Obj {
    return {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: this.message,
      ...(this.reason ? { reason: this.reason } : {}),
      ...(this.details ? { details: this.details } : {}),
      code: this.code,
    };
  }
}

/** One field problem, as field.Error renders it. */
export interface FieldError {
  type: 'FieldValueRequired' | 'FieldValueInvalid' | 'FieldValueNotSupported' | 'FieldValueTypeInvalid' | 'FieldValueForbidden' | 'FieldValueTooLong';
  field: string;
  /** field.Error.ErrorBody(): "Required value", `Invalid value: "x": why`… */
  body: string;
}

const quote = (value: unknown): string => (typeof value === 'string' ? JSON.stringify(value) : String(JSON.stringify(value) ?? value));

export const fieldError = {
  required: (field: string): FieldError => ({ type: 'FieldValueRequired', field, body: 'Required value' }),
  invalid: (field: string, value: unknown, why: string): FieldError => ({
    type: 'FieldValueInvalid',
    field,
    body: `Invalid value: ${quote(value)}: ${why}`,
  }),
  typeInvalid: (field: string, value: unknown, why: string): FieldError => ({
    type: 'FieldValueTypeInvalid',
    field,
    body: `Invalid value: ${quote(value)}: ${why}`,
  }),
  notSupported: (field: string, value: unknown, supported: unknown[]): FieldError => ({
    type: 'FieldValueNotSupported',
    field,
    body: `Unsupported value: ${quote(value)}: supported values: ${supported.map(quote).join(', ')}`,
  }),
  forbidden: (field: string, why: string): FieldError => ({ type: 'FieldValueForbidden', field, body: `Forbidden: ${why}` }),
};

/** "triggers.switchboard.dev", or just "events" for the core group. */
export function qualifiedResource(type: ResourceType): string {
  return type.group ? `${type.plural}.${type.group}` : type.plural;
}

function resourceDetails(type: ResourceType, name: string): StatusDetails {
  return { name, ...(type.group ? { group: type.group } : {}), kind: type.plural };
}

export const statusError = {
  badRequest: (message: string) => new ApiError(400, 'BadRequest', message),
  unauthorized: () => new ApiError(401, 'Unauthorized', 'Unauthorized'),
  notFound: (type: ResourceType, name: string) =>
    new ApiError(404, 'NotFound', `${qualifiedResource(type)} "${name}" not found`, resourceDetails(type, name)),
  pathNotFound: () => new ApiError(404, 'NotFound', 'the server could not find the requested resource', {}),
  methodNotAllowed: () => new ApiError(405, 'MethodNotAllowed', 'the server does not allow this method on the requested resource', {}),
  notAcceptable: () =>
    new ApiError(406, 'NotAcceptable', 'only the following media types are accepted: application/json, application/yaml, application/json;as=Table;v=v1;g=meta.k8s.io'),
  alreadyExists: (type: ResourceType, name: string) =>
    new ApiError(409, 'AlreadyExists', `${qualifiedResource(type)} "${name}" already exists`, resourceDetails(type, name)),
  conflict: (type: ResourceType, name: string, why: string) =>
    new ApiError(409, 'Conflict', `Operation cannot be fulfilled on ${qualifiedResource(type)} "${name}": ${why}`, resourceDetails(type, name)),
  expired: (message: string) => new ApiError(410, 'Expired', message),
  unsupportedMediaType: (contentType: string, accepted: string[]) =>
    new ApiError(415, 'UnsupportedMediaType', `the body of the request was in an unknown format - accepted media types include: ${accepted.join(', ')}`, {
      causes: [{ reason: 'UnexpectedServerResponse', message: contentType }],
    }),
  /** errors.NewInvalid: `Kind.group "name" is invalid: field: body` (several in brackets). */
  invalid: (type: { kind: string; group: string }, name: string, errors: FieldError[]) => {
    const qualifiedKind = type.group ? `${type.kind}.${type.group}` : type.kind;
    const rendered = errors.map((e) => `${e.field}: ${e.body}`);
    const summary = rendered.length === 1 ? rendered[0] : `[${rendered.join(', ')}]`;
    return new ApiError(422, 'Invalid', `${qualifiedKind} "${name}" is invalid: ${summary}`, {
      name,
      ...(type.group ? { group: type.group } : {}),
      kind: type.kind,
      causes: errors.map((e) => ({ reason: e.type, message: e.body, field: e.field })),
    });
  },
  internal: (message: string) => new ApiError(500, 'InternalError', `Internal error occurred: ${message}`, { causes: [{ reason: '', message }] }),
  unavailable: () => new ApiError(503, 'ServiceUnavailable', 'the server is currently unable to handle the request'),
};
