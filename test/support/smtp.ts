import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  to: string[];
  /** The whole message, headers and body, with quoted-printable soft breaks and escapes undone. */
  text: string;
  /** The first http(s) link in the body. */
  link: string;
}

export interface SmtpSink {
  /** SMTP_URL for Folio's config. */
  url: string;
  /** The next mail to arrive (or one that already did and was not taken yet). */
  next(): Promise<ReceivedMail>;
  /** Mails that arrived and were not taken. */
  waiting(): number;
  close(): Promise<void>;
}

/** A real SMTP server on a free port that keeps what it receives: the test's mailbox. */
export async function startSmtpSink(): Promise<SmtpSink> {
  const received: ReceivedMail[] = [];
  const waiters: ((mail: ReceivedMail) => void)[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const text = decodeQuotedPrintable(Buffer.concat(chunks).toString('utf8'));
        const mail = { to: session.envelope.rcptTo.map((address) => address.address), text, link: /https?:\/\/\S+/.exec(text.split(/\r?\n\r?\n/).slice(1).join('\n'))?.[0] ?? '' };
        const waiter = waiters.shift();
        if (waiter) waiter(mail);
        else received.push(mail);
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    next: () => {
      const mail = received.shift();
      return mail ? Promise.resolve(mail) : new Promise((resolve) => waiters.push(resolve));
    },
    waiting: () => received.length,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

function decodeQuotedPrintable(text: string): string {
  return text.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}
