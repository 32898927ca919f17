import { html } from 'hono/html';
import type { AppError } from '../core/errors.ts';
import type { Scope } from '../core/roles.ts';
import { layout } from '../auth/pages.ts';
import { signInPath } from '../auth/return-path.ts';
import { pageContentSecurityPolicy } from '../http/results.ts';
import type { FailureResponse, PageResult } from '../http/route.ts';
import type { AuthorizeOutcome } from './consent.ts';
import type { DevicePage } from './device.ts';
import { OAuthError } from './errors.ts';
import { oauthPaths } from './urls.ts';

/** The consent and device pages (hono/html escapes every value), in the sign-in pages' frame. */

/** What each scope lets the app do, in the words of mcp.md §5. */
const scopeDescriptions: Record<Scope, string> = {
  'content:read': 'Read content: list, get, compare and search entries, taxonomy terms and menus',
  'content:write': 'Change content: create, update, delete, publish, schedule and restore entries; create terms',
  'media:read': 'See the media library',
  'media:write': 'Change and delete media details',
  'schema:read': 'See the collections and their fields',
  'schema:write': 'Create and delete collections and fields',
  admin: 'Full access to everything your role allows',
};

const scopeList = (scopes: readonly Scope[]) => html`<ul id="scopes">${scopes.map((scope) => html`<li><code>${scope}</code>: ${scopeDescriptions[scope]}</li>`)}</ul>`;

/**
 * The consent form posts to Folio, which answers with a redirect to the client: browsers hold that
 * redirect to the page's `form-action` too, so the client's redirect target is allowed there.
 */
function consentPolicy(redirectUri: string): string {
  const url = new URL(redirectUri);
  const target = url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : url.protocol;
  return pageContentSecurityPolicy.replace("form-action 'self'", `form-action 'self' ${target}`);
}

/** The name is the app's own claim; the host serving its metadata document is what Folio checked. */
const describedBy = (host: string | undefined) => (host === undefined ? '' : html` (as described by <strong id="client-host">${host}</strong>)`);

export async function authorizePage(outcome: AuthorizeOutcome): Promise<PageResult> {
  if (outcome.kind === 'redirect') return { redirect: outcome.url };
  const refused = outcome.refused.length === 0 ? '' : html`<p>Not granted (your role does not allow it): ${outcome.refused.join(', ')}.</p>`;
  const local = outcome.localRedirect
    ? html`<p class="warning" role="alert" id="local-redirect">The answer goes to a program on this computer (${outcome.redirectHost}), and any program running here could be the one listening. Allow only if you have just asked ${outcome.clientName} to connect, here, yourself.</p>`
    : '';
  return {
    html: await layout(
      'consent',
      'Connect an app',
      html`<p><strong id="client-name">${outcome.clientName}</strong>${describedBy(outcome.clientHost)} wants to use your Folio account. It will get its answer at <strong id="redirect-host">${outcome.redirectHost}</strong>.</p>
${local}
<p>It asks to:</p>
${scopeList(outcome.scopes)}
${refused}
<form method="post" action="${oauthPaths.consent}">
<input type="hidden" name="request" value="${outcome.requestId}">
<button type="submit" name="decision" value="approve">Allow</button>
<button type="submit" name="decision" value="deny">Deny</button>
</form>
<p>You can disconnect it later from your account.</p>`,
      'same-origin',
    ),
    contentSecurityPolicy: consentPolicy(outcome.redirectUri),
  };
}

/** After a POST the browser follows with a GET (303), whichever way the person answered. */
export function consentAnswered(outcome: AuthorizeOutcome): PageResult {
  if (outcome.kind !== 'redirect') throw new Error('A consent answer always sends the browser back to the app');
  return { redirect: outcome.url, status: 303 };
}

export async function devicePage(page: DevicePage): Promise<PageResult> {
  switch (page.kind) {
    case 'enter':
      return {
        html: await layout(
          'device',
          'Connect a device',
          html`${page.problem === undefined ? '' : html`<p class="error" role="alert">${page.problem}</p>`}
<form method="get" action="${oauthPaths.device}">
<label for="user_code">The code your device shows</label>
<input id="user_code" name="user_code" autocomplete="off" autocapitalize="characters" spellcheck="false" required maxlength="20" placeholder="XXXX-XXXX">
<button type="submit">Continue</button>
</form>`,
          'same-origin',
        ),
        status: page.problem === undefined ? 200 : 400,
      };
    case 'confirm':
      return {
        html: await layout(
          'device',
          'Connect a device',
          html`<p><strong id="client-name">${page.clientName}</strong>${describedBy(page.clientHost)} asks to use your Folio account with the code <strong>${page.userCode}</strong>.</p>
<p>It asks to:</p>
${scopeList(page.scopes as Scope[])}
<form method="post" action="${oauthPaths.device}">
<input type="hidden" name="user_code" value="${page.userCode}">
<button type="submit" name="decision" value="approve">Allow</button>
<button type="submit" name="decision" value="deny">Deny</button>
</form>`,
          'same-origin',
        ),
      };
    case 'done':
      return {
        html: await layout('device', page.approved ? 'Device connected' : 'Request denied', html`<p>${page.approved ? 'You can go back to your device now.' : 'The device was not given access.'}</p>`),
      };
  }
}

/**
 * How the OAuth pages fail: a browser without a session goes to sign in and comes back to this very
 * request; anything else is a page saying what is wrong (an unchecked redirect URI is never followed).
 */
export async function pageFailure(error: AppError, request: { url: string; method: string }): Promise<FailureResponse> {
  if (error.code === 'UNAUTHORIZED' && !(error instanceof OAuthError)) {
    const url = new URL(request.url);
    if (request.method !== 'GET') return { kind: 'page', result: { redirect: '/_cms/sign-in', status: 303 } };
    return { kind: 'page', result: { redirect: signInPath(url.pathname + url.search), status: 302 } };
  }
  return { kind: 'page', result: { html: await layout('oauth-error', 'Cannot connect this app', html`<p role="alert">${error.message}</p>`), status: error instanceof OAuthError ? 400 : error.status } };
}
