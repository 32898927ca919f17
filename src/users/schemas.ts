import { z } from 'zod';
import { pageQuery } from '../core/pagination.ts';
import { roleValues } from '../core/roles.ts';

export const RoleSchema = z.literal(roleValues).describe('10 Subscriber, 20 Contributor, 30 Author, 40 Editor, 50 Admin');

export const EmailSchema = z
  .email()
  .max(254)
  .transform((value) => value.toLowerCase());

export const UserNameSchema = z.string().trim().min(1).max(200);

export const UserSchema = z
  .object({
    id: z.string(),
    email: z.string(),
    name: z.string(),
    role: z.number().int(),
    disabled: z.boolean(),
    createdAt: z.string(),
    updatedAt: z.string(),
    lastSignInAt: z.string().nullable().describe('When they last signed in (passkey, link, invitation or setup); null if never'),
  })
  .meta({ id: 'User' });

export type User = z.infer<typeof UserSchema>;

export const UserIdParams = z.object({ id: z.string().min(1).max(64) });

export const ListUsersQuery = z.object({
  role: z.coerce.number().pipe(RoleSchema).optional().describe('Only users with this role'),
  search: z.string().trim().min(1).max(200).optional().describe('Matches name or email, case-insensitive'),
  ...pageQuery(50),
});

export const UpdateUserBody = z.strictObject({
  name: UserNameSchema.optional(),
  role: RoleSchema.optional(),
});

export const CreateUserInput = z.strictObject({
  email: EmailSchema,
  name: UserNameSchema,
  role: RoleSchema,
});

export const UserItemResponse = z.object({ item: UserSchema });
export const UserListResponse = z.object({ items: z.array(UserSchema), nextCursor: z.string().optional() });
