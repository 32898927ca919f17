import { OutgoingError, outgoingRequest } from '../../net/outgoing.ts';

export interface SendResult {
  /** The receiver's status; undefined when no answer came (refused, timed out, connection failed). */
  status?: number;
  /** Why the attempt failed; undefined on a 2xx answer. */
  error?: string;
  /** The start of the receiver's answer, as text: what tells a person why their endpoint said no. */
  excerpt?: string;
}

/** How much of an answer is kept with the attempt. */
export const excerptBytes = 1024;

/**
 * Sends one signed POST through the guarded client (net/outgoing.ts, decisions/0026): non-public
 * addresses refused unless the deployment allows them, no redirect followed (a 3xx is a failed
 * attempt), the whole exchange within `timeoutMs`. Never throws.
 */
export async function sendWebhook(url: string, headers: Record<string, string>, body: string, options: { timeoutMs: number; allowPrivate: boolean }): Promise<SendResult> {
  try {
    const response = await outgoingRequest(url, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body, timeoutMs: options.timeoutMs, maxBytes: 64 * 1024, allowPrivate: options.allowPrivate });
    // The answer is read to its end (the attempt is over only then); its start is kept.
    const start: Buffer[] = [];
    let kept = 0;
    for await (const chunk of response.body as AsyncIterable<Buffer>) {
      if (kept >= excerptBytes) continue;
      start.push(chunk.subarray(0, excerptBytes - kept));
      kept += Math.min(chunk.length, excerptBytes - kept);
    }
    const excerpt = excerptOf(Buffer.concat(start));
    const { status } = response;
    if (status >= 200 && status < 300) return { status, excerpt };
    return { status, excerpt, error: status >= 300 && status < 400 ? `Redirect to ${response.headers.location ?? '(none)'} not followed` : `HTTP ${status}` };
  } catch (error) {
    return { error: error instanceof OutgoingError ? error.message : String(error) };
  }
}

/**
 * The answer's first bytes as text: a character cut at the end is dropped, and NUL characters (which
 * PostgreSQL text cannot hold) are left out; undefined when the answer had no body.
 */
function excerptOf(bytes: Buffer): string | undefined {
  if (bytes.length === 0) return undefined;
  return new TextDecoder('utf-8', { fatal: false }).decode(bytes, { stream: true }).replaceAll('\0', '');
}
