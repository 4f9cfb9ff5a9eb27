import pino, { type DestinationStream, type Logger } from 'pino';
import { PinoPretty } from 'pino-pretty';

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

export interface LoggerOptions {
  /** Readable lines rather than JSON; default: whether stdout is a terminal. */
  readonly pretty?: boolean;
  /** Where the lines go; default stdout. */
  readonly destination?: DestinationStream;
}

/**
 * JSON lines for a log collector; readable lines when a person watches the terminal. Pretty printing
 * runs in this thread (no transport worker), synchronously, so the last lines before an exit are
 * never lost; it only runs at a terminal, where throughput is not the point.
 */
export function createLogger(level: string, opts: LoggerOptions = {}): Logger {
  const options = { level, redact: { paths: REDACT_PATHS, censor: '[redacted]' } };
  const pretty = opts.pretty ?? process.stdout.isTTY === true;
  if (!pretty) return opts.destination ? pino(options, opts.destination) : pino(options);
  const destination = opts.destination ?? process.stdout;
  return pino(options, PinoPretty({ destination, sync: true, colorize: opts.destination === undefined && process.stdout.hasColors?.() === true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' }));
}
