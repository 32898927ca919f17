import type { Config } from '../config.ts';
import { databaseRefusal } from '../db/refusals.ts';

/**
 * A mistake in how Folio was started (a port taken, a host or a database user that does not exist),
 * told in one sentence that names the problem and its fix: the person at the console made it, so a
 * stack trace would only hide the sentence. The CLI prints it and exits 2, as for a bad variable.
 */
export class CliProblem extends Error {
  override name = 'CliProblem';
}

type SystemError = Error & { code?: unknown; syscall?: unknown; hostname?: unknown };

/** `error` as a CliProblem when it is one of the common start-up mistakes, else `error` itself. */
export function explainStartFailure(error: unknown, config: Config): unknown {
  const sentence = listenProblem(error, config) ?? databaseRefusal(error, config.database);
  return sentence === undefined ? error : new CliProblem(sentence);
}

const hostFix = 'set HOST (or --host) to an address of this machine: 127.0.0.1 for this machine alone, 0.0.0.0 for every network interface';

/** Binding the server's socket (`listen`, after the database is migrated), or resolving HOST for it. */
function listenProblem(error: unknown, config: Config): string | undefined {
  if (!(error instanceof Error)) return undefined;
  const { code, syscall, hostname } = error as SystemError;
  if (syscall === 'getaddrinfo' && hostname === config.host) {
    return `HOST ${config.host} does not resolve to an address (${code}): ${hostFix}`;
  }
  if (syscall !== 'listen') return undefined;
  switch (code) {
    case 'EADDRINUSE':
      return `port ${config.port} at ${config.host} is already in use (another Folio, or another program): stop that program, or start Folio on a free port with PORT (or --port), such as PORT=${config.port + 1}`;
    case 'EACCES':
      return `this process may not listen on port ${config.port} at ${config.host} (ports below 1024 need privileges): use a port from 1024 up with PORT (or --port), with a reverse proxy in front for 80 or 443`;
    case 'EADDRNOTAVAIL':
      return `HOST ${config.host} is not an address of this machine: ${hostFix}`;
    default:
      return undefined;
  }
}
