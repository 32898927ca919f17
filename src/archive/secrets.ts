import { createCipheriv, createDecipheriv, randomBytes, scrypt, type CipherGCM, type DecipherGCM } from 'node:crypto';
import { Transform, type TransformCallback } from 'node:stream';
import type { Encryption } from './format.ts';

/**
 * The password-equivalents of a full archive (docs/decisions/0061): one member encrypted with
 * AES-256-GCM under a key scrypt derives from the operator's passphrase; the salt, nonce and cost
 * parameters are in the manifest, the 16-byte authentication tag ends the member. A wrong passphrase
 * or a changed byte fails the tag, and nothing decrypted is used before the tag has been checked.
 */

const tagLength = 16;
/** scrypt's cost: about 32 MiB and a tenth of a second here, once per export or restore. */
const cost = { N: 2 ** 15, r: 8, p: 1 };
export const minimumPassphraseLength = 8;

export function newEncryption(): Encryption {
  return { cipher: 'aes-256-gcm', kdf: 'scrypt', salt: randomBytes(16).toString('base64'), iv: randomBytes(12).toString('base64'), ...cost };
}

export function deriveKey(passphrase: string, encryption: Encryption): Promise<Buffer> {
  const { N, r, p } = encryption;
  return new Promise((resolve, reject) => {
    scrypt(passphrase, Buffer.from(encryption.salt, 'base64'), 32, { N, r, p, maxmem: 256 * N * r }, (error, key) => (error ? reject(error) : resolve(key)));
  });
}

/** Encrypts what passes through and appends the authentication tag. */
export function encryptingStream(key: Buffer, encryption: Encryption): Transform {
  const cipher: CipherGCM = createCipheriv('aes-256-gcm', key, Buffer.from(encryption.iv, 'base64'));
  return new Transform({
    transform(chunk: Buffer, _encoding, done: TransformCallback) {
      done(null, cipher.update(chunk));
    },
    flush(done: TransformCallback) {
      this.push(cipher.final());
      done(null, cipher.getAuthTag());
    },
  });
}

/** Raised when the tag does not hold: a wrong passphrase, or a member whose bytes were changed. */
export class WrongPassphraseError extends Error {
  override name = 'WrongPassphraseError';
}

/**
 * Decrypts what passes through, holding back the last 16 bytes (the tag) until the end, where a tag
 * that does not hold fails the stream with WrongPassphraseError. Callers must not use what came out
 * before the stream has ended without error (a restore checks the whole member first).
 */
export function decryptingStream(key: Buffer, encryption: Encryption): Transform {
  const decipher: DecipherGCM = createDecipheriv('aes-256-gcm', key, Buffer.from(encryption.iv, 'base64'));
  let held = Buffer.alloc(0);
  return new Transform({
    transform(chunk: Buffer, _encoding, done: TransformCallback) {
      const all = Buffer.concat([held, chunk]);
      held = all.subarray(Math.max(0, all.length - tagLength));
      done(null, decipher.update(all.subarray(0, Math.max(0, all.length - tagLength))));
    },
    flush(done: TransformCallback) {
      try {
        if (held.length !== tagLength) throw new WrongPassphraseError('the encrypted member is too short to hold its tag');
        decipher.setAuthTag(held);
        done(null, decipher.final());
      } catch {
        done(new WrongPassphraseError('the passphrase does not open the encrypted secrets (a wrong passphrase, or the member was changed)'));
      }
    },
  });
}
