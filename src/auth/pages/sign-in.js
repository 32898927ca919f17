// Folio's sign-in pages (src/auth/pages.ts): the browser half of passkeys, setup and invitations
// (the account's passkeys and connected apps are the panel's account screen, decisions/0048).
// Served from Folio's own origin (CSP script-src 'self'); no framework, no build step.
'use strict';

const api = '/_cms/api';

/** Calls the API; resolves to the envelope's data, or throws its error message. */
async function call(method, path, body) {
  const response = await fetch(api + path, {
    method,
    credentials: 'same-origin',
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = await response.json().catch(() => null);
  if (!response.ok || !json || json.success === false) throw new Error((json && json.error && json.error.message) || `${response.status} ${response.statusText}`);
  return json.data;
}

/** Says something to the person, where a screen reader announces it too (role=status, aria-live). */
function say(message, isError) {
  const status = document.getElementById('status');
  status.textContent = message;
  status.classList.toggle('error', Boolean(isError));
  if (isError) status.focus();
}

function supportsPasskeys() {
  return typeof PublicKeyCredential !== 'undefined' && typeof PublicKeyCredential.parseCreationOptionsFromJSON === 'function';
}

async function registerPasskey(name) {
  const options = await call('POST', '/auth/passkey/register/options');
  const credential = await navigator.credentials.create({ publicKey: PublicKeyCredential.parseCreationOptionsFromJSON(options) });
  return call('POST', '/auth/passkey/register/verify', { ...credential.toJSON(), ...(name ? { name } : {}) });
}

async function signInWithPasskey() {
  const options = await call('POST', '/auth/passkey/options');
  const credential = await navigator.credentials.get({ publicKey: PublicKeyCredential.parseRequestOptionsFromJSON(options) });
  await call('POST', '/auth/passkey/verify', credential.toJSON());
}

/** Runs a form's work with its button disabled, saying what failed. */
function onSubmit(form, work) {
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const button = form.querySelector('button[type=submit]');
    if (button) button.disabled = true;
    try {
      await work(new FormData(form));
    } catch (error) {
      say(error.message || String(error), true);
    } finally {
      if (button) button.disabled = false;
    }
  });
}

/** Where a signed-in browser lands when it came from nowhere in particular: the panel (landingPath in src/auth/return-path.ts). */
const landing = '/_cms/admin/';

/**
 * Where sign-in goes on to: the page that sent the person here (a screen of the panel, an OAuth
 * consent), if it is one of Folio's own. The server checks the same for the return a mailed link
 * carries (src/auth/return-path.ts).
 */
function afterSignIn() {
  const back = new URLSearchParams(location.search).get('return');
  if (!back || !back.startsWith('/_cms/') || /[\\\s\p{Cc}]/u.test(back)) return landing;
  const resolved = new URL(back, location.origin);
  return resolved.origin === location.origin && resolved.pathname.startsWith('/_cms/') ? back : landing;
}

const pages = {
  'sign-in'() {
    onSubmit(document.getElementById('passkey-form'), async () => {
      if (!supportsPasskeys()) throw new Error('This browser cannot use passkeys: ask for a sign-in link instead.');
      await signInWithPasskey();
      location.assign(afterSignIn());
    });
    onSubmit(document.getElementById('link-form'), async (data) => {
      // The mailed link brings the person back where a passkey sign-in would (an OAuth consent).
      const back = afterSignIn();
      await call('POST', '/auth/magic-link/send', { email: data.get('email'), ...(back === landing ? {} : { return: back }) });
      say('If an account uses this address, a sign-in link is on its way. It works once, for 15 minutes.');
    });
  },
  setup() {
    onSubmit(document.getElementById('setup-form'), async (data) => {
      if (!supportsPasskeys()) throw new Error('This browser cannot create passkeys: open this link in another browser, or create the admin with folio admin create.');
      const account = { secret: data.get('secret'), name: data.get('name'), email: data.get('email') };
      // The account is created only with a passkey the server has verified (decisions/0011):
      // if the browser refuses or the person cancels, nothing exists yet and this form works again.
      const options = await call('POST', '/setup/admin/options', account);
      say('Now create your passkey.');
      let credential;
      try {
        credential = await navigator.credentials.create({ publicKey: PublicKeyCredential.parseCreationOptionsFromJSON(options) });
      } catch (error) {
        throw new Error(`No passkey was created (${error.message || error.name}), so no account either: this link still works, try again.`, { cause: error });
      }
      await call('POST', '/setup/admin', { ...account, passkey: credential.toJSON() });
      location.assign(landing);
    });
  },
  invitation() {
    onSubmit(document.getElementById('invitation-form'), async (data) => {
      await call('POST', '/auth/invitation/accept', { token: data.get('token'), name: data.get('name') });
      if (!supportsPasskeys()) {
        location.assign(landing);
        return;
      }
      say('Your account is ready. Now create your passkey.');
      await registerPasskey('First passkey');
      location.assign(landing);
    });
  },
};

const run = pages[document.body.dataset.page];
if (run) Promise.resolve(run()).catch((error) => say(error.message || String(error), true));
