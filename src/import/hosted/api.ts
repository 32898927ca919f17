import type { Config } from '../../config.ts';
import { AppError, validationError } from '../../core/errors.ts';
import { OutgoingError, outgoingBuffer } from '../../net/outgoing.ts';
import { TransientFailure, withRetries } from '../../net/retry.ts';

/**
 * WordPress.com's public REST API (v1.1), as the `legacy-hosted` source reads it: every request
 * through the guarded client (decisions/0026), JSON answers, a timeout, a broken connection, 429
 * (after its `Retry-After`) and 5xx tried again after a pause doubled each time, lists read page by
 * page. A refused token is the one answer every caller shares: a 400 naming the source, before
 * anything is written.
 */

export const sourceName = 'legacy-hosted';

/** An answer larger than this is not an API page (100 posts with their content fit many times). */
const maxAnswerBytes = 64 * 1024 * 1024;
/** The longest `Retry-After` waited for; a longer one fails the request with the wait named. */
const maxRetryAfterMs = 60_000;

/** The site as the API names it: its host, and a path below it joined with `::` (WordPress.com's form). */
export function siteIdentifier(url: string): string {
  const parsed = new URL(url);
  const path = parsed.pathname.split('/').filter(Boolean);
  return [parsed.host.toLowerCase(), ...path].join('::');
}

/** A 403 that is not about the token: the token may not do this one thing (read private posts, list users). */
export interface Forbidden {
  forbidden: string;
}

/** An answer, or the 403 the caller may skip past. */
export type Answer<T> = { body: T } | Forbidden;

export interface WpcomOptions {
  config: Config;
  accessToken?: string;
  signal?: AbortSignal;
  /** Overrides for probes, which share a deadline and try once. */
  timeoutMs?: number;
  retries?: number;
}

interface ApiErrorBody {
  error?: unknown;
  message?: unknown;
}

const tokenErrors = new Set(['invalid_token', 'authorization_required', 'invalid_grant', 'token_expired']);

export class WpcomApi {
  readonly #options: WpcomOptions;

  constructor(options: WpcomOptions) {
    this.#options = options;
  }

  /** `/rest/v1.1/<path>` with the query, as JSON. */
  async get<T>(path: string, query: Record<string, string | number> = {}): Promise<T> {
    const answer = await this.request<T>(path, query);
    if ('forbidden' in answer) throw refusal(path, 403, { message: answer.forbidden });
    return answer.body;
  }

  /** As `get`, but a 403 that is not about the token is an answer (the caller skips what it may not read). */
  async getUnlessForbidden<T>(path: string, query: Record<string, string | number> = {}): Promise<Answer<T>> {
    return this.request<T>(path, query);
  }

  /**
   * Every page of a list: by `page_handle` where the answer's `meta.next_page` gives one (posts),
   * else by page number until `found` items have come or a page is empty.
   */
  async *pages<T>(path: string, key: string, query: Record<string, string | number> = {}, perPage = 100): AsyncGenerator<{ items: T[] } | Forbidden> {
    let page = 1;
    let handle: string | undefined;
    let seen = 0;
    for (;;) {
      const paging: Record<string, string | number> = handle === undefined ? { page } : { page_handle: handle };
      const answer = await this.request<Record<string, unknown>>(path, { ...query, number: perPage, ...paging });
      if ('forbidden' in answer) {
        yield answer;
        return;
      }
      const { body } = answer;
      const items = Array.isArray(body[key]) ? (body[key] as T[]) : [];
      if (items.length > 0) yield { items };
      seen += items.length;
      const next = (body.meta as { next_page?: unknown } | undefined)?.next_page;
      const found = typeof body.found === 'number' ? body.found : undefined;
      // An empty page, or a handle given twice, ends the list: a broken answer cannot loop forever.
      if (items.length === 0) return;
      if (typeof next === 'string' && next !== '') {
        if (next === handle) return;
        handle = next;
      } else if (handle === undefined && found !== undefined && seen < found) page += 1;
      else return;
    }
  }

  private async request<T>(path: string, query: Record<string, string | number>): Promise<Answer<T>> {
    const { config, signal } = this.#options;
    const { timeoutMs, retries, retryDelayMs } = config.import.wpcom;
    const url = new URL(`${config.import.wpcom.apiUrl}/rest/v1.1/${path}`);
    for (const [name, value] of Object.entries(query)) url.searchParams.set(name, String(value));
    const options = { retries: this.#options.retries ?? retries, delayMs: retryDelayMs, signal };
    try {
      return await withRetries(() => this.requestOnce<T>(path, url, this.#options.timeoutMs ?? timeoutMs), options);
    } catch (error) {
      if (error instanceof TransientFailure) throw busy(path, `${error.message} (${error.tries} tries)`);
      throw error;
    }
  }

  /** One try: the answer, a 403's reason, or a TransientFailure for what another try may not meet. */
  private async requestOnce<T>(path: string, url: URL, timeoutMs: number): Promise<Answer<T>> {
    const { config, accessToken } = this.#options;
    let response;
    try {
      response = await outgoingBuffer(url.href, {
        timeoutMs,
        maxBytes: maxAnswerBytes,
        allowPrivate: config.outgoingAllowPrivate,
        headers: { accept: 'application/json', ...(accessToken ? { authorization: `Bearer ${accessToken}` } : {}) },
      });
    } catch (error) {
      if (!(error instanceof OutgoingError)) throw error;
      if (error.reason !== 'timeout' && error.reason !== 'network') throw busy(path, error.message);
      throw new TransientFailure(error.message);
    }
    const body = parseJson(response.body);
    if (response.status >= 200 && response.status < 300) {
      if (body !== null && typeof body === 'object') return { body: body as T };
      throw busy(path, `the answer (${response.status}) is not a JSON object`);
    }
    if (response.status === 429 || response.status >= 500) {
      const after = retryAfterMs(response.headers['retry-after']);
      if (after !== undefined && after > maxRetryAfterMs) throw busy(path, `WordPress.com asks to wait ${Math.ceil(after / 1000)} s before the next request; try again later`);
      throw new TransientFailure(`WordPress.com answered ${response.status}`, after);
    }
    const error = (body ?? {}) as ApiErrorBody;
    if (response.status === 401 || tokenErrors.has(String(error.error))) throw tokenRefused(error);
    if (response.status === 403) return { forbidden: typeof error.message === 'string' ? error.message : String(error.error ?? 'forbidden') };
    throw refusal(path, response.status, error);
  }
}

function parseJson(bytes: Buffer): unknown {
  try {
    return JSON.parse(bytes.toString('utf8'));
  } catch {
    return undefined;
  }
}

/** `Retry-After` as milliseconds: seconds, or an HTTP date. */
function retryAfterMs(header: string | string[] | undefined): number | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  if (value === undefined || value.trim() === '') return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

/** The token was refused (invalid, expired, revoked): nothing can be read with it. */
export function tokenRefused(error: ApiErrorBody): AppError {
  const reason = `${String(error.error ?? 'invalid_token')}${typeof error.message === 'string' ? `: ${error.message}` : ''}`;
  return validationError(
    [{ path: 'accessToken', message: `WordPress.com refused the access token (${reason}); connect the site again` }],
    `${sourceName}: WordPress.com refused the access token (${reason}); connect the site again (GET /import/legacy/connect)`,
  );
}

function refusal(path: string, status: number, error: ApiErrorBody): AppError {
  const what = typeof error.message === 'string' ? error.message : `it answered ${status}`;
  if (status === 404) return validationError([{ path: 'url', message: `WordPress.com has no such site (${what})` }], `${sourceName}: WordPress.com has no such site (${what})`);
  return validationError([{ path: 'url', message: `WordPress.com refused ${path}: ${what}` }], `${sourceName}: WordPress.com refused ${path}: ${what}`);
}

function busy(path: string, message: string): AppError {
  return new AppError('SERVICE_UNAVAILABLE', `${sourceName}: WordPress.com did not answer ${path}: ${message}`, { source: sourceName });
}
