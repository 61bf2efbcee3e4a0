// Errors that say Postgres cannot take a request now: unreachable, out of connections or of disk
// or memory, shutting down, read-only (a standby after a failover), or no free connection in this
// process's pools within SWITCHBOARD_DB_ACQUIRE_TIMEOUT_MS.
// Every API surface answers them 503 with Retry-After (never 500), through domainErrorOf.
import { DomainError, Unavailable } from '../errors.js';

const RETRY_AFTER_SEC = 2;

/** Socket errors of a connection attempt, and SQLSTATEs: 57P01-57P03 shutting down or starting, 25006 read-only transaction. */
const CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  '57P01',
  '57P02',
  '57P03',
  '25006',
]);
/** SQLSTATE classes: 08 connection exceptions, 53 insufficient resources (disk full, out of memory, too many clients). */
const CLASSES = ['08', '53'];

/** What pg.Pool throws when its connectionTimeoutMillis runs out (no code of its own). */
const POOL_TIMEOUTS = new Set(['timeout exceeded when trying to connect', 'Connection terminated due to connection timeout']);

/** What pg throws, with no code, for a query on a connection that broke (knex puts the query first: `ROLLBACK - …`). */
const BROKEN_CONNECTION = ['Client has encountered a connection error and is not queryable', 'Connection terminated unexpectedly'];

function databaseUnavailable(err: unknown): boolean {
  if (!err || typeof err !== 'object') return false;
  const { code, name, message, errors } = err as { code?: unknown; name?: unknown; message?: unknown; errors?: unknown };
  if (typeof code === 'string' && (CODES.has(code) || CLASSES.some((c) => code.startsWith(c)))) return true;
  if (name === 'KnexTimeoutError' || POOL_TIMEOUTS.has(message as string)) return true;
  if (typeof message === 'string' && BROKEN_CONNECTION.some((m) => message.endsWith(m))) return true;
  // An AggregateError: one connection attempt per address of the host.
  return Array.isArray(errors) && errors.some(databaseUnavailable);
}

/** `err` as the domain error a surface renders, or null for an unexpected one (a 500). */
export function domainErrorOf(err: unknown): DomainError | null {
  if (err instanceof DomainError) return err;
  if (databaseUnavailable(err)) return new Unavailable('The database is unavailable or busy; retry later', 'unavailable', RETRY_AFTER_SEC);
  return null;
}
