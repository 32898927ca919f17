import { z } from 'zod';
import { EmailSchema, RoleSchema, UserNameSchema, UserSchema } from '../users/schemas.ts';
import { isSignInReturnPath, SignInReturnSchema } from './return-path.ts';

export const SetupStatusResponse = z.object({
  setupComplete: z.boolean().describe('Whether the first admin exists (setup page or `folio admin create`); the setup endpoints then refuse'),
  hasUsers: z.boolean(),
});

export const MagicLinkSendBody = z.strictObject({
  email: EmailSchema,
  return: SignInReturnSchema.refine(isSignInReturnPath, 'Must be a path of Folio’s own pages, under /_cms/')
    .optional()
    .describe('Where the link brings the person back to once signed in (the page that sent them to sign in, e.g. an OAuth consent); default /_cms/'),
});

export const MagicLinkVerifyQuery = z.object({
  token: z.string().min(1).max(200).describe('The token of the link the mail carried'),
  return: SignInReturnSchema.optional().describe('Where to redirect once signed in, as the mail carried it; anything but a path under /_cms/ is /_cms/'),
});

export const SignedInResponse = z.object({ item: UserSchema });

/** The browser's cookies, read by sign-ins to end the session they replace. */
export const CookieHeaders = z.object({ cookie: z.string().max(8192).optional() });

const base64url = (max: number) => z.string().max(max).regex(/^[A-Za-z0-9_-]*$/, 'must be base64url');

const credentialEnvelope = {
  id: base64url(1024).min(1),
  rawId: base64url(1024).min(1),
  type: z.literal('public-key'),
  clientExtensionResults: z.record(z.string(), z.unknown()).optional().default({}),
  // Browsers write null where they know no attachment; the verifier takes undefined.
  authenticatorAttachment: z.enum(['platform', 'cross-platform']).nullish().transform((value) => value ?? undefined),
};

/** What `navigator.credentials.get()` gives, as `PublicKeyCredential.toJSON()` writes it. */
export const PasskeyAssertionBody = z.strictObject({
  ...credentialEnvelope,
  response: z.object({
    clientDataJSON: base64url(16_384).min(1),
    authenticatorData: base64url(16_384).min(1),
    signature: base64url(4096).min(1),
    userHandle: base64url(1024).nullish().transform((value) => value ?? undefined),
  }),
});

/** What `navigator.credentials.create()` gives, as `PublicKeyCredential.toJSON()` writes it, and a name for it. */
export const PasskeyRegistrationBody = z.strictObject({
  ...credentialEnvelope,
  response: z.object({
    clientDataJSON: base64url(16_384).min(1),
    attestationObject: base64url(65_536).min(1),
    transports: z.array(z.string().max(32)).max(10).optional(),
  }),
  name: z.string().trim().min(1).max(100).optional().describe('What the person calls this passkey; default "Passkey"'),
});

export const PasskeySchema = z
  .object({ id: z.string(), name: z.string(), createdAt: z.string(), lastUsedAt: z.string().nullable() })
  .meta({ id: 'Passkey' });

export const PasskeyResponse = z.object({ item: PasskeySchema });
export const PasskeyListResponse = z.object({ items: z.array(PasskeySchema) });
export const PasskeyIdParams = z.object({ id: z.string().min(1).max(64) });
export const RenamePasskeyBody = z.strictObject({ name: z.string().trim().min(1).max(100) });

/** WebAuthn options as the browser's `PublicKeyCredential.parse*OptionsFromJSON()` reads them. */
export const WebAuthnOptionsResponse = z
  .object({ challenge: z.string(), rpId: z.string().optional(), timeout: z.number().optional() })
  .loose()
  .describe('PublicKeyCredentialRequestOptionsJSON or PublicKeyCredentialCreationOptionsJSON');

export const InviteBody = z.strictObject({ email: EmailSchema, role: RoleSchema });

export const InvitationSchema = z
  .object({ id: z.string(), email: z.string(), role: z.number().int(), expiresAt: z.string(), createdAt: z.string() })
  .meta({ id: 'Invitation' });

export const InvitationResponse = z.object({ item: InvitationSchema });

export const AcceptInvitationBody = z.strictObject({
  token: z.string().min(1).max(200).describe("The token of the invitation's link"),
  name: UserNameSchema,
});

export const SetupAdminOptionsBody = z.strictObject({
  secret: z.string().min(1).max(200).describe('The secret of the setup link the server printed at start'),
  name: UserNameSchema,
  email: EmailSchema,
});

export const SetupAdminBody = SetupAdminOptionsBody.extend({
  passkey: PasskeyRegistrationBody.omit({ name: true }).describe("What `navigator.credentials.create()` gave for the options of `POST /setup/admin/options`, as `toJSON()` writes it"),
});
