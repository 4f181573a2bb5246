/**
 * Outgoing mail over the operator's SMTP server (SMTP_URL, MAIL_FROM), with nodemailer: the few
 * messages Buckeye sends (password reset links) are plain text. `smtp://` upgrades with STARTTLS
 * when the server offers it; `smtps://` is TLS from the start.
 */
import { createTransport } from "nodemailer";

export interface Mail {
  to: string;
  subject: string;
  text: string;
}

export interface Mailer {
  send(mail: Mail): Promise<void>;
  close(): void;
}

export function smtpMailer(settings: Readonly<{ smtpUrl: string; from: string }>): Mailer {
  const transport = createTransport(settings.smtpUrl);
  return {
    async send(mail) {
      await transport.sendMail({ from: settings.from, to: mail.to, subject: mail.subject, text: mail.text });
    },
    close: () => transport.close(),
  };
}
