import type { Context as HonoContext } from 'hono';
import { incomingMessage, requestHeader } from './request-headers.ts';

/**
 * The address a request came from, as TRUST_PROXY says (decisions/0021). With no proxy trusted it is
 * the socket's: a forwarded header is then anyone's to write. With `hops` proxies in front, each one
 * appends the address it saw to `X-Forwarded-For`, so the `hops`-th entry from the right is what the
 * outermost trusted proxy saw; entries left of it are the client's own to forge and are ignored.
 */
export function clientAddress(c: HonoContext, hops: number): string | undefined {
  const socketAddress = incomingMessage(c)?.socket.remoteAddress;
  if (hops === 0) return socketAddress;
  const forwarded = requestHeader(c, 'x-forwarded-for')
    ?.split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  if (!forwarded || forwarded.length === 0) return socketAddress;
  return forwarded[Math.max(0, forwarded.length - hops)];
}
