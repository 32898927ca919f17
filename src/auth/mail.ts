import type { Transporter } from 'nodemailer';
import type { Logger } from 'pino';
import type { Config } from '../config.ts';

declare module '../core/context.ts' {
  interface ContextServices {
    /** How mail goes out; absent outside the server, where one is made from the config. */
    mailer?: Mailer;
  }
}

/** A sign-in mail: one link, said in a sentence or two. */
export interface Mail {
  to: string;
  subject: string;
  text: string;
  /** The link the mail carries, logged instead when no SMTP server is configured. */
  link: string;
}

/**
 * Mail leaves off the response path: `deliverLater` takes the work that decides whether there is a
 * mail at all (looking the address up, storing a link) and runs it after the response, so an answer
 * cannot tell by its content or its timing whether an address is known (DECISIONS §6).
 */
export interface Mailer {
  /** Whether mail really goes out (SMTP configured), or links only reach the log. */
  readonly delivers: boolean;
  deliverLater(compose: () => Promise<Mail | undefined>): void;
  /** Resolves once every delivery handed over so far is done (shutdown waits for it). */
  idle(): Promise<void>;
  close(): void;
}

/** How one mail is sent; the rest of a mailer is the same whatever the transport. */
export type SendMail = (mail: Mail) => Promise<void>;

/**
 * SMTP through nodemailer when configured. Without it, a development convenience: the link is logged
 * at warn, so a local installation can sign in with no mail server (the server says so at start).
 */
export function createMailer(config: Pick<Config, 'smtp'>, log: Logger): Mailer {
  const smtp = config.smtp;
  if (!smtp) {
    return deferredMailer(false, log, async (mail) => {
      log.warn({ to: mail.to, link: mail.link }, `no SMTP server configured (SMTP_URL): "${mail.subject}" not sent; its link is ${mail.link}`);
    });
  }
  // nodemailer (some 25 MB once loaded) comes in with the first mail.
  let transport: Promise<Transporter> | undefined;
  const mailer = deferredMailer(true, log, async (mail) => {
    transport ??= import('nodemailer').then(({ default: nodemailer }) => nodemailer.createTransport(smtp.transport));
    await (await transport).sendMail({ from: smtp.from, to: mail.to, subject: mail.subject, text: mail.text });
  });
  return { ...mailer, close: () => void transport?.then((opened) => opened.close()) };
}

/** Runs each delivery after the current response is on its way; a failure is logged, never thrown at a caller. */
export function deferredMailer(delivers: boolean, log: Logger, send: SendMail): Mailer {
  const pending = new Set<Promise<void>>();
  return {
    delivers,
    deliverLater(compose) {
      const delivery = new Promise<void>((resolve) => setImmediate(resolve))
        .then(compose)
        .then((mail) => (mail ? send(mail) : undefined))
        .catch((error: unknown) => log.error({ err: error }, 'sign-in mail failed'))
        .finally(() => pending.delete(delivery));
      pending.add(delivery);
    },
    async idle() {
      while (pending.size > 0) await Promise.all(pending);
    },
    close() {},
  };
}
