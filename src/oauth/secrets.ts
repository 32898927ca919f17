import { createCipheriv, createDecipheriv, createHash, randomBytes, randomInt } from 'node:crypto';

/** Bearer tokens carry a prefix, so the credential resolvers (and secret scanners) tell them apart. */
export const accessTokenPrefix = 'folio_at_';
export const refreshTokenPrefix = 'folio_rt_';

export function randomSecret(prefix = ''): string {
  return prefix + randomBytes(32).toString('base64url');
}

/** RFC 8628 §6.1: consonants only (no vowels: no words; no 0/O, 1/I/L confusion), as XXXX-XXXX. */
const userCodeAlphabet = 'BCDFGHJKMNPQRSTVWXZ';

export function generateUserCode(): string {
  let code = '';
  for (let index = 0; index < 8; index++) code += userCodeAlphabet[randomInt(userCodeAlphabet.length)];
  return code;
}

/** A user code as typed (any case, with or without the dash or spaces) in its stored form; undefined if it cannot be one. */
export function normalizeUserCode(typed: string): string | undefined {
  const code = typed.toUpperCase().replace(/[\s-]/g, '');
  return code.length === 8 && [...code].every((letter) => userCodeAlphabet.includes(letter)) ? code : undefined;
}

export function formatUserCode(code: string): string {
  return `${code.slice(0, 4)}-${code.slice(4)}`;
}

/** RFC 7636 §4.2: BASE64URL(SHA256(verifier)). */
export function pkceChallenge(verifier: string): string {
  return createHash('sha256').update(verifier).digest('base64url');
}

/**
 * Seals a refresh's successor pair with a key derived from the spent refresh token, which only the
 * client holds (the database keeps another hash of it): a parallel refresh presenting the same token
 * within the grace window can open it, and nobody reading the database can.
 */
function successorKey(spentToken: string): Buffer {
  return createHash('sha256').update(`folio-oauth-successor\0${spentToken}`).digest();
}

export function sealSuccessor(spentToken: string, value: unknown): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', successorKey(spentToken), iv);
  const sealed = Buffer.concat([cipher.update(JSON.stringify(value), 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64url');
}

export function openSuccessor<T>(spentToken: string, sealed: string): T {
  const bytes = Buffer.from(sealed, 'base64url');
  const decipher = createDecipheriv('aes-256-gcm', successorKey(spentToken), bytes.subarray(0, 12));
  decipher.setAuthTag(bytes.subarray(12, 28));
  return JSON.parse(Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString('utf8')) as T;
}
