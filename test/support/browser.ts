import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

/** Debian's chromium driven by playwright-core; `localhost` reaches the test servers on 127.0.0.1 (WebAuthn needs a name, not an address). */
export async function launchChromium(): Promise<Browser> {
  const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  return chromium.launch({ executablePath, headless: true, args: ['--no-sandbox', '--host-resolver-rules=MAP localhost 127.0.0.1'] });
}

/** A browser profile of its own (cookies) with a page holding a virtual platform authenticator (Chrome DevTools Protocol). */
export async function deviceWithPasskeys(browser: Browser): Promise<{ context: BrowserContext; page: Page; swapAuthenticator: () => Promise<void> }> {
  const context = await browser.newContext();
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const add = async (transport: 'internal' | 'usb') =>
    (
      await cdp.send('WebAuthn.addVirtualAuthenticator', {
        options: { protocol: 'ctap2', transport, hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
      })
    ).authenticatorId;
  let authenticatorId = await add('internal');
  return {
    context,
    page,
    // Another device (a security key) in place of the first: one authenticator cannot hold two
    // passkeys of one account, since registration excludes the credentials already registered.
    swapAuthenticator: async () => {
      await cdp.send('WebAuthn.removeVirtualAuthenticator', { authenticatorId });
      authenticatorId = await add('usb');
    },
  };
}
