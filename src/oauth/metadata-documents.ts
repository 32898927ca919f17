import http from 'node:http';
import https from 'node:https';
import { useAgent } from 'request-filtering-agent';
import { OAuthError } from './errors.ts';

/**
 * Client-ID metadata documents: the client's `client_id` is an https URL whose JSON describes it.
 * Fetching a URL a stranger names is request forgery waiting to happen, so the fetch is guarded:
 * private, loopback and link-local addresses are refused at connect time (after DNS, so a name that
 * resolves to one is refused too) unless the deployment allows them, redirects are not followed, the
 * body stops at a few KB and the whole fetch at a few seconds.
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
  const agent = useAgent(url.href, { allowPrivateIPAddress: allowPrivate, keepAlive: false });
  // The whole fetch, not only each wait for bytes: a server dribbling a byte at a time is cut off too.
  const deadline = AbortSignal.timeout(metadataDocumentLimits.timeoutMs);
  const failed = (why: string) => (deadline.aborted ? refuse(clientId, 'took too long to answer') : refuse(clientId, why));
  return new Promise<FetchedDocument>((resolve, reject) => {
    const client = url.protocol === 'https:' ? https : http;
    const request = client.get(url, { agent, signal: deadline, headers: { accept: 'application/json' } }, (response) => {
      const status = response.statusCode ?? 0;
      if (status >= 300 && status < 400) {
        response.destroy();
        reject(refuse(clientId, 'redirects; it must be served at its own URL'));
        return;
      }
      if (status !== 200) {
        response.destroy();
        reject(refuse(clientId, `answered HTTP ${status}`));
        return;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      response.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > metadataDocumentLimits.maxBytes) {
          response.destroy();
          reject(refuse(clientId, `is larger than ${metadataDocumentLimits.maxBytes} bytes`));
          return;
        }
        chunks.push(chunk);
      });
      response.on('error', () => reject(failed('could not be read')));
      response.on('end', () => {
        try {
          resolve({ body: JSON.parse(Buffer.concat(chunks).toString('utf8')), freshForMs: freshFor(response.headers['cache-control']) });
        } catch {
          reject(refuse(clientId, 'is not JSON'));
        }
      });
    });
    request.on('error', (error) => {
      if (/private|not allowed/i.test(error.message)) reject(refuse(clientId, 'points at a private address'));
      else reject(failed('could not be fetched'));
    });
  });
}

/** `max-age` bounded to a day; `no-store`/`no-cache`: use once. */
function freshFor(cacheControl: string | undefined): number {
  if (cacheControl === undefined) return defaultFreshMs;
  if (/\bno-(?:store|cache)\b/i.test(cacheControl)) return 0;
  const maxAge = /\bmax-age=(\d+)/i.exec(cacheControl);
  return maxAge ? Math.min(Number(maxAge[1]) * 1000, maxFreshMs) : defaultFreshMs;
}

