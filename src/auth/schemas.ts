import { z } from 'zod';
import { scopes } from '../core/roles.ts';
import { UserSchema } from '../users/schemas.ts';

export const ScopeSchema = z.enum(scopes, {
  error: (issue) => `Unknown scope ${JSON.stringify(issue.input)}: use ${scopes.join(', ')}`,
});

export const ScopeListSchema = z
  .array(ScopeSchema)
  .min(1, 'Give at least one scope')
  .max(scopes.length)
  .transform((list) => [...new Set(list)]);

export const TokenSchema = z
  .object({
    id: z.string(),
    userId: z.string(),
    name: z.string(),
    scopes: z.array(ScopeSchema),
    expiresAt: z.string().nullable(),
    lastUsedAt: z.string().nullable(),
    createdAt: z.string(),
  })
  .meta({ id: 'AccessToken' });

export type Token = z.infer<typeof TokenSchema>;

export const CreateTokenBody = z.strictObject({
  userId: z.string().min(1).max(64),
  name: z.string().trim().min(1, 'Must not be blank').max(200),
  scopes: ScopeListSchema,
  expiresAt: z.iso.datetime({ offset: true }).optional().describe('ISO 8601 date-time in the future; absent: never expires'),
});

export const CreateTokenResponse = z.object({
  token: z.string().describe('The secret, shown only in this response'),
  item: TokenSchema,
});

export const ListTokensQuery = z.object({ userId: z.string().min(1).max(64).optional() });
export const TokenListResponse = z.object({ items: z.array(TokenSchema) });
export const TokenIdParams = z.object({ id: z.string().min(1).max(64) });

export const MeResponse = z.object({
  item: UserSchema,
  scopes: z.array(ScopeSchema).describe("The credential's effective scopes"),
});
