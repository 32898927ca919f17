import pino, { type Logger } from 'pino';
import type { LogLevel } from './config.ts';

/** Structured JSON logs on stdout (one line per event), as log collectors expect. */
export function createLogger(level: LogLevel): Logger {
  return pino({ level, base: { service: 'folio' }, timestamp: pino.stdTimeFunctions.isoTime });
}
