import { createHmac, randomBytes } from 'node:crypto';

/**
 * Standard Webhooks signatures (standardwebhooks.com): HMAC-SHA256 over `id.timestamp.body` with the
 * base64 key that follows `whsec_`, sent as `v1,<base64>` in `webhook-signature`. No npm package of
 * the specification is available to this project, and the scheme is three lines of node:crypto.
 */
export function newSigningSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

export function signatureHeaders(secret: string, messageId: string, timestamp: Date, body: string): Record<string, string> {
  const seconds = Math.floor(timestamp.getTime() / 1000).toString();
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const signature = createHmac('sha256', key).update(`${messageId}.${seconds}.${body}`).digest('base64');
  return { 'webhook-id': messageId, 'webhook-timestamp': seconds, 'webhook-signature': `v1,${signature}` };
}
