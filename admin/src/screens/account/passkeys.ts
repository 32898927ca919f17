import { api, dataOf } from '../../api/client';
import type { paths } from '../../api/schema';

/**
 * Adding a passkey: the server's WebAuthn options, the browser's own ceremony, the server's check.
 * The browser reads and writes the JSON forms itself (PublicKeyCredential.parseCreationOptionsFromJSON
 * and toJSON, as the sign-in pages do), so no WebAuthn library is bundled for it.
 */
export function browserSupportsPasskeys(): boolean {
  return typeof PublicKeyCredential !== 'undefined' && typeof PublicKeyCredential.parseCreationOptionsFromJSON === 'function';
}

type RegistrationBody = paths['/_cms/api/auth/passkey/register/verify']['post']['requestBody']['content']['application/json'];

export async function addPasskey(name: string | undefined) {
  const options = await dataOf(api.POST('/_cms/api/auth/passkey/register/options', { body: {} }));
  const publicKey = PublicKeyCredential.parseCreationOptionsFromJSON(options as unknown as PublicKeyCredentialCreationOptionsJSON);
  const credential = (await navigator.credentials.create({ publicKey })) as PublicKeyCredential | null;
  if (!credential) throw new Error('No passkey was created');
  const body = { ...(credential.toJSON() as object), ...(name ? { name } : {}) } as RegistrationBody;
  return dataOf(api.POST('/_cms/api/auth/passkey/register/verify', { body }));
}
