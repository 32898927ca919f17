import type { Principal } from '../core/context.ts';
import type { Access } from '../core/operation.ts';
import { hasScope, scopeAllowedForRole, scopes as allScopes, type Scope } from '../core/roles.ts';
import type { Tool } from './tool.ts';

/**
 * What the MCP endpoint tells a client about scopes (RFC 6750 §3, MCP authorization 2025-11-25,
 * decisions/0036): the scopes to ask for at first (in the 401 challenge) and, when a token lacks a
 * tool's scope, the scopes to ask for again (in a 403 `insufficient_scope` challenge).
 */

/**
 * Every scope some tool declares, in the canonical order: what the 401 challenge offers. Never
 * `admin`, which no tool needs and which would let a client do everything the REST API allows.
 */
export function toolScopes(tools: readonly Tool[]): Scope[] {
  const declared = new Set(tools.map((tool) => tool.operation.access).flatMap((rule) => (rule.kind === 'scoped' ? [rule.scope] : [])));
  return allScopes.filter((scope) => declared.has(scope));
}

/**
 * The scope a token lacks for an operation when asking for it again can help: the caller is a user
 * whose role may hold it. A scope above the role (or a role refusal) is not a scope challenge: a new
 * authorization would be clamped to the same role and the client would only loop through consent.
 */
export function missingScope(rule: Access<never>, principal: Principal | null): Scope | undefined {
  if (rule.kind !== 'scoped' || principal?.kind !== 'user') return undefined;
  if (hasScope(principal.scopes, rule.scope) || !scopeAllowedForRole(rule.scope, principal.role)) return undefined;
  return rule.scope;
}

/**
 * The scopes a 403 names: those the token has that tools use, and the one it lacks. Clients (the MCP
 * SDK among them) ask for exactly the challenge's list, and Folio grants exactly what is asked, so
 * naming the missing scope alone would trade the token's other scopes for it (the "recommended
 * approach" of the MCP specification's Scope Challenge Handling).
 */
export function scopesToAskFor(held: readonly Scope[], missing: Scope, offered: readonly Scope[]): Scope[] {
  return offered.filter((scope) => scope === missing || held.includes(scope));
}

/** A `WWW-Authenticate: Bearer …` value; every value here is a URL, a scope list or a fixed text, none with `"` or `\`. */
export function bearerChallenge(parameters: Record<string, string | undefined>): string {
  const pairs = Object.entries(parameters).filter((entry): entry is [string, string] => entry[1] !== undefined);
  return `Bearer ${pairs.map(([name, value]) => `${name}="${value}"`).join(', ')}`;
}
