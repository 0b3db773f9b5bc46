import { pino, type DestinationStream, type Logger } from 'pino';
import type { Config } from './config/config.js';

/** Paths that may carry credentials; pino replaces them before a line is written. */
const REDACTED = [
  'req.headers.authorization',
  'req.headers.cookie',
  'headers.authorization',
  'headers["webhook-signature"]',
  'secret',
  'webhookSecret',
  'key',
  '*.secret',
  '*.webhookSecret',
];

/**
 * The one way a logger is made, in the main thread and in every worker thread: the configured level, the same
 * redaction. `name` tells the worker threads' lines apart; lines go to stdout unless `destination` is given.
 */
export function createLogger(
  config: Pick<Config, 'logLevel'>,
  options: { name?: string; destination?: DestinationStream } = {},
): Logger {
  return pino(
    { ...(options.name ? { name: options.name } : {}), level: config.logLevel, redact: { paths: REDACTED, censor: '[redacted]' } },
    options.destination,
  );
}
