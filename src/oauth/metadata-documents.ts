import { outgoingBuffer, OutgoingError, type OutgoingFailure } from '../net/outgoing.ts';
import { OAuthError } from './errors.ts';

/**
 * Client-ID metadata documents: the client's `client_id` is an https URL whose JSON describes it.
 * The URL is a stranger's, so it is fetched through the guarded outgoing client (net/outgoing.ts:
 * non-public addresses refused after DNS unless the deployment allows them), with no redirects, a
 * few KB and a few seconds for the whole exchange.
 */
export const metadataDocumentLimits = { maxBytes: 5 * 1024, timeoutMs: 5_000 };

export interface FetchedDocument {
  body: unknown;
  /** How long the document may be used before fetching it again (its Cache-Control, bounded). */
  freshForMs: number;
}

const defaultFreshMs = 3_600_000;
const maxFreshMs = 86_400_000;

function refuse(url: string, why: string): OAuthError {
  return new OAuthError('invalid_client', `The client metadata document ${url} ${why}`);
}

const failures: Record<OutgoingFailure, string> = {
  'invalid-url': 'is not a valid URL',
  'refused-address': 'points at a private address',
  'too-many-redirects': 'redirects; it must be served at its own URL',
  'too-large': `is larger than ${metadataDocumentLimits.maxBytes} bytes`,
  timeout: 'took too long to answer',
  network: 'could not be fetched',
};

/** Whether `clientId` is meant as a metadata document's URL (rather than a registered client's id). */
export function isMetadataDocumentUrl(clientId: string): boolean {
  return /^https?:\/\//i.test(clientId);
}

/** The document at `clientId`; plain http only where private addresses are allowed (development). */
export async function fetchMetadataDocument(clientId: string, allowPrivate: boolean): Promise<FetchedDocument> {
  const url = URL.parse(clientId);
  if (url === null || url.hash !== '') throw refuse(clientId, failures['invalid-url']);
  if (url.protocol !== 'https:' && !(allowPrivate && url.protocol === 'http:')) throw refuse(clientId, 'must be served over https');
  let response: Awaited<ReturnType<typeof outgoingBuffer>>;
  try {
    response = await outgoingBuffer(clientId, { ...metadataDocumentLimits, maxRedirects: 0, allowPrivate, headers: { accept: 'application/json' } });
  } catch (error) {
    if (error instanceof OutgoingError) throw refuse(clientId, failures[error.reason]);
    throw error;
  }
  if (response.status >= 300 && response.status < 400) throw refuse(clientId, failures['too-many-redirects']);
  if (response.status !== 200) throw refuse(clientId, `answered HTTP ${response.status}`);
  let body: unknown;
  try {
    body = JSON.parse(response.body.toString('utf8'));
  } catch {
    throw refuse(clientId, 'is not JSON');
  }
  return { body, freshForMs: freshFor(response.headers['cache-control']) };
}

/** `max-age` bounded to a day; `no-store`/`no-cache`: use once. */
function freshFor(cacheControl: string | undefined): number {
  if (cacheControl === undefined) return defaultFreshMs;
  if (/\bno-(?:store|cache)\b/i.test(cacheControl)) return 0;
  const maxAge = /\bmax-age=(\d+)/i.exec(cacheControl);
  return maxAge ? Math.min(Number(maxAge[1]) * 1000, maxFreshMs) : defaultFreshMs;
}
