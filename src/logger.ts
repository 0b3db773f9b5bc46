import { pino, type Logger } from 'pino';
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

export function createLogger(config: Pick<Config, 'logLevel'>): Logger {
  return pino({ level: config.logLevel, redact: { paths: REDACTED, censor: '[redacted]' } });
}
