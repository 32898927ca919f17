import { OutgoingError, outgoingBuffer, type OutgoingFailure } from '../net/outgoing.ts';
import { OAuthError } from './errors.ts';

/**
 * Client-ID metadata documents: the client's `client_id` is an https URL whose JSON describes it.
 * Fetching a URL a stranger names is request forgery waiting to happen, so the fetch is guarded:
 * through the one outgoing client (src/net/outgoing.ts, decisions/0026): non-public addresses refused
 * at connect time unless the deployment allows them, redirects not followed, the body stopped at a
 * few KB and the whole fetch at a few seconds.
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

/** Whether `clientId` is meant as a metadata document's URL (rather than a registered client's id). */
export function isMetadataDocumentUrl(clientId: string): boolean {
  return /^https?:\/\//i.test(clientId);
}

export async function fetchMetadataDocument(clientId: string, allowPrivate: boolean): Promise<FetchedDocument> {
  const url = URL.parse(clientId);
  if (url === null || url.hash !== '' || url.username !== '' || url.password !== '') throw refuse(clientId, 'is not a valid URL');
  if (url.protocol !== 'https:' && !(allowPrivate && url.protocol === 'http:')) throw refuse(clientId, 'must be served over https');
  let response: Awaited<ReturnType<typeof outgoingBuffer>>;
  try {
    response = await outgoingBuffer(url.href, { ...metadataDocumentLimits, allowPrivate, headers: { accept: 'application/json' } });
  } catch (error) {
    throw refuse(clientId, error instanceof OutgoingError ? outgoingProblems[error.reason] : 'could not be fetched');
  }
  if (response.status >= 300 && response.status < 400) throw refuse(clientId, 'redirects; it must be served at its own URL');
  if (response.status !== 200) throw refuse(clientId, `answered HTTP ${response.status}`);
  try {
    return { body: JSON.parse(response.body.toString('utf8')), freshForMs: freshFor(response.headers['cache-control']) };
  } catch {
    throw refuse(clientId, 'is not JSON');
  }
}

/** What each way an outgoing request fails says of the document. */
const outgoingProblems: Record<OutgoingFailure, string> = {
  'invalid-url': 'is not a valid URL',
  'refused-address': 'points at a private address',
  'too-many-redirects': 'redirects; it must be served at its own URL',
  'too-large': `is larger than ${metadataDocumentLimits.maxBytes} bytes`,
  timeout: 'took too long to answer',
  network: 'could not be fetched',
};

/** `max-age` bounded to a day; `no-store`/`no-cache`: use once. */
function freshFor(cacheControl: string | undefined): number {
  if (cacheControl === undefined) return defaultFreshMs;
  if (/\bno-(?:store|cache)\b/i.test(cacheControl)) return 0;
  const maxAge = /\bmax-age=(\d+)/i.exec(cacheControl);
  return maxAge ? Math.min(Number(maxAge[1]) * 1000, maxFreshMs) : defaultFreshMs;
}

