import type { z } from 'zod';
import { isoNow } from '../core/clock.ts';
import { AppError, notFound, validationError } from '../core/errors.ts';
import { newId } from '../core/ids.ts';
import { access, defineOperation, type AuthorizedContext } from '../core/operation.ts';
import { pageByKey, type Page } from '../core/pagination.ts';
import { roleName, roles } from '../core/roles.ts';
import { inTransaction, isUniqueViolation } from '../db/dialect.ts';
import type { CreateUserInput, ListUsersQuery, UpdateUserBody, User } from './schemas.ts';

type UserItem = { item: User };
import * as store from './store.ts';

const adminOnly = access.scope('admin');

export const createUser = defineOperation({
  name: 'users.create',
  access: adminOnly,
  async run(ctx, input: z.output<typeof CreateUserInput>): Promise<UserItem> {
    const now = isoNow(ctx.clock);
    const row: store.UserRow = { id: newId(), email: input.email, name: input.name, role: input.role, disabled: 0, created_at: now, updated_at: now, last_sign_in_at: null };
    try {
      await store.insertUser(ctx.db, row);
    } catch (error) {
      if (isUniqueViolation(error)) {
        throw new AppError('CONFLICT', `A user with email ${input.email} already exists`, { issues: [{ path: 'email', message: 'already in use' }] });
      }
      throw error;
    }
    return { item: store.toUser(row) };
  },
});

export const listUsers = defineOperation({
  name: 'users.list',
  access: adminOnly,
  async run(ctx, input: z.output<typeof ListUsersQuery>): Promise<Page<User>> {
    const rowsAfter = (afterId: string | undefined) => store.listUserRows(ctx.db, { role: input.role, search: input.search, afterId, limit: input.limit });
    return pageByKey(input, (row) => row.id, rowsAfter, store.toUser);
  },
});

export const getUser = defineOperation({
  name: 'users.get',
  access: adminOnly,
  async run(ctx, input: { id: string }): Promise<UserItem> {
    return { item: store.toUser(await requireUser(ctx, input.id)) };
  },
});

export const updateUser = defineOperation({
  name: 'users.update',
  access: adminOnly,
  async run(ctx, input: { id: string } & z.output<typeof UpdateUserBody>): Promise<UserItem> {
    return inTransaction(ctx.db, async (db) => {
      const tx = { ...ctx, db };
      const user = await requireUser(tx, input.id);
      const changes: Partial<store.UserRow> = {};
      if (input.name !== undefined) changes.name = input.name;
      if (input.role !== undefined && input.role !== user.role) {
        if (ctx.actor?.userId === user.id) {
          throw new AppError('FORBIDDEN', 'You cannot change your own role', { reason: 'self' });
        }
        if (input.role < roles.admin) await assertNotLastAdmin(tx, user, 'demote');
        changes.role = input.role;
      }
      if (Object.keys(changes).length === 0) return { item: store.toUser(user) };
      changes.updated_at = isoNow(ctx.clock);
      await store.updateUserRow(db, user.id, changes);
      return { item: store.toUser({ ...user, ...changes }) };
    });
  },
});

/** Enable or disable: a disabled user's credentials stop working on their next request. */
export function setUserDisabled(disabled: boolean) {
  return defineOperation({
    name: disabled ? 'users.disable' : 'users.enable',
    access: adminOnly,
    async run(ctx, input: { id: string }): Promise<UserItem> {
      return inTransaction(ctx.db, async (db) => {
        const tx = { ...ctx, db };
        const user = await requireUser(tx, input.id);
        if ((user.disabled === 1) === disabled) return { item: store.toUser(user) };
        if (disabled) {
          if (ctx.actor?.userId === user.id) throw new AppError('FORBIDDEN', 'You cannot disable yourself', { reason: 'self' });
          await assertNotLastAdmin(tx, user, 'disable');
        }
        const changes = { disabled: disabled ? 1 : 0, updated_at: isoNow(ctx.clock) };
        await store.updateUserRow(db, user.id, changes);
        return { item: store.toUser({ ...user, ...changes }) };
      });
    },
  });
}

export const disableUser = setUserDisabled(true);
export const enableUser = setUserDisabled(false);

async function requireUser(ctx: AuthorizedContext, id: string): Promise<store.UserRow> {
  const user = await store.findUserById(ctx.db, id);
  if (!user) throw notFound('User');
  return user;
}

/** A site must keep at least one enabled admin, or nobody could administer it again. */
async function assertNotLastAdmin(ctx: AuthorizedContext, user: store.UserRow, action: 'demote' | 'disable'): Promise<void> {
  if (user.role !== roles.admin || user.disabled === 1) return;
  const admins = await store.lockActiveAdminIds(ctx.db);
  if (admins.every((id) => id === user.id)) {
    throw new AppError('CONFLICT', `Cannot ${action} the last enabled ${roleName(roles.admin)}`, { reason: 'last_admin' });
  }
}

/** Resolves a user for the CLI, which names users by email. */
export async function requireUserByEmail(ctx: Pick<AuthorizedContext, 'db'>, email: string): Promise<store.UserRow> {
  const user = await store.findUserByEmail(ctx.db, email);
  if (!user) throw validationError([{ path: 'email', message: `No user with email ${email}` }]);
  return user;
}
