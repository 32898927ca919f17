import type { Context, Principal, UserPrincipal } from './context.ts';
import { AppError, unauthorized } from './errors.ts';
import { hasScope, roleName, type Scope } from './roles.ts';

/**
 * Every capability is an operation: a named function with its access rule declared once. REST routes,
 * MCP tools and the CLI call `runOperation`, the one place where that rule is enforced.
 */
export type Access =
  /** Anyone, signed in or not. */
  | { kind: 'public' }
  /** Any valid credential, no scope (`GET /auth/me`, the caller's own account). */
  | { kind: 'authenticated' }
  /** A scope, and for some areas a minimum role as well (schema: Editor to read, Admin to write). */
  | { kind: 'scoped'; scope: Scope; minRole?: number };

export interface Operation<Input, Output> {
  name: string;
  access: Access;
  run(ctx: AuthorizedContext, input: Input): Promise<Output>;
}

/** The context after authorization; `actor` is the user acting, absent for the CLI and public calls. */
export interface AuthorizedContext extends Context {
  actor: UserPrincipal | undefined;
}

export function defineOperation<Input, Output>(operation: Operation<Input, Output>): Operation<Input, Output> {
  return operation;
}

export const access = {
  public: { kind: 'public' } as Access,
  authenticated: { kind: 'authenticated' } as Access,
  scope: (scope: Scope, minRole?: number): Access => ({ kind: 'scoped', scope, minRole }),
};

/**
 * Authorizes, then reads the input (so an unauthorized caller learns nothing from validation), then runs.
 * `readInput` parses and validates the adapter's raw input with the operation's shared zod schema.
 */
export async function runOperation<Input, Output>(
  operation: Operation<Input, Output>,
  ctx: Context,
  readInput: () => Input | Promise<Input>,
): Promise<Output> {
  authorize(operation.access, ctx.principal);
  const input = await readInput();
  const actor = ctx.principal?.kind === 'user' ? ctx.principal : undefined;
  return operation.run({ ...ctx, actor }, input);
}

export function authorize(rule: Access, principal: Principal | null): void {
  if (rule.kind === 'public') return;
  if (!principal) throw unauthorized();
  if (principal.kind === 'system' || rule.kind === 'authenticated') return;
  // When the caller lacks both, the scope is what gets reported (DECISIONS §2).
  if (!hasScope(principal.scopes, rule.scope)) {
    throw new AppError('FORBIDDEN', `Insufficient scope: requires ${rule.scope}`, { requiredScope: rule.scope });
  }
  if (rule.minRole !== undefined && principal.role < rule.minRole) {
    throw new AppError('FORBIDDEN', `Insufficient role: requires ${roleName(rule.minRole)}`, { requiredRole: rule.minRole });
  }
}
