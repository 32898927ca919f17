import { z } from 'zod';
import { EmailSchema, UserSchema } from '../users/schemas.ts';

export const SetupStatusResponse = z.object({
  setupComplete: z.boolean().describe('Whether the first admin exists (setup page or `folio admin create`); the setup endpoints then refuse'),
  hasUsers: z.boolean(),
});

export const MagicLinkSendBody = z.strictObject({ email: EmailSchema });

export const MagicLinkVerifyQuery = z.object({ token: z.string().min(1).max(200).describe('The token of the link the mail carried') });

export const SignedInResponse = z.object({ item: UserSchema });

/** The browser's cookies, read by sign-ins to end the session they replace. */
export const CookieHeaders = z.object({ cookie: z.string().max(8192).optional() });
