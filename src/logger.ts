import pino, { type Logger } from 'pino';

/** Keys and passwords never reach the log. */
export const REDACT_PATHS = [
  'req.headers["x-api-key"]',
  'req.headers.authorization',
  'headers["x-api-key"]',
  'headers.authorization',
  'body.password',
  'password',
  'api_key',
  'apiKey',
  'key',
];

export function createLogger(level: string): Logger {
  return pino({ level, redact: { paths: REDACT_PATHS, censor: '[redacted]' } });
}
