import nodemailer from 'nodemailer';
import type { Logger } from 'pino';
import type { Config } from '../config.ts';

/** A sign-in mail: one link, said in a sentence or two. */
export interface Mail {
  to: string;
  subject: string;
  text: string;
  /** The link the mail carries, logged instead when no SMTP server is configured. */
  link: string;
}

export interface Mailer {
  /** Whether mail really goes out (SMTP configured), or links only reach the log. */
  readonly delivers: boolean;
  send(mail: Mail): Promise<void>;
  close(): void;
}

/**
 * SMTP through nodemailer when configured. Without it, a development convenience: the link is logged
 * at warn, so a local installation can sign in with no mail server (the server says so at start).
 */
export function createMailer(config: Pick<Config, 'smtp'>, log: Logger): Mailer {
  const smtp = config.smtp;
  if (!smtp) {
    return {
      delivers: false,
      async send(mail) {
        log.warn({ to: mail.to, link: mail.link }, `no SMTP server configured (SMTP_URL): "${mail.subject}" not sent; its link is ${mail.link}`);
      },
      close() {},
    };
  }
  const transport = nodemailer.createTransport(smtp.transport);
  return {
    delivers: true,
    async send(mail) {
      await transport.sendMail({ from: smtp.from, to: mail.to, subject: mail.subject, text: mail.text });
    },
    close() {
      transport.close();
    },
  };
}
