// Domain errors. Each API surface renders them in its own shape, once (api/http/errors.ts).
export interface FieldIssue {
  path: string;
  message: string;
}

export abstract class DomainError extends Error {
  abstract readonly status: number;
  /** Machine code for surfaces that carry one (the Voice API); the Agent API shows only the message. */
  readonly code: string;
  /** Extra body fields the spec requires with this error (402: minCredits, totalBalance). */
  readonly extra: Record<string, unknown>;
  /** Seconds after which a retry may succeed, sent as Retry-After; none when retrying will not help. */
  declare readonly retryAfterSec?: number;
  constructor(message: string, code: string, extra: Record<string, unknown> = {}) {
    super(message);
    this.code = code;
    this.extra = extra;
  }
}

export class Invalid extends DomainError {
  readonly status = 400;
  constructor(
    message: string,
    readonly details: FieldIssue[] = [],
    code = 'invalid_request',
  ) {
    super(message, code);
  }
}
/** A request malformed beyond its body or values (two Authorization headers): 400 everywhere, never a 422. */
export class BadRequest extends DomainError {
  readonly status = 400;
  constructor(message: string, code = 'bad_request') {
    super(message, code);
  }
}
export class Unauthorized extends DomainError {
  readonly status = 401;
  constructor(message = 'Missing, malformed, unknown or revoked API key', code = 'unauthorized') {
    super(message, code);
  }
}
export class PaymentRequired extends DomainError {
  readonly status = 402;
  constructor(message: string, extra: Record<string, unknown>) {
    super(message, 'insufficient_credits', extra);
  }
}
export class Forbidden extends DomainError {
  readonly status = 403;
  constructor(message: string, code = 'forbidden') {
    super(message, code);
  }
}
export class NotFound extends DomainError {
  readonly status = 404;
  constructor(message: string, code = 'not_found') {
    super(message, code);
  }
}
export class Conflict extends DomainError {
  readonly status = 409;
  constructor(message: string, code = 'conflict') {
    super(message, code);
  }
}
/** A body whose charset or Content-Encoding the server cannot read. */
export class UnsupportedMediaType extends DomainError {
  readonly status = 415;
  constructor(message: string) {
    super(message, 'unsupported_media_type');
  }
}
/** A value was refused (the Voice API's 422 codes: invalid_to, do_not_call, idempotency_mismatch…). */
export class Unprocessable extends DomainError {
  readonly status = 422;
  constructor(message: string, code: string) {
    super(message, code);
  }
}
export class TooManyRequests extends DomainError {
  readonly status = 429;
  constructor(
    message: string,
    override readonly retryAfterSec: number,
    code = 'rate_limited',
  ) {
    super(message, code);
  }
}
export class Unavailable extends DomainError {
  readonly status = 503;
  constructor(
    message: string,
    code = 'unavailable',
    override readonly retryAfterSec?: number,
  ) {
    super(message, code);
  }
}
export class GatewayTimeout extends DomainError {
  readonly status = 504;
  constructor(message: string) {
    super(message, 'timeout');
  }
}
