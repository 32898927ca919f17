import { isScope, scopeAllowedForRole, scopesForRole, type Scope } from '../core/roles.ts';

/**
 * The Folio scopes a `scope` parameter (RFC 6749 §3.3) names. Scopes Folio does not know are ignored,
 * as §3.3 lets the server do: clients add `openid`, `profile` or `offline_access` out of habit. The
 * one with a meaning here, `offline_access` (asking for a refresh token), is always satisfied, since
 * every code and device grant gives a refresh token (decisions/0036).
 */
export function parseScopeParameter(scope: string): Scope[] {
  return [...new Set(scope.split(' ').filter(isScope))];
}

/**
 * The scopes an authorization asks for; none of Folio's named (nothing, or only `openid` and the
 * like): every scope the role allows, which the consent page lists for the person to judge.
 */
export function requestedScopes(scope: string | undefined, role: number): Scope[] {
  const asked = parseScopeParameter(scope ?? '');
  return asked.length === 0 ? scopesForRole(role) : asked;
}

/** DECISIONS §2: what the user's role may hold of what was asked; the rest is never granted. */
export function clampToRole(scopes: readonly Scope[], role: number): Scope[] {
  return scopes.filter((scope) => scopeAllowedForRole(scope, role));
}

export function joinScopes(scopes: readonly Scope[]): string {
  return scopes.join(' ');
}

export function includesAll(held: readonly Scope[], wanted: readonly Scope[]): boolean {
  return wanted.every((scope) => held.includes(scope));
}
