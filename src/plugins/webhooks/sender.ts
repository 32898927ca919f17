import packageJson from '../../../package.json' with { type: 'json' };
import { OutgoingError, outgoingRequest } from '../../net/outgoing.ts';

export interface SendResult {
  /** The receiver's status; undefined when no answer came (refused, timed out, connection failed). */
  status?: number;
  /** Why the attempt failed; undefined on a 2xx answer. */
  error?: string;
}

/**
 * Sends one signed POST through the guarded outgoing client (src/net/outgoing.ts). Redirects are
 * never followed (a 3xx is a failed attempt), so no answer can send the request on to an address the
 * guard would refuse; the whole attempt, answer included, must end within `timeoutMs`. Never throws.
 */
export async function sendWebhook(url: string, headers: Record<string, string>, body: string, options: { timeoutMs: number; allowPrivate: boolean }): Promise<SendResult> {
  try {
    const response = await outgoingRequest(url, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json', 'user-agent': `Folio-Webhooks/${packageJson.version}` },
      body,
      timeoutMs: options.timeoutMs,
      allowPrivate: options.allowPrivate,
    });
    // The body is not needed, but must be read for the answer to be complete (and the timeout to cover it).
    for await (const chunk of response.body) void chunk;
    const status = response.status;
    if (status >= 200 && status < 300) return { status };
    return { status, error: status >= 300 && status < 400 ? `Redirect to ${response.headers.location ?? '(none)'} not followed` : `HTTP ${status}` };
  } catch (error) {
    if (error instanceof OutgoingError) return { error: error.reason === 'timeout' ? `Timed out after ${options.timeoutMs} ms` : error.message };
    throw error;
  }
}
