import { createHash, randomBytes } from 'node:crypto';

export const patPrefix = 'ec_pat_';

/** A personal access token: the prefix and 32 random bytes, base64url (DECISIONS §6). */
export function generatePat(): string {
  return patPrefix + randomBytes(32).toString('base64url');
}

/** Only this hash is stored. Looking a token up by its hash keeps the lookup's timing independent of the secret. */
export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}
