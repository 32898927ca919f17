import type { z } from 'zod';
import { access, defineOperation, type AuthorizedContext } from '../core/operation.ts';
import { inTransaction } from '../db/dialect.ts';
import { spendByClient } from '../auth/rate-limit.ts';
import { hashSecret } from '../auth/secrets.ts';
import { findClient } from './clients.ts';
import { OAuthError } from './errors.ts';
import { recordConsent } from './grants.ts';
import { issueTokens, newFamily, type TokenPair } from './issue.ts';
import { oauthLimits } from './limits.ts';
import type { DeviceCodeForm, TokenForm } from './schemas.ts';
import { clampToRole, joinScopes, parseScopeParameter, requestedScopes } from './scopes.ts';
import { formatUserCode, generateUserCode, normalizeUserCode, randomSecret } from './secrets.ts';
import * as store from './store.ts';
import { audienceOf, oauthPaths, type Audience } from './urls.ts';
import { signedInUser } from './consent.ts';

/** RFC 8628: a device code lives 10 minutes and is polled every 5 seconds; `slow_down` adds 5. */
export const deviceCodeLifetimeMs = 600_000;
const pollIntervalSeconds = 5;

/** `POST /oauth/device/code` (RFC 8628 §3.1-3.2). */
export const startDeviceAuthorization = defineOperation({
  name: 'oauth.deviceCode',
  access: access.public,
  async run(ctx, input: z.output<typeof DeviceCodeForm>) {
    await spendByClient(ctx, oauthLimits.deviceCode, input.client_id);
    const client = await findClient(ctx, input.client_id);
    const scopes = parseScopeParameter(input.scope ?? '');
    const audience = audienceOf(ctx.baseUrl, input.resource);
    const deviceCode = randomSecret();
    const userCode = generateUserCode();
    const now = ctx.clock.now();
    await store.insertDeviceCode(ctx.db, {
      device_code_hash: hashSecret(deviceCode),
      user_code: userCode,
      client_id: client.id,
      // Empty: none named, so the approving user's role decides (as at the authorize endpoint).
      scopes: joinScopes(scopes),
      audience,
      status: 'pending',
      grant_id: null,
      interval_seconds: pollIntervalSeconds,
      last_polled_at: null,
      expires_at: new Date(now.getTime() + deviceCodeLifetimeMs).toISOString(),
    });
    const verificationUri = `${ctx.baseUrl}${oauthPaths.device}`;
    return {
      device_code: deviceCode,
      user_code: formatUserCode(userCode),
      verification_uri: verificationUri,
      verification_uri_complete: `${verificationUri}?user_code=${formatUserCode(userCode)}`,
      expires_in: deviceCodeLifetimeMs / 1000,
      interval: pollIntervalSeconds,
    };
  },
});

/** The device grant at the token endpoint (RFC 8628 §3.4-3.5). */
export async function pollDeviceCode(ctx: AuthorizedContext, input: z.output<typeof TokenForm>): Promise<TokenPair> {
  if (!input.device_code) throw new OAuthError('invalid_request', 'device_code is required');
  const deviceCodeHash = hashSecret(input.device_code);
  const row = await store.findDeviceCode(ctx.db, deviceCodeHash);
  if (!row || row.client_id !== input.client_id) throw new OAuthError('invalid_grant', 'Unknown device code');
  const now = ctx.clock.now();
  if (row.expires_at <= now.toISOString()) throw new OAuthError('expired_token', 'The device code has expired: start again');
  if (row.last_polled_at !== null && now.getTime() - Date.parse(row.last_polled_at) < row.interval_seconds * 1000) {
    await store.recordDevicePoll(ctx.db, deviceCodeHash, now.toISOString(), row.interval_seconds + 5);
    throw new OAuthError('slow_down', `Polling too fast: wait ${row.interval_seconds + 5} seconds between requests`);
  }
  await store.recordDevicePoll(ctx.db, deviceCodeHash, now.toISOString(), row.interval_seconds);
  if (row.status === 'pending') throw new OAuthError('authorization_pending', 'The user has not answered yet');
  return inTransaction(ctx.db, async (db) => {
    if (!(await store.takeDecidedDeviceCode(db, deviceCodeHash))) throw new OAuthError('invalid_grant', 'The device code was already used');
    if (row.status !== 'approved' || row.grant_id === null) throw new OAuthError('access_denied', 'The user denied the request');
    return issueTokens(db, now, { grantId: row.grant_id, familyId: newFamily(), scopes: row.scopes, audience: row.audience as Audience });
  });
}

/** What the device page shows for a typed code: the request to approve, or why there is none. */
export type DevicePage =
  | { kind: 'enter'; problem?: string }
  | { kind: 'confirm'; userCode: string; clientName: string; clientHost?: string; scopes: string[] }
  | { kind: 'done'; approved: boolean };

/** A pending, unexpired device code by what the user typed, with the scopes the user's role allows. */
async function pendingDeviceCode(ctx: AuthorizedContext, typed: string) {
  const user = signedInUser(ctx);
  await spendByClient(ctx, oauthLimits.deviceVerify, user.userId);
  const userCode = normalizeUserCode(typed);
  const row = userCode === undefined ? undefined : await store.findDeviceCodeByUserCode(ctx.db, userCode);
  if (!row || row.status !== 'pending' || row.expires_at <= ctx.clock.now().toISOString()) return undefined;
  const client = await findClient(ctx, row.client_id);
  return { row, client, user, scopes: clampToRole(requestedScopes(row.scopes, user.role), user.role) };
}

/** The request to approve; a metadata document client's host shown beside the name it claims, as on the consent page. */
function confirmation(pending: NonNullable<Awaited<ReturnType<typeof pendingDeviceCode>>>): DevicePage {
  const { row, client, scopes } = pending;
  return { kind: 'confirm', userCode: formatUserCode(row.user_code), clientName: client.name, ...(client.documentHost !== undefined ? { clientHost: client.documentHost } : {}), scopes };
}

const unknownCode = 'This code is unknown, expired or already used. Check it on your device, or start again there.';

/** `GET /_cms/oauth/device`: the code entry form, or the request the typed code stands for. */
export const showDeviceRequest = defineOperation({
  name: 'oauth.device.show',
  access: access.ownAccount,
  async run(ctx, input: { user_code?: string }): Promise<DevicePage> {
    signedInUser(ctx);
    if (input.user_code === undefined || input.user_code === '') return { kind: 'enter' };
    const pending = await pendingDeviceCode(ctx, input.user_code);
    if (!pending) return { kind: 'enter', problem: unknownCode };
    return confirmation(pending);
  },
});

/** `POST /_cms/oauth/device`: approve (the grant recorded with the clamped scopes) or deny. */
export const decideDeviceRequest = defineOperation({
  name: 'oauth.device.decide',
  access: access.ownAccount,
  async run(ctx, input: { user_code: string; decision?: 'approve' | 'deny' }): Promise<DevicePage> {
    const pending = await pendingDeviceCode(ctx, input.user_code);
    if (!pending) return { kind: 'enter', problem: unknownCode };
    if (input.decision === undefined) return confirmation(pending);
    const approved = input.decision === 'approve' && pending.scopes.length > 0;
    const decided = await inTransaction(ctx.db, async (db) => {
      const grantId = approved ? await recordConsent(db, pending.user.userId, pending.client.id, pending.scopes, ctx.clock.now()) : null;
      return store.decideDeviceCode(db, pending.row.user_code, { status: approved ? 'approved' : 'denied', grant_id: grantId, scopes: approved ? joinScopes(pending.scopes) : pending.row.scopes });
    });
    if (!decided) return { kind: 'enter', problem: unknownCode };
    return { kind: 'done', approved };
  },
});
