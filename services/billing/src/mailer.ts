/**
 * Outgoing mail: nodemailer over SMTP (SMTP_URL, e.g. smtp://user:pass@mail.example.com:587). Without SMTP_URL (the
 * embedded default) the message is written to the server log instead, and the start-up says so: a developer can
 * sign in locally, and no deployment sends codes into a log by accident without being told.
 */
import nodemailer from 'nodemailer';
import type { Logger } from '@ephemera/platform';

export interface Mail {
  to: string;
  subject: string;
  text: string;
}
export interface Mailer {
  send(mail: Mail): Promise<void>;
  readonly kind: 'smtp' | 'log';
}

export function createMailer(opts: { smtpUrl?: string; from: string; logger: Logger }): Mailer {
  if (!opts.smtpUrl) {
    opts.logger.warn(
      'SMTP_URL is not set: sign-in codes and account e-mails are printed to this log instead of being sent',
    );
    return {
      kind: 'log',
      async send(mail) {
        opts.logger.warn({ mailTo: mail.to, subject: mail.subject }, `e-mail not sent (no SMTP_URL): ${mail.text}`);
      },
    };
  }
  const transport = nodemailer.createTransport(opts.smtpUrl);
  return {
    kind: 'smtp',
    async send(mail) {
      await transport.sendMail({ from: opts.from, to: mail.to, subject: mail.subject, text: mail.text });
    },
  };
}
