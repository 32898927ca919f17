import type { z } from 'zod';
import type { Operation } from '../core/operation.ts';
import { DeletedResponse } from '../core/schemas.ts';
import { defineRoute } from '../http/route.ts';
import { logout } from './account.ts';
import { acceptInvitation, invite } from './invitations.ts';
import { sendMagicLink, verifyMagicLink } from './magic-links.ts';
import { deletePasskey, listPasskeys, passkeyRegistrationOptions, passkeySignIn, passkeySignInOptions, registerPasskey, renamePasskey } from './passkeys.ts';
import type { User } from '../users/schemas.ts';
import { sessionCookie, type IssuedSession } from './sessions.ts';
import { createFirstAdmin, firstAdminPasskeyOptions, getSetupStatus } from './setup.ts';
import {
  AcceptInvitationBody,
  CookieHeaders,
  InvitationResponse,
  InviteBody,
  MagicLinkSendBody,
  MagicLinkVerifyQuery,
  PasskeyAssertionBody,
  PasskeyIdParams,
  PasskeyListResponse,
  PasskeyRegistrationBody,
  PasskeyResponse,
  RenamePasskeyBody,
  SetupAdminBody,
  SetupAdminOptionsBody,
  SetupStatusResponse,
  SignedInResponse,
  WebAuthnOptionsResponse,
} from './sign-in-schemas.ts';

const account = 'Account';
const setup = 'Setup';

/**
 * A POST that signs someone in: its body plus the request's session cookie (the session it replaces)
 * go to the operation, whose new session leaves as a cookie and never in the body.
 */
function signInRoute<B extends z.ZodType>(spec: {
  path: string;
  tag: string;
  summary: string;
  body: B;
  operation: Operation<z.output<B> & { cookie?: string }, { item: User; session: IssuedSession }>;
  status?: 201;
}) {
  return defineRoute({
    method: 'post',
    ...spec,
    headers: CookieHeaders,
    // A zod object's output: the spread is the body's fields.
    input: ({ body, headers }) => ({ ...(body as object), cookie: headers.cookie }) as z.output<B> & { cookie?: string },
    response: SignedInResponse,
    data: ({ item }) => ({ item }),
    cookies: (output, config) => [sessionCookie(config, output.session)],
  });
}

/** Sign-in, account and setup endpoints (rest-api.md §4 Sign-in and account). */
export const signInRoutes = [
  defineRoute({ method: 'get', path: '/setup/status', tag: setup, summary: 'Whether setup is complete and whether users exist (public)', operation: getSetupStatus, response: SetupStatusResponse }),
  defineRoute({
    method: 'post',
    path: '/setup/admin/options',
    tag: setup,
    summary: "WebAuthn options for the first admin's passkey, with the setup link's secret (creates no account; the challenge is good for one `POST /setup/admin`, 5 minutes)",
    operation: firstAdminPasskeyOptions,
    body: SetupAdminOptionsBody,
    response: WebAuthnOptionsResponse,
  }),
  signInRoute({ path: '/setup/admin', tag: setup, summary: "Create the first admin with the setup link's secret and their verified passkey, completing setup, and start their session (cookie)", operation: createFirstAdmin, body: SetupAdminBody, status: 201 }),
  defineRoute({
    method: 'post',
    path: '/auth/passkey/options',
    tag: account,
    summary: 'WebAuthn options to sign in with a passkey (the challenge is good for one verify, 5 minutes)',
    operation: passkeySignInOptions,
    response: WebAuthnOptionsResponse,
  }),
  signInRoute({ path: '/auth/passkey/verify', tag: account, summary: 'Verify a passkey assertion and start a session (cookie)', operation: passkeySignIn, body: PasskeyAssertionBody }),
  defineRoute({ method: 'get', path: '/auth/passkey', tag: account, summary: "The caller's passkeys", operation: listPasskeys, response: PasskeyListResponse }),
  defineRoute({
    method: 'post',
    path: '/auth/passkey/register/options',
    tag: account,
    summary: "WebAuthn options to add a passkey to the caller's account (at most 10)",
    operation: passkeyRegistrationOptions,
    response: WebAuthnOptionsResponse,
  }),
  defineRoute({
    method: 'post',
    path: '/auth/passkey/register/verify',
    tag: account,
    summary: 'Register the passkey the browser created',
    operation: registerPasskey,
    body: PasskeyRegistrationBody,
    response: PasskeyResponse,
    status: 201,
  }),
  defineRoute({ method: 'patch', path: '/auth/passkey/:id', tag: account, summary: 'Rename a passkey', operation: renamePasskey, params: PasskeyIdParams, body: RenamePasskeyBody, response: PasskeyResponse }),
  defineRoute({
    method: 'delete',
    path: '/auth/passkey/:id',
    tag: account,
    summary: "Delete a passkey (not the last way in: 409 last_way_in)",
    operation: deletePasskey,
    params: PasskeyIdParams,
    response: DeletedResponse,
  }),
  defineRoute({
    method: 'post',
    path: '/auth/magic-link/send',
    tag: account,
    summary: 'Mail a sign-in link (the same answer whether or not the address has an account)',
    operation: sendMagicLink,
    body: MagicLinkSendBody,
    response: DeletedResponse,
  }),
  defineRoute({
    method: 'get',
    path: '/auth/magic-link/verify',
    tag: account,
    summary: "Spend a sign-in link's token: starts a session (cookie) and redirects to where the link returns to (a path under /_cms/), else the landing page",
    operation: verifyMagicLink,
    query: MagicLinkVerifyQuery,
    headers: CookieHeaders,
    input: ({ query, headers }) => ({ token: query.token, return: query.return, cookie: headers.cookie }),
    result: { kind: 'redirect', status: 303, location: ({ returnTo }) => returnTo },
    cookies: (output, config) => [sessionCookie(config, output.session)],
  }),
  defineRoute({
    method: 'post',
    path: '/auth/invite',
    tag: account,
    summary: 'Invite a person by mail with a role (a single-use link, valid 7 days)',
    operation: invite,
    body: InviteBody,
    response: InvitationResponse,
    status: 201,
  }),
  signInRoute({ path: '/auth/invitation/accept', tag: account, summary: "Accept an invitation: creates the account with the invited address and role, and starts a session (cookie)", operation: acceptInvitation, body: AcceptInvitationBody, status: 201 }),
  defineRoute({
    method: 'post',
    path: '/auth/logout',
    tag: account,
    summary: 'End this browser session (its cookie is cleared)',
    operation: logout,
    response: DeletedResponse,
    cookies: (_output, config) => [sessionCookie(config, null)],
  }),
];
