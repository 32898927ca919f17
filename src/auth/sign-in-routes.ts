import { DeletedResponse } from '../core/schemas.ts';
import { defineRoute } from '../http/route.ts';
import { logout } from './account.ts';
import { sendMagicLink, verifyMagicLink } from './magic-links.ts';
import { sessionCookie } from './sessions.ts';
import { getSetupStatus } from './setup.ts';
import { CookieHeaders, MagicLinkSendBody, MagicLinkVerifyQuery, SetupStatusResponse } from './sign-in-schemas.ts';

/** Where a browser lands once signed in. */
export const landingPath = '/_cms/';

const account = 'Account';
const setup = 'Setup';

/** Sign-in, account and setup endpoints (rest-api.md §4 Sign-in and account). */
export const signInRoutes = [
  defineRoute({ method: 'get', path: '/setup/status', tag: setup, summary: 'Whether setup is complete and whether users exist (public)', operation: getSetupStatus, response: SetupStatusResponse }),
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
    summary: "Spend a sign-in link's token: starts a session (cookie) and redirects to the landing page",
    operation: verifyMagicLink,
    query: MagicLinkVerifyQuery,
    headers: CookieHeaders,
    input: ({ query, headers }) => ({ token: query.token, cookie: headers.cookie }),
    result: { kind: 'redirect', status: 303, location: () => landingPath },
    cookies: (output, config) => [sessionCookie(config, output.session)],
  }),
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
