import type { z } from 'zod';
import type { AuthorizedContext } from '../core/operation.ts';
import { access, defineOperation } from '../core/operation.ts';
import { inTransaction } from '../db/dialect.ts';
import { spendByClient } from '../auth/rate-limit.ts';
import { hashSecret } from '../auth/secrets.ts';
import { parseScopes } from '../auth/store.ts';
import { OAuthError } from './errors.ts';
import { pollDeviceCode } from './device.ts';
import { issueTokens, mintTokens, newFamily, saveTokens, type TokenPair } from './issue.ts';
import { oauthLimits } from './limits.ts';
import type { TokenForm } from './schemas.ts';
import { includesAll, joinScopes, parseScopeParameter } from './scopes.ts';
import { openSuccessor, pkceChallenge, sealSuccessor } from './secrets.ts';
import * as store from './store.ts';
import { audienceOf, type Audience } from './urls.ts';

type TokenInput = z.output<typeof TokenForm>;

/** How long a spent refresh token still gives its successor pair to a parallel refresh (clients refresh concurrently). */
export const refreshGraceMs = 10_000;

/** RFC 7636 §4.1: 43 to 128 unreserved characters. */
const verifierPattern = /^[A-Za-z0-9._~-]{43,128}$/;

/** `POST /oauth/token` (RFC 6749 §4.1.3, §6; RFC 8628 §3.4): one operation, a branch per grant type. */
export const exchangeToken = defineOperation({
  name: 'oauth.token',
  access: access.public,
  async run(ctx, input: TokenInput): Promise<TokenPair> {
    await spendByClient(ctx, oauthLimits.token, input.client_id);
    switch (input.grant_type) {
      case 'authorization_code':
        return redeemCode(ctx, input);
      case 'refresh_token':
        return refresh(ctx, input);
      case 'urn:ietf:params:oauth:grant-type:device_code':
        return pollDeviceCode(ctx, input);
      default:
        throw new OAuthError('unsupported_grant_type', `Unsupported grant_type ${input.grant_type}: use authorization_code, refresh_token or urn:ietf:params:oauth:grant-type:device_code`);
    }
  },
});

function required(value: string | undefined, name: string): string {
  if (value === undefined || value === '') throw new OAuthError('invalid_request', `${name} is required`);
  return value;
}

/** A `resource` given at the token endpoint must name what was authorized (RFC 8707 §2.2). */
function checkResource(ctx: AuthorizedContext, resource: string | undefined, audience: string): void {
  if (resource !== undefined && audienceOf(ctx.baseUrl, resource) !== audience) throw new OAuthError('invalid_target', 'The resource is not the one this grant was authorized for');
}

async function redeemCode(ctx: AuthorizedContext, input: TokenInput): Promise<TokenPair> {
  const clientId = required(input.client_id, 'client_id');
  const verifier = required(input.code_verifier, 'code_verifier');
  const codeHash = hashSecret(required(input.code, 'code'));
  const code = await store.findCode(ctx.db, codeHash);
  if (!code) throw new OAuthError('invalid_grant', 'Unknown authorization code');
  if (code.family_id !== null) {
    // RFC 6749 §4.1.2: a code used twice revokes what it gave the first time.
    await store.deleteFamily(ctx.db, code.family_id);
    throw new OAuthError('invalid_grant', 'The authorization code was already used; the tokens it gave are revoked');
  }
  const now = ctx.clock.now();
  if (code.expires_at <= now.toISOString()) throw new OAuthError('invalid_grant', 'The authorization code has expired');
  if (code.client_id !== clientId) throw new OAuthError('invalid_grant', 'The authorization code was issued to another client');
  if ((input.redirect_uri ?? '') !== code.redirect_uri) throw new OAuthError('invalid_grant', 'redirect_uri is not the one of the authorization request');
  if (!verifierPattern.test(verifier)) throw new OAuthError('invalid_grant', 'code_verifier must be 43 to 128 characters of A-Z, a-z, 0-9 and -._~');
  if (pkceChallenge(verifier) !== code.code_challenge) throw new OAuthError('invalid_grant', 'code_verifier does not match the code_challenge');
  checkResource(ctx, input.resource, code.audience);
  const familyId = newFamily();
  return inTransaction(ctx.db, async (db) => {
    if (!(await store.spendCode(db, codeHash, familyId))) throw new OAuthError('invalid_grant', 'The authorization code was already used');
    return issueTokens(db, now, { grantId: code.grant_id, familyId, scopes: code.scopes, audience: code.audience as Audience });
  });
}

/**
 * Rotation (OAuth 2.1 §4.3.1): every refresh spends its token and gives a new pair. A spent token
 * presented again within the grace window gets the same successor pair; later, it is taken as
 * stolen and the whole family is revoked.
 */
async function refresh(ctx: AuthorizedContext, input: TokenInput): Promise<TokenPair> {
  const presented = required(input.refresh_token, 'refresh_token');
  const tokenHash = hashSecret(presented);
  const row = await store.findToken(ctx.db, tokenHash);
  const now = ctx.clock.now();
  if (!row || row.kind !== 'refresh' || row.disabled === 1 || row.expires_at <= now.toISOString()) throw new OAuthError('invalid_grant', 'Unknown, expired or revoked refresh token');
  if (input.client_id !== undefined && input.client_id !== row.client_id) throw new OAuthError('invalid_grant', 'The refresh token was issued to another client');
  if (row.used_at !== null) return successorOrRevoke(ctx, presented, tokenHash);
  checkResource(ctx, input.resource, row.audience);
  const granted = parseScopes(row.scopes);
  // No Folio scope named (none, or only `offline_access`): the refresh keeps what was granted.
  const asked = parseScopeParameter(input.scope ?? '');
  const scopes = asked.length === 0 ? granted : asked;
  if (!includesAll(granted, scopes)) throw new OAuthError('invalid_scope', 'A refresh may only keep or narrow the scopes granted');
  const minted = mintTokens(now, { grantId: row.grant_id, familyId: row.family_id, scopes: joinScopes(scopes), audience: row.audience as Audience });
  const won = await inTransaction(ctx.db, async (db) => {
    if (!(await store.spendRefreshToken(db, tokenHash, now.toISOString(), sealSuccessor(presented, minted.pair)))) return false;
    await saveTokens(db, now, row.grant_id, minted);
    return true;
  });
  return won ? minted.pair : successorOrRevoke(ctx, presented, tokenHash);
}

/** A refresh token already spent: its successor within the grace window, else the family revoked. */
async function successorOrRevoke(ctx: AuthorizedContext, presented: string, tokenHash: string): Promise<TokenPair> {
  const spent = await store.findToken(ctx.db, tokenHash);
  const now = ctx.clock.now().getTime();
  if (spent?.used_at != null && spent.successor !== null && now - Date.parse(spent.used_at) <= refreshGraceMs) {
    const pair = openSuccessor<TokenPair>(presented, spent.successor);
    return { ...pair, expires_in: pair.expires_in - Math.floor((now - Date.parse(spent.used_at)) / 1000) };
  }
  if (spent) await store.deleteFamily(ctx.db, spent.family_id);
  throw new OAuthError('invalid_grant', 'The refresh token was already used; every token of this authorization is revoked');
}
