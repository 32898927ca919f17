import type { Mail, Mailer } from '../../src/auth/mail.ts';

/** A mailer that holds each delivery until the test runs it, so a test sees what a response did without it. */
export function heldMailer() {
  const held: (() => Promise<Mail | undefined>)[] = [];
  const mailer: Mailer = {
    delivers: true,
    deliverLater: (compose) => void held.push(compose),
    idle: async () => undefined,
    close: () => undefined,
  };
  return {
    mailer,
    /** How many deliveries wait. */
    held: () => held.length,
    /** Runs the deliveries held so far, in order, giving the mail each would send (undefined: none). */
    release: async () => {
      const mails: (Mail | undefined)[] = [];
      for (const compose of held.splice(0)) mails.push(await compose());
      return mails;
    },
  };
}
