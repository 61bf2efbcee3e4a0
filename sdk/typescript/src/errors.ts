// Typed errors: one class per API's error shape, under SwitchboardError.
import type { AgentSchemas, Trigger, VoiceSchemas } from './types.js';

export type AgentErrorBody = AgentSchemas['Error'];
export type VoiceErrorBody = VoiceSchemas['VoiceError'];

/** An answer that is not a success, from either API. */
export class SwitchboardError extends Error {
  override name = 'SwitchboardError';
  /** The HTTP status. */
  readonly status: number;
  /** The Voice API's error code (`not_found`, `invalid_to`…); the Agent API's errors have none. */
  readonly code: string | undefined;
  /** The answer's body, parsed as JSON when it was. */
  readonly body: unknown;
  /** The server's X-Request-Id for this request, to quote when asking about it. */
  readonly requestId: string | undefined;
  /** Seconds the server asked to wait before trying again (Retry-After), if it said. */
  readonly retryAfterSec: number | undefined;

  constructor(message: string, response: Response, body: unknown, code?: string) {
    super(message);
    this.status = response.status;
    this.code = code;
    this.body = body;
    this.requestId = response.headers.get('x-request-id') ?? undefined;
    const retryAfter = Number(response.headers.get('retry-after') ?? Number.NaN);
    this.retryAfterSec = Number.isFinite(retryAfter) ? retryAfter : undefined;
  }
}

/** The Agent API's `{error, details?, …}`. */
export class AgentApiError extends SwitchboardError {
  override name = 'AgentApiError';
  declare readonly body: AgentErrorBody;
  /** The fields a 400 refused, each with why. */
  readonly details: NonNullable<AgentErrorBody['details']>;

  constructor(response: Response, body: AgentErrorBody) {
    super(body.error, response, body);
    this.details = body.details ?? [];
  }
}

/** The Voice API's `{error: {code, message}}`. */
export class VoiceApiError extends SwitchboardError {
  override name = 'VoiceApiError';
  declare readonly body: VoiceErrorBody;
  declare readonly code: string;

  constructor(response: Response, body: VoiceErrorBody) {
    super(body.error.message, response, body, body.error.code);
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

/** The error of a refused answer, in its API's shape when the body has it. */
export function errorOf(api: 'agent' | 'voice', response: Response, body: unknown): SwitchboardError {
  if (api === 'agent' && isObject(body) && typeof body.error === 'string') return new AgentApiError(response, body as AgentErrorBody);
  if (api === 'voice' && isObject(body) && isObject(body.error) && typeof body.error.code === 'string') {
    return new VoiceApiError(response, body as VoiceErrorBody);
  }
  // Not the API's shape: a proxy's page, say.
  return new SwitchboardError(`HTTP ${response.status}`, response, body);
}

/** Thrown by verifyWebhook when a request is not a webhook Switchboard signed with the secret. */
export class WebhookVerificationError extends Error {
  override name = 'WebhookVerificationError';
}

/** Thrown by jobs.waitFor when the job is not final in time. */
export class WaitTimeoutError extends Error {
  override name = 'WaitTimeoutError';
  constructor(
    message: string,
    /** The job as last read. */
    readonly last: Trigger,
  ) {
    super(message);
  }
}
