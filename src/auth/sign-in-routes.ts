import { DeletedResponse } from '../core/schemas.ts';
import { defineRoute } from '../http/route.ts';
import { logout } from './account.ts';
import { sessionCookie } from './sessions.ts';
import { getSetupStatus } from './setup.ts';
import { SetupStatusResponse } from './sign-in-schemas.ts';

const account = 'Account';
const setup = 'Setup';

/** Sign-in, account and setup endpoints (rest-api.md §4 Sign-in and account). */
export const signInRoutes = [
  defineRoute({ method: 'get', path: '/setup/status', tag: setup, summary: 'Whether setup is complete and whether users exist (public)', operation: getSetupStatus, response: SetupStatusResponse }),
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
