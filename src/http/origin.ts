import { BlockList, isIP } from 'node:net';
import type { Config } from '../config.ts';

/**
 * Which browser origins may act on Folio, and which `Host` names it answers to (decisions/0012). The
 * MCP endpoint refuses the rest (the transport specification's DNS-rebinding rule); a check that needs
 * the same answer (CSRF on cookie requests) calls the same policy.
 */
export interface OriginPolicy {
  /** Folio's own origin (`PUBLIC_URL`, else the request's `Host`) or one of `CORS_ORIGINS`. */
  allowsOrigin(origin: string, host: string | undefined): boolean;
  /** Any name when Folio listens on a public interface; on loopback, only loopback names and `PUBLIC_URL`'s host. */
  allowsHost(host: string | undefined): boolean;
  /** Why a request with these headers is refused, or undefined when it may proceed; no `Origin` is not a browser. */
  refusal(headers: RequestOrigin): string | undefined;
}

export interface RequestOrigin {
  origin: string | undefined;
  host: string | undefined;
}

export function createOriginPolicy(config: Pick<Config, 'host' | 'publicUrl' | 'corsOrigins'>): OriginPolicy {
  const publicUrl = config.publicUrl === undefined ? undefined : new URL(config.publicUrl);
  const listed = new Set(config.corsOrigins);
  // A rebinding page reaches a loopback listener under its own name, with a matching Origin, so the
  // name itself is the tell. On a public interface every name may be legitimate (PUBLIC_URL fixes the origin).
  const onLoopback = isLoopback(config.host);

  // Every request of a client names the same host: each name is judged once (a few, so a small map).
  const judged = new Map<string, boolean>();
  const allowsHost = (host: string | undefined): boolean => {
    if (!onLoopback) return true;
    if (host === undefined) return false;
    let allowed = judged.get(host);
    if (allowed === undefined) {
      const name = hostOf(host)?.hostname;
      allowed = name !== undefined && (isLoopback(name) || name === publicUrl?.hostname);
      if (judged.size >= 64) judged.clear();
      judged.set(host, allowed);
    }
    return allowed;
  };
  const allowsOrigin = (origin: string, host: string | undefined): boolean => {
    const parsed = originOf(origin);
    if (parsed === undefined) return false;
    if (listed.has(parsed.origin)) return true;
    if (publicUrl) return parsed.origin === publicUrl.origin;
    // Without PUBLIC_URL the scheme is not compared: behind a TLS proxy the request itself arrives as http.
    return parsed.host === hostOf(host)?.host;
  };
  return {
    allowsOrigin,
    allowsHost,
    refusal({ origin, host }) {
      if (!allowsHost(host)) return `Forbidden: this server does not answer to the host ${JSON.stringify(host ?? '')}`;
      if (origin !== undefined && !allowsOrigin(origin, host)) return `Forbidden: the origin ${JSON.stringify(origin)} may not call this server`;
      return undefined;
    },
  };
}

/** The request's `Origin` and `Host` (an in-process request has no Host header: its URL names the host). */
export function requestOrigin(header: (name: string) => string | undefined, url: string): RequestOrigin {
  return { origin: header('origin'), host: header('host') ?? new URL(url).host };
}

const loopbackAddresses = new BlockList();
loopbackAddresses.addSubnet('127.0.0.0', 8, 'ipv4');
loopbackAddresses.addAddress('::1', 'ipv6');

/** `localhost`, 127.0.0.0/8 or ::1 (bracketed or not): the names that only ever reach this machine. */
function isLoopback(name: string): boolean {
  const bare = name.toLowerCase().replace(/^\[(.*)\]$/, '$1');
  if (bare === 'localhost') return true;
  const family = isIP(bare);
  return family !== 0 && loopbackAddresses.check(bare, family === 4 ? 'ipv4' : 'ipv6');
}

/** A `Host` value as a URL's host (lower case, default port dropped); undefined when it is not one. */
function hostOf(host: string | undefined): URL | undefined {
  if (host === undefined || host === '' || /[/?#@\\\s]/.test(host)) return undefined;
  return URL.parse(`http://${host}`) ?? undefined;
}

/** An http(s) `Origin` value; `null` (sandboxed frames, files) and anything else is no origin at all. */
function originOf(origin: string): URL | undefined {
  const parsed = URL.parse(origin);
  return parsed !== null && (parsed.protocol === 'http:' || parsed.protocol === 'https:') ? parsed : undefined;
}
