import pino, { type DestinationStream, type Logger } from 'pino';
import type { LogFormat, LogLevel } from './config.ts';

export interface LoggerOptions {
  level: LogLevel;
  format: LogFormat;
  /** 1 (stdout) for the server; 2 (stderr) for CLI commands, whose stdout carries their answer. */
  fd?: 1 | 2;
}

/**
 * JSON lines (one per event), as log collectors expect, or readable lines for a person at a terminal.
 * The pretty printer is loaded only when chosen, so JSON logging never pays for it.
 */
export async function createLogger({ level, format, fd = 1 }: LoggerOptions): Promise<Logger> {
  const destination = format === 'pretty' ? await prettyDestination(fd) : pino.destination(fd);
  return pino({ level, base: { service: 'folio' }, timestamp: pino.stdTimeFunctions.isoTime }, destination);
}

/** Fields every line carries, which a person does not need to read. */
const unreadFields = new Set(['level', 'time', 'msg', 'pid', 'hostname', 'service', 'err']);

async function prettyDestination(fd: 1 | 2): Promise<DestinationStream> {
  const { default: pretty } = await import('pino-pretty');
  // Colours follow the pretty printer's own rule: on for a terminal, off when piped or with NO_COLOR.
  return pretty({
    destination: fd,
    translateTime: 'SYS:HH:MM:ss',
    // One line per event: the fields go on the message line (an error's stack still follows it).
    hideObject: true,
    messageFormat: (line) => {
      if (line.msg === 'request') return `${String(line.method)} ${String(line.path)} ${String(line.status)} ${String(line.ms)} ms`;
      const fields = Object.entries(line).filter(([key]) => !unreadFields.has(key));
      return [String(line.msg ?? ''), ...fields.map(([key, value]) => `${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`)].join(' ');
    },
  });
}
