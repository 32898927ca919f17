import dns from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';

/**
 * The SSRF guard of outgoing webhooks: loopback, private, link-local and other non-public addresses
 * are refused unless the deployment allows them (WEBHOOK_ALLOW_PRIVATE_ADDRESSES). The check is made
 * on the address actually connected to (`guardedLookup`), so a name that resolves differently at
 * delivery time than when it was subscribed cannot reach inside.
 */
const nonPublic = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  nonPublic.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  nonPublic.addSubnet(network, prefix, 'ipv6');
}

export function isNonPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return nonPublic.check(address, 'ipv4');
  if (family !== 6) return false;
  // An IPv4 address written as IPv6 (::ffff:127.0.0.1) is judged as the IPv4 address it is.
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  return mapped ? nonPublic.check(mapped[1]!, 'ipv4') : nonPublic.check(address, 'ipv6');
}

export class RefusedAddressError extends Error {
  override name = 'RefusedAddressError';
  constructor(host: string, address: string) {
    super(`${host} is ${address === host ? '' : `at ${address}, `}a loopback or private address, which this deployment does not allow (WEBHOOK_ALLOW_PRIVATE_ADDRESSES)`);
  }
}

/** A DNS lookup for outgoing connections that fails when any address found is not public. */
export const guardedLookup: LookupFunction = (hostname, options, callback) => {
  dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, '', 0);
    const refused = addresses.find((entry) => isNonPublicAddress(entry.address));
    if (refused) return callback(Object.assign(new RefusedAddressError(hostname, refused.address), { code: 'EREFUSED_ADDRESS' }), '', 0);
    if (options.all) return (callback as unknown as (error: null, addresses: dns.LookupAddress[]) => void)(null, addresses);
    const first = addresses[0]!;
    callback(null, first.address, first.family);
  });
};

/**
 * Why a subscription's URL may not be used here, or undefined: not http(s), or a host that is (or
 * resolves to) a non-public address. A name that does not resolve now is accepted; delivery checks again.
 */
export async function urlProblem(url: string, allowPrivate: boolean): Promise<string | undefined> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'Must be an absolute http(s) URL';
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return 'Must be an http(s) URL';
  if (parsed.username || parsed.password) return 'Must not carry a user name or password';
  if (allowPrivate) return undefined;
  const host = parsed.hostname.replace(/^\[|\]$/g, '');
  const addresses = isIP(host) ? [host] : await dns.promises.lookup(host, { all: true }).then((found) => found.map((entry) => entry.address), () => []);
  const refused = addresses.find(isNonPublicAddress);
  return refused === undefined ? undefined : new RefusedAddressError(host, refused).message;
}
