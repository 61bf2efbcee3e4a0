// Structured JSON logs. Secret-bearing fields are redacted at the logger, not at each call site.
import { pino, type Logger } from 'pino';

export type { Logger };

const redactPaths = [
  'authConfig',
  '*.authConfig',
  '*.*.authConfig',
  'apiKey',
  '*.apiKey',
  'authToken',
  '*.authToken',
  'authorization',
  '*.authorization',
  'req.headers.authorization',
  'password',
  '*.password',
  'token',
  '*.token',
  'webhookSecret',
  '*.webhookSecret',
];

export function createLogger(level: string, destination?: NodeJS.WritableStream): Logger {
  return pino(
    { level, base: { service: 'switchboard' }, redact: { paths: redactPaths, censor: '[redacted]' } },
    destination as pino.DestinationStream | undefined,
  );
}
