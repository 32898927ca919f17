import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';

/**
 * A software WebAuthn authenticator for API tests: ES256 keys from node:crypto, attestation `none`,
 * authenticator data with the flags and signature counter a real one sends. It produces the JSON a
 * browser's `PublicKeyCredential.toJSON()` gives, so the server verifies real WebAuthn payloads.
 */

type Cbor = number | string | Uint8Array | Map<number | string, Cbor>;

/** The little of CBOR (RFC 8949) that attestation objects and COSE keys need. */
function cbor(value: Cbor): Buffer {
  const head = (major: number, length: number): Buffer => {
    if (length < 24) return Buffer.from([(major << 5) | length]);
    if (length < 0x100) return Buffer.from([(major << 5) | 24, length]);
    if (length < 0x10000) return Buffer.from([(major << 5) | 25, length >> 8, length & 0xff]);
    const buffer = Buffer.alloc(5);
    buffer[0] = (major << 5) | 26;
    buffer.writeUInt32BE(length, 1);
    return buffer;
  };
  if (typeof value === 'number') return value >= 0 ? head(0, value) : head(1, -1 - value);
  if (typeof value === 'string') return Buffer.concat([head(3, Buffer.byteLength(value)), Buffer.from(value)]);
  if (value instanceof Uint8Array) return Buffer.concat([head(2, value.length), value]);
  return Buffer.concat([head(5, value.size), ...[...value].flatMap(([key, item]) => [cbor(key), cbor(item)])]);
}

const flags = { userPresent: 0x01, userVerified: 0x04, attestedData: 0x40 };

export interface AuthenticatorOptions {
  /** The origin the "browser" is on; the RP id is its host name. */
  origin: string;
}

export interface SoftCredential {
  id: string;
  privateKey: KeyObject;
  publicKey: KeyObject;
  counter: number;
  userHandle: string;
}

export class SoftAuthenticator {
  readonly origin: string;
  readonly rpId: string;
  readonly credentials: SoftCredential[] = [];

  constructor({ origin }: AuthenticatorOptions) {
    this.origin = origin;
    this.rpId = new URL(origin).hostname;
  }

  /** What `navigator.credentials.create()` answers for registration options (their JSON form). */
  register(options: { challenge: string; rp?: { id?: string }; user: { id: string } }, overrides: { origin?: string; type?: string } = {}) {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const rawId = randomBytes(32);
    const credential: SoftCredential = { id: rawId.toString('base64url'), privateKey, publicKey, counter: 0, userHandle: options.user.id };
    const jwk = publicKey.export({ format: 'jwk' });
    const coseKey = new Map<number, Cbor>([
      [1, 2], // kty: EC2
      [3, -7], // alg: ES256
      [-1, 1], // crv: P-256
      [-2, Buffer.from(jwk.x!, 'base64url')],
      [-3, Buffer.from(jwk.y!, 'base64url')],
    ]);
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(rawId.length);
    const authData = Buffer.concat([this.authenticatorData(options.rp?.id ?? this.rpId, flags.userPresent | flags.userVerified | flags.attestedData, 0), Buffer.alloc(16), idLength, rawId, cbor(coseKey)]);
    const attestationObject = cbor(new Map<string, Cbor>([['fmt', 'none'], ['attStmt', new Map()], ['authData', authData]]));
    const clientDataJSON = this.clientData(overrides.type ?? 'webauthn.create', options.challenge, overrides.origin);
    this.credentials.push(credential);
    return {
      credential,
      response: {
        id: credential.id,
        rawId: credential.id,
        type: 'public-key' as const,
        response: { clientDataJSON, attestationObject: attestationObject.toString('base64url'), transports: ['internal'] },
        clientExtensionResults: {},
        authenticatorAttachment: 'platform' as const,
      },
    };
  }

  /** What `navigator.credentials.get()` answers: the credential signs the challenge and counts one more use. */
  assert(options: { challenge: string; rpId?: string }, credential = this.credentials[0]!, overrides: { origin?: string; counter?: number; signWith?: KeyObject } = {}) {
    credential.counter = overrides.counter ?? credential.counter + 1;
    const authenticatorData = this.authenticatorData(options.rpId ?? this.rpId, flags.userPresent | flags.userVerified, credential.counter);
    const clientDataJSON = this.clientData('webauthn.get', options.challenge, overrides.origin);
    const signed = Buffer.concat([authenticatorData, createHash('sha256').update(Buffer.from(clientDataJSON, 'base64url')).digest()]);
    const signature = sign('sha256', signed, overrides.signWith ?? credential.privateKey);
    return {
      id: credential.id,
      rawId: credential.id,
      type: 'public-key' as const,
      response: {
        clientDataJSON,
        authenticatorData: authenticatorData.toString('base64url'),
        signature: signature.toString('base64url'),
        userHandle: credential.userHandle,
      },
      clientExtensionResults: {},
    };
  }

  private authenticatorData(rpId: string, flagBits: number, counter: number): Buffer {
    const count = Buffer.alloc(4);
    count.writeUInt32BE(counter);
    return Buffer.concat([createHash('sha256').update(rpId).digest(), Buffer.from([flagBits]), count]);
  }

  private clientData(type: string, challenge: string, origin = this.origin): string {
    return Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false })).toString('base64url');
  }
}
