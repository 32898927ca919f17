import { AppError } from './errors.ts';

/** Roles and scopes of DECISIONS §2: scopes control access, a user's role caps which scopes they hold. */
export const roles = {
  subscriber: 10,
  contributor: 20,
  author: 30,
  editor: 40,
  admin: 50,
} as const;

export type RoleName = keyof typeof roles;
export type Role = (typeof roles)[RoleName];

export const roleValues = Object.values(roles) as Role[];

export function roleName(role: number): string {
  const entry = Object.entries(roles).find(([, value]) => value === role);
  return entry ? entry[0][0]!.toUpperCase() + entry[0].slice(1) : String(role);
}

/** Accepts a role number or its name, as the CLI and the API do; undefined when neither. */
export function parseRole(input: string | number): Role | undefined {
  const asNumber = typeof input === 'number' ? input : Number(input);
  if (roleValues.includes(asNumber as Role)) return asNumber as Role;
  if (typeof input === 'string') return roles[input.toLowerCase() as RoleName];
  return undefined;
}

export const scopes = [
  'content:read',
  'content:write',
  'media:read',
  'media:write',
  'schema:read',
  'schema:write',
  'admin',
] as const;

export type Scope = (typeof scopes)[number];

const scopeMinimumRole: Record<Scope, Role> = {
  'content:read': roles.subscriber,
  'media:read': roles.subscriber,
  'content:write': roles.contributor,
  'media:write': roles.contributor,
  'schema:read': roles.editor,
  'schema:write': roles.admin,
  admin: roles.admin,
};

export function isScope(value: string): value is Scope {
  return (scopes as readonly string[]).includes(value);
}

export function scopeAllowedForRole(scope: Scope, role: number): boolean {
  return role >= scopeMinimumRole[scope];
}

/** Every scope a role may hold: what a browser session of that user carries. */
export function scopesForRole(role: number): Scope[] {
  return scopes.filter((scope) => scopeAllowedForRole(scope, role));
}

/** A credential's own scopes cut to its user's current role, so a demoted user's tokens shrink at once. */
export function effectiveScopes(granted: readonly Scope[], role: number): Scope[] {
  return granted.filter((scope) => scopeAllowedForRole(scope, role));
}

/** `admin` implies every other scope. */
export function hasScope(held: readonly Scope[], needed: Scope): boolean {
  return held.includes(needed) || held.includes('admin');
}

/** Rejects scopes a user's role may not hold, naming them: the PAT rule of DECISIONS §2. */
export function assertScopesWithinRole(requested: readonly Scope[], role: number, path = 'scopes'): void {
  const above = requested.filter((scope) => !scopeAllowedForRole(scope, role));
  if (above.length > 0) {
    throw new AppError('VALIDATION_ERROR', `Scopes above the user's role (${roleName(role)}): ${above.join(', ')}`, {
      issues: above.map((scope) => ({ path, message: `${scope} needs role ${roleName(scopeMinimumRole[scope])} or higher` })),
    });
  }
}
