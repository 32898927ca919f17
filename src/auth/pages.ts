import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Readable } from 'node:stream';
import { html } from 'hono/html';
import type { HtmlEscapedString } from 'hono/utils/html';
import { z } from 'zod';
import { access, defineOperation } from '../core/operation.ts';
import type { ByteSource } from '../core/results.ts';
import { roleName } from '../core/roles.ts';
import { apiBasePath } from '../http/paths.ts';
import { defineRoute, type Route } from '../http/route.ts';
import { findInvitation, type Invitation } from './invitations.ts';
import { isSignInReturnPath, SignInReturnSchema } from './return-path.ts';
import { isSetupComplete } from './setup.ts';
import { isIpAddressUrl } from './webauthn.ts';

/**
 * The sign-in pages under /_cms/ (decisions/0021): server-rendered HTML with labels, headings and a
 * live status region, one small script from Folio's own origin for the WebAuthn calls, and the strict
 * page CSP (http/results.ts). The OAuth consent and device pages reuse `layout`.
 */
export const pagesBasePath = '/_cms';

const script = readFileSync(new URL('./pages/sign-in.js', import.meta.url));
const scriptSource: ByteSource = {
  contentType: 'text/javascript; charset=utf-8',
  size: script.length,
  etag: createHash('sha256').update(script).digest('base64url').slice(0, 27),
  open: (range) => Readable.from([range ? script.subarray(range.start, range.end + 1) : script]),
};
const scriptPath = `${pagesBasePath}/assets/sign-in.js`;
/** Where a person manages their passkeys and connected apps and signs out: a screen of the panel. */
export const accountScreenPath = `${pagesBasePath}/admin/account`;

const styles = `body{font:16px/1.5 system-ui,sans-serif;margin:0;background:#f6f6f4;color:#1d1d1b}
main{max-width:26rem;margin:4rem auto;padding:2rem;background:#fff;border-radius:.5rem;box-shadow:0 1px 3px #0002}
h1{font-size:1.5rem;margin-top:0}label{display:block;margin:.75rem 0 .25rem;font-weight:600}
input{width:100%;box-sizing:border-box;padding:.5rem;font:inherit;border:1px solid #888;border-radius:.25rem}
button{margin-top:1rem;padding:.5rem 1rem;font:inherit;border:0;border-radius:.25rem;background:#1d4ed8;color:#fff;cursor:pointer}
button[value=deny]{margin-left:.5rem;background:#fff;color:#1d4ed8;box-shadow:inset 0 0 0 1px #1d4ed8}
button:disabled{opacity:.6}:focus-visible{outline:3px solid #f59e0b;outline-offset:2px}
#status{min-height:1.5rem;margin-top:1rem}#status.error{color:#b91c1c}hr{margin:1.5rem 0;border:0;border-top:1px solid #ddd}
.warning{padding:.75rem;border-left:4px solid #b45309;background:#fef3c7}`;

/**
 * The shared page frame: language, title, viewport, the status region and the script. No referrer by
 * default (links carry secrets); a page whose form posts to Folio itself sends it to its own origin
 * only, or the browser would send `Origin: null` and the CSRF check would refuse the post.
 */
export async function layout(page: string, title: string, body: HtmlEscapedString | Promise<HtmlEscapedString>, referrer: 'no-referrer' | 'same-origin' = 'no-referrer'): Promise<string> {
  const document = html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="${referrer}">
<title>${title} · Folio</title>
<style>${styles}</style>
<script src="${scriptPath}" defer></script>
</head>
<body data-page="${page}">
<main>
<h1>${title}</h1>
${body}
<p id="status" role="status" aria-live="polite" tabindex="-1"></p>
</main>
</body>
</html>`;
  return String(await document);
}

const page = (name: string) => defineOperation({ name: `pages.${name}`, access: access.public, run: async () => ({}) });

/**
 * The setup page knows whether setup is complete: a stale link (a second terminal's, an old bookmark)
 * says so at once and points to sign-in, instead of showing a form that can only be refused.
 */
const setupPage = defineOperation({
  name: 'pages.setup',
  access: access.public,
  run: async (ctx, input: { secret?: string }) => ({ secret: input.secret ?? '', complete: await isSetupComplete(ctx.db), passkeysRefused: isIpAddressUrl(ctx.baseUrl) }),
});

const TokenQuery = z.object({ token: z.string().max(200).optional() });
const MagicLinkQuery = TokenQuery.extend({ return: SignInReturnSchema.optional() });

/** The mail's link page passes on where the link returns to, when that is one of Folio's pages (else the landing page). */
const magicLinkPage = defineOperation({
  name: 'pages.magicLink',
  access: access.public,
  run: async (_ctx, input: { token?: string; return?: string }) => ({
    token: input.token ?? '',
    returnTo: input.return !== undefined && isSignInReturnPath(input.return) ? input.return : undefined,
  }),
});
/** Said before the form rather than after a failed ceremony: the page's address is what passkeys depend on. */
const ipAddressWarning = html`<p class="warning">This page's address is an IP address, where browsers refuse passkeys. Open the same link with a name instead: <strong>localhost</strong> in place of 127.0.0.1 on this computer, or the server's domain name (set <code>PUBLIC_URL</code> to it).</p>
`;

const SecretQuery = z.object({ secret: z.string().max(200).optional() });

const invitationPage = defineOperation({
  name: 'pages.invitation',
  access: access.public,
  async run(ctx, input: { token?: string }): Promise<{ token: string; invitation: Invitation | undefined }> {
    const token = input.token ?? '';
    return { token, invitation: token === '' ? undefined : await findInvitation(ctx, token) };
  },
});

const scriptAsset = defineOperation({ name: 'pages.script', access: access.public, run: async (): Promise<ByteSource> => scriptSource });

const tag = 'Pages';

export const pageRoutes: Route[] = [
  defineRoute({
    method: 'get',
    path: '/sign-in',
    tag,
    summary: 'Sign-in page: a passkey, or a link by mail',
    operation: page('signIn'),
    result: {
      kind: 'html',
      render: () =>
        layout(
          'sign-in',
          'Sign in',
          html`<form id="passkey-form">
<p>Use the passkey you created on this device or your phone.</p>
<button type="submit">Sign in with a passkey</button>
</form>
<hr>
<form id="link-form">
<label for="email">Or get a sign-in link by email</label>
<input id="email" name="email" type="email" autocomplete="username webauthn" required>
<button type="submit">Email me a link</button>
</form>`,
        ),
    },
  }),
  defineRoute({
    method: 'get',
    path: '/sign-in/link',
    tag,
    summary: 'Where a sign-in mail leads: one button spends the link (a mail scanner opening it does not)',
    operation: magicLinkPage,
    query: MagicLinkQuery,
    input: ({ query }) => query,
    result: {
      kind: 'html',
      render: ({ token, returnTo }) =>
        layout(
          'magic-link',
          'Sign in',
          html`<form method="get" action="${apiBasePath}/auth/magic-link/verify">
<p>Continue to sign in to Folio in this browser.</p>
<input type="hidden" name="token" value="${token}">
${returnTo === undefined ? '' : html`<input type="hidden" name="return" value="${returnTo}">`}
<button type="submit">Sign in</button>
</form>`,
        ),
    },
  }),
  defineRoute({
    method: 'get',
    path: '/setup',
    tag,
    summary: 'Setup page: the first admin, from the link the server printed at start',
    operation: setupPage,
    query: SecretQuery,
    input: ({ query }) => query,
    result: {
      kind: 'html',
      render: ({ secret, complete, passkeysRefused }) =>
        complete
          ? layout(
              'setup-complete',
              'Folio is set up',
              html`<p>Setup is complete: the first administrator exists, so this setup link no longer works.</p>
<p><a href="${pagesBasePath}/sign-in">Sign in</a> instead, or ask an administrator to invite you.</p>`,
            )
          : layout(
              'setup',
              'Set up Folio',
              html`${passkeysRefused ? ipAddressWarning : ''}<p>Create the first administrator with a passkey your browser creates to sign in with.</p>
<form id="setup-form">
<input type="hidden" name="secret" value="${secret}">
<label for="name">Your name</label>
<input id="name" name="name" autocomplete="name" required maxlength="200">
<label for="email">Your email</label>
<input id="email" name="email" type="email" autocomplete="email" required>
<button type="submit">Create account and passkey</button>
</form>`,
            ),
    },
  }),
  defineRoute({
    method: 'get',
    path: '/invitation',
    tag,
    summary: 'Invitation page: the invited person names themself and creates a passkey',
    operation: invitationPage,
    query: TokenQuery,
    input: ({ query }) => query,
    result: {
      kind: 'html',
      render: ({ token, invitation }) =>
        layout(
          'invitation',
          'Join Folio',
          invitation === undefined
            ? html`<p>This invitation is invalid, expired or already used. Ask whoever invited you for a new one.</p>`
            : html`<p>You are invited as <strong>${roleName(invitation.role)}</strong> with the address <strong>${invitation.email}</strong>.</p>
<form id="invitation-form">
<input type="hidden" name="token" value="${token}">
<label for="name">Your name</label>
<input id="name" name="name" autocomplete="name" required maxlength="200">
<button type="submit">Join and create a passkey</button>
</form>
<p>Without a passkey you can still sign in with a link by email.</p>`,
        ),
    },
  }),
  defineRoute({
    method: 'get',
    path: '/',
    tag,
    summary: "The account page's old address: the panel's account screen (passkeys, connected apps, sign out)",
    operation: page('account'),
    // One account screen, the panel's (decisions/0048); bookmarks and links to /_cms/ still arrive there.
    result: { kind: 'redirect', location: () => accountScreenPath, status: 302 },
  }),
  defineRoute({
    method: 'get',
    path: '/assets/sign-in.js',
    tag,
    summary: 'The script of the sign-in pages',
    operation: scriptAsset,
    result: { kind: 'bytes', source: (source) => source, cacheControl: 'no-cache' },
  }),
];
