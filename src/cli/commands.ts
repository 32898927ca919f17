import type { Command } from 'commander';
import { createToken, listTokens, revokeToken } from '../auth/operations.ts';
import { CreateTokenBody } from '../auth/schemas.ts';
import { completeSetup } from '../auth/setup.ts';
import { validationError } from '../core/errors.ts';
import { runOperation } from '../core/operation.ts';
import { parseRole, roles } from '../core/roles.ts';
import { parseInput } from '../core/validate.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { createUser, requireUserByEmail } from '../users/operations.ts';
import { CreateUserInput } from '../users/schemas.ts';
import { withCliContext } from './context.ts';
import { parseDuration } from './duration.ts';
import { databaseFlags, declareDatabaseFlag } from './setting-flags.ts';


export function registerDataCommands(program: Command): void {
  declareDatabaseFlag(program.command('migrate').description('apply pending database migrations and exit')).action(async (options) => {
    await withCliContext(databaseFlags(options), async (ctx) => {
      // withCliContext has migrated already; a second call reports there is nothing left.
      await migrateToLatest(ctx.db);
      console.error('database is up to date');
    });
  });

  const addUserCommand = (parent: Command, name: string, description: string, withRole: boolean) => {
    const command = parent
      .command(name)
      .description(description)
      .requiredOption('--email <email>', 'sign-in email address (unique)')
      .requiredOption('--name <name>', 'display name');
    if (withRole) command.requiredOption('--role <role>', 'role: 10-50 or subscriber, contributor, author, editor, admin');
    declareDatabaseFlag(command).action(async (options) => {
      const role = withRole ? parseRole(options.role) : roles.admin;
      if (role === undefined) {
        throw validationError([{ path: 'role', message: `Unknown role "${options.role}": use 10, 20, 30, 40, 50 or subscriber, contributor, author, editor, admin` }]);
      }
      await withCliContext(databaseFlags(options), async (ctx) => {
        const input = parseInput(CreateUserInput, { email: options.email, name: options.name, role }, 'user');
        const { item } = await runOperation(createUser, ctx, () => input);
        // The first admin made at the console completes setup as the setup page would (DECISIONS §6).
        if (!withRole) await completeSetup(ctx.db, ctx.clock);
        console.log(item.id);
      });
    });
  };
  addUserCommand(program.command('admin').description('manage administrators'), 'create', 'create an admin user (prints its id)', false);
  addUserCommand(program.command('user').description('manage users'), 'create', 'create a user with a role (prints its id)', true);

  const token = program.command('token').description('manage personal access tokens');
  declareDatabaseFlag(
    token
      .command('create')
      .description("create a personal access token for a user; prints only the token, so scripts can capture it")
      .requiredOption('--email <email>', "the token owner's email")
      .requiredOption('--name <name>', 'a name to recognise the token by')
      .requiredOption('--scopes <scopes>', 'comma-separated: content:read,content:write,media:read,media:write,schema:read,schema:write,admin')
      .option('--expires-in <duration>', 'lifetime such as 30d, 12h, 90m or 2w (default: never expires)'),
  ).action(async (options) => {
    let expiresAt: string | undefined;
    if (options.expiresIn !== undefined) {
      const ms = parseDuration(options.expiresIn);
      if (ms === undefined) throw validationError([{ path: 'expires-in', message: `"${options.expiresIn}" is not a duration such as 30d, 12h, 90m or 2w` }]);
      expiresAt = new Date(Date.now() + ms).toISOString();
    }
    await withCliContext(databaseFlags(options), async (ctx) => {
      const user = await requireUserByEmail(ctx, options.email);
      const scopes = String(options.scopes).split(',').map((scope) => scope.trim()).filter(Boolean);
      const input = parseInput(CreateTokenBody, { userId: user.id, name: options.name, scopes, expiresAt }, 'token');
      const created = await runOperation(createToken, ctx, () => input);
      console.log(created.token);
    });
  });

  declareDatabaseFlag(token.command('list').description('list tokens (never their secrets)').option('--email <email>', 'only the tokens of this user')).action(
    async (options) => {
      await withCliContext(databaseFlags(options), async (ctx) => {
        const userId = options.email === undefined ? undefined : (await requireUserByEmail(ctx, options.email)).id;
        const { items } = await runOperation(listTokens, ctx, () => ({ userId }));
        // Tab-separated under a header row: readable in a terminal, and `tail -n +2 | cut -f1` gives the ids.
        console.log(['ID', 'NAME', 'SCOPES', 'EXPIRES', 'LAST USED'].join('\t'));
        for (const item of items) {
          console.log([item.id, item.name, item.scopes.join(','), item.expiresAt ?? 'never', item.lastUsedAt ?? 'unused'].join('\t'));
        }
      });
    },
  );

  declareDatabaseFlag(token.command('revoke').description('revoke a token by its id (see token list)').requiredOption('--id <id>', 'the token id')).action(
    async (options) => {
      await withCliContext(databaseFlags(options), async (ctx) => {
        await runOperation(revokeToken, ctx, () => ({ id: String(options.id) }));
        console.error(`revoked token ${options.id}`);
      });
    },
  );
}
