import { isScope, scopeAllowedForRole, scopesForRole, type Scope } from '../core/roles.ts';
import { OAuthError } from './errors.ts';

/** A `scope` parameter (RFC 6749 §3.3) as scopes; unknown ones: `invalid_scope`. */
export function parseScopeParameter(scope: string): Scope[] {
  const names = scope.split(' ').filter(Boolean);
  const unknown = names.filter((name) => !isScope(name));
  if (unknown.length > 0) throw new OAuthError('invalid_scope', `Unknown scope ${unknown.join(', ')}`);
  return [...new Set(names as Scope[])];
}

/** The scopes an authorization asks for; none named: every scope the role allows (the consent page lists them). */
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
