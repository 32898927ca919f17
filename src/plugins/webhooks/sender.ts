import { OutgoingError, outgoingRequest } from '../../net/outgoing.ts';

export interface SendResult {
  /** The receiver's status; undefined when no answer came (refused, timed out, connection failed). */
  status?: number;
  /** Why the attempt failed; undefined on a 2xx answer. */
  error?: string;
}

/**
 * Sends one signed POST through the guarded client (net/outgoing.ts, decisions/0026): non-public
 * addresses refused unless the deployment allows them, no redirect followed (a 3xx is a failed
 * attempt), the whole exchange within `timeoutMs`. Never throws.
 */
export async function sendWebhook(url: string, headers: Record<string, string>, body: string, options: { timeoutMs: number; allowPrivate: boolean }): Promise<SendResult> {
  try {
    const response = await outgoingRequest(url, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body, timeoutMs: options.timeoutMs, maxBytes: 64 * 1024, allowPrivate: options.allowPrivate });
    // The answer is not needed, but is read to its end: the attempt is over only then.
    for await (const chunk of response.body) void chunk;
    const { status } = response;
    if (status >= 200 && status < 300) return { status };
    return { status, error: status >= 300 && status < 400 ? `Redirect to ${response.headers.location ?? '(none)'} not followed` : `HTTP ${status}` };
  } catch (error) {
    return { error: error instanceof OutgoingError ? error.message : String(error) };
  }
}
