import { AppError } from '../../core/errors.ts';
import { OutgoingError, outgoingBuffer } from '../../net/outgoing.ts';
import type { ImportSource, ProbeContext, ProbeResult } from '../sources/types.ts';

/**
 * `legacy-rest` (import.md §1): a self-hosted WordPress found through its REST API index, probe only.
 * The index is at `/wp-json/`, or at `/?rest_route=/` on sites with plain permalinks; it names the
 * site and, with the `wp/v2` namespace, the collections whose public counts `X-WP-Total` gives.
 * Drafts and private posts are not public: the probe sends people to the export file for those.
 */
const indexBytes = 2 * 1024 * 1024;

export const legacyRestSource: ImportSource = {
  id: 'legacy-rest',
  name: 'Self-hosted WordPress (REST API probe)',
  probe: probeWordPress,
  analyze() {
    throw probeOnly();
  },
  fetchContent() {
    throw probeOnly();
  },
};

function probeOnly(): AppError {
  return new AppError('VALIDATION_ERROR', 'legacy-rest only detects a self-hosted WordPress site: import it from its export file (Tools → Export in WordPress)', {
    issues: [{ path: 'type', message: 'legacy-rest supports probe only' }],
  });
}

interface RestIndex {
  name?: unknown;
  description?: unknown;
  url?: unknown;
  home?: unknown;
  namespaces?: unknown;
}

async function probeWordPress(url: string, context: ProbeContext): Promise<ProbeResult | null> {
  const base = url.endsWith('/') ? url : `${url}/`;
  for (const indexUrl of [new URL('wp-json/', base).href, new URL('?rest_route=/', base).href]) {
    const index = await getJson<RestIndex>(indexUrl, context);
    if (!index || !Array.isArray(index.body.namespaces) || !index.body.namespaces.includes('wp/v2')) continue;
    const route = (path: string) => (indexUrl.includes('rest_route') ? new URL(`?rest_route=/wp/v2/${path}&per_page=1`, base).href : new URL(`wp-json/wp/v2/${path}?per_page=1`, base).href);
    const [posts, pages, media] = await Promise.all(['posts', 'pages', 'media'].map((path) => countOf(route(path), context)));
    return {
      sourceId: 'legacy-rest',
      confidence: 'definite',
      detected: {
        platform: 'wordpress',
        hosting: 'self-hosted',
        title: typeof index.body.name === 'string' ? index.body.name : '',
        ...(typeof index.body.description === 'string' && index.body.description !== '' ? { description: index.body.description } : {}),
        siteUrl: typeof index.body.home === 'string' ? index.body.home : typeof index.body.url === 'string' ? index.body.url : url,
        apiRoot: indexUrl,
        counts: { posts, pages, media },
      },
    };
  }
  return null;
}

/** `X-WP-Total` of a collection: its public items; null where the API hides it. */
async function countOf(url: string, context: ProbeContext): Promise<number | null> {
  const answer = await getJson<unknown>(url, context);
  const total = Number(answer?.headers['x-wp-total']);
  return answer && Number.isInteger(total) && total >= 0 ? total : null;
}

/** A JSON answer (200) within the time left, or null: anything else means "not this". */
async function getJson<T>(url: string, context: ProbeContext): Promise<{ body: T; headers: Record<string, string | string[] | undefined> } | null> {
  const timeoutMs = context.deadline - Date.now();
  if (timeoutMs <= 0) return null;
  try {
    const response = await outgoingBuffer(url, { timeoutMs, maxBytes: indexBytes, maxRedirects: 5, allowPrivate: context.config.outgoingAllowPrivate, headers: { accept: 'application/json' } });
    if (response.status !== 200) return null;
    return { body: JSON.parse(response.body.toString('utf8')) as T, headers: response.headers };
  } catch (error) {
    if (error instanceof OutgoingError || error instanceof SyntaxError) return null;
    throw error;
  }
}
