import type { Context, Principal, UserPrincipal } from './context.ts';
import { AppError, unauthorized } from './errors.ts';
import { hasScope, roleName, type Role, type Scope } from './roles.ts';

/**
 * Every capability is an operation: a named function with its access rule declared once. REST routes,
 * MCP tools and the CLI call `runOperation`, the one place where that rule is enforced.
 */
export type Access<Input = never> =
  /** Anyone, signed in or not. */
  | { kind: 'public' }
  /** Any valid credential, no scope: the operation acts on the caller's own account (`GET /auth/me`). */
  | { kind: 'ownAccount' }
  | ScopedAccess<Input>;

export interface ScopedAccess<Input> {
  kind: 'scoped';
  scope: Scope;
  /** The least role whatever the input (schema: Editor to read, Admin to write; trash: Contributor). */
  minRole?: Role;
  /**
   * A least role that depends on what is asked (a content list filtered by draft status needs
   * Contributor), checked once the input is read. Undefined: no more than `minRole`.
   */
  inputRole?: (input: Input) => Role | undefined;
  /**
   * When this says yes, callers without a credential (or without the scope) run the operation as the
   * public: published, live values only (`publicRead`, DECISIONS §2).
   */
  publicWhen?: (ctx: Context) => Promise<boolean>;
}

export interface Operation<Input, Output> {
  name: string;
  access: Access<Input>;
  /** A property, not a method, so the compiler checks adapters' inputs against it strictly. */
  run: (ctx: AuthorizedContext, input: Input) => Promise<Output>;
}

/** Any operation, for registries that only read its name and access (routes, tools, the OpenAPI document). */
export type AnyOperation = Operation<never, unknown>;

/**
 * The context after authorization. `principal` is who the operation acts for: null when it runs for
 * the public (no credential, or one without the scope where the rule allows the public); `actor` is
 * that principal when it is a user.
 */
export interface AuthorizedContext extends Context {
  actor: UserPrincipal | undefined;
}

export function defineOperation<Input, Output>(operation: Operation<Input, Output>): Operation<Input, Output> {
  return operation;
}

interface ScopeOptions<Input> {
  minRole?: Role;
  inputRole?: (input: Input) => Role | undefined;
  publicWhen?: (ctx: Context) => Promise<boolean>;
}

export const access = {
  public: { kind: 'public' } as const,
  ownAccount: { kind: 'ownAccount' } as const,
  scope: <Input = unknown>(scope: Scope, options: ScopeOptions<Input> = {}): ScopedAccess<Input> => ({ kind: 'scoped', scope, ...options }),
};

export interface RunOptions {
  /** How a refusal of access (401, 403) is raised: MCP turns it into a protocol error, REST keeps it. */
  refused?: (error: AppError) => Error;
}

/**
 * Authorizes, then reads the input (so an unauthorized caller learns nothing from validation), then
 * checks the role the input asks for, then runs. `readInput` parses and validates the adapter's raw
 * input with the operation's shared zod schema.
 */
export async function runOperation<Input, Output>(
  operation: Operation<Input, Output>,
  ctx: Context,
  readInput: () => Input | Promise<Input>,
  options: RunOptions = {},
): Promise<Output> {
  const rule = operation.access;
  let principal: Principal | null;
  try {
    // Awaited only when it is a promise: most requests are admitted or refused at once, and each
    // await on the request path costs a promise and a turn.
    const admitted = admit(rule, ctx);
    principal = admitted instanceof Promise ? await admitted : admitted;
  } catch (error) {
    throw refusal(error, options);
  }
  const read = readInput();
  const input = read instanceof Promise ? await read : read;
  if (rule.kind === 'scoped' && rule.inputRole) {
    try {
      requireRole(rule.inputRole(input), principal);
    } catch (error) {
      throw refusal(error, options);
    }
  }
  const actor = principal?.kind === 'user' ? principal : undefined;
  return operation.run({ ...ctx, principal, actor }, input);
}

function refusal(error: unknown, options: RunOptions): unknown {
  return error instanceof AppError && options.refused ? options.refused(error) : error;
}

/**
 * Whom the operation will act for, or the refusal (DECISIONS §2: the scope is reported before the
 * role); a promise only where the rule's `publicWhen` has to be asked.
 */
function admit(rule: Access<never>, ctx: Context): Principal | null | Promise<Principal | null> {
  const principal = ctx.principal;
  if (rule.kind === 'public') return principal;
  if (principal?.kind === 'system') return principal;
  if (rule.kind === 'ownAccount') {
    if (!principal) throw unauthorized();
    return principal;
  }
  if (!principal || !hasScope(principal.scopes, rule.scope)) {
    const publicWhen = rule.publicWhen;
    if (publicWhen) return publicWhen(ctx).then((allowed) => (allowed ? null : refuseScope(rule, principal)));
    return refuseScope(rule, principal);
  }
  requireRole(rule.minRole, principal);
  return principal;
}

function refuseScope(rule: ScopedAccess<never>, principal: Principal | null): never {
  if (!principal) throw unauthorized();
  throw new AppError('FORBIDDEN', `Insufficient scope: requires ${rule.scope}`, { requiredScope: rule.scope });
}

function requireRole(role: Role | undefined, principal: Principal | null): void {
  if (role === undefined || principal?.kind === 'system') return;
  if (!principal) throw unauthorized();
  if (principal.role < role) throw new AppError('FORBIDDEN', `Insufficient role: requires ${roleName(role)}`, { requiredRole: role });
}
