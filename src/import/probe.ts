import type { AuthorizedContext } from '../core/operation.ts';
import { validationError } from '../core/errors.ts';
import { apiBasePath } from '../http/paths.ts';
import { outgoingUrlProblem } from '../net/outgoing.ts';
import { importSources } from './sources/registry.ts';
import type { ProbeResult } from './sources/types.ts';

/** How long all probes of one request may take together. */
const probeDeadlineMs = 10_000;

const rank = { definite: 3, likely: 2, possible: 1 } as const;

export interface ProbeAnswer {
  url: string;
  platform: string;
  sourceId: string | null;
  confidence: ProbeResult['confidence'] | null;
  detected: Record<string, unknown>;
  suggestedAction: { action: 'connect-oauth' | 'upload-export' | 'upload-file'; message: string; connectUrl?: string };
}

/**
 * `POST /import/probe` (import.md §1): every registered source's probe at once, sharing one
 * deadline; the most confident match decides the next step. A probe that fails or runs out of time
 * counts as "not this platform".
 */
export async function probeUrl(ctx: AuthorizedContext, url: string): Promise<ProbeAnswer> {
  const problem = await outgoingUrlProblem(url, ctx.config.outgoingAllowPrivate);
  if (problem) throw validationError([{ path: 'url', message: problem }]);
  const deadline = Date.now() + probeDeadlineMs;
  const sources = (await importSources(ctx.config)).filter((source) => source.probe);
  const results = await Promise.allSettled(sources.map((source) => source.probe!(url, { config: ctx.config, deadline })));
  let best: ProbeResult | undefined;
  results.forEach((result, index) => {
    if (result.status === 'rejected') ctx.log.warn({ err: result.reason, source: sources[index]!.id }, 'import probe failed');
    else if (result.value && (!best || rank[result.value.confidence] > rank[best.confidence])) best = result.value;
  });
  if (!best) {
    return { url, platform: 'unknown', sourceId: null, confidence: null, detected: {}, suggestedAction: { action: 'upload-file', message: 'No known platform answered at this address: upload an export file (a WordPress export is made in Tools → Export).' } };
  }
  const hosted = best.detected.hosting === 'hosted';
  return {
    url,
    platform: typeof best.detected.platform === 'string' ? best.detected.platform : best.sourceId,
    sourceId: best.sourceId,
    confidence: best.confidence,
    detected: best.detected,
    suggestedAction: hosted
      ? {
          action: 'connect-oauth',
          message: 'A hosted WordPress site: connect your account to import published, draft and private content with its media.',
          connectUrl: `${ctx.baseUrl}${apiBasePath}/import/legacy/connect?${new URLSearchParams({ url: typeof best.detected.siteUrl === 'string' ? best.detected.siteUrl : url })}`,
        }
      : {
          action: 'upload-export',
          message:
            'A self-hosted WordPress site: in its dashboard choose Tools → Export → All content → Download Export File, then upload that file here. Only the export file has drafts, private posts, every custom field and the media records; the public API shows published content only.',
        },
  };
}
