/**
 * FAKE UPSTREAM: a local SMTP server standing in for the operator's mail server (SMTP_URL), on
 * 127.0.0.1 with a free port, from the `smtp-server` package. It accepts every message without
 * authentication or TLS and keeps it (recipients, headers, the decoded text body), so a test can
 * read the mail Buckeye sent and follow its link.
 */
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";

export interface CapturedMail {
  to: string[];
  subject: string;
  text: string;
}

export interface FakeSmtp {
  /** SMTP_URL for the service under test. */
  readonly url: string;
  readonly mails: CapturedMail[];
  /** Waits until `count` mails have arrived (or fails after `timeoutMs`). */
  waitForMails(count: number, timeoutMs?: number): Promise<CapturedMail[]>;
  close(): Promise<void>;
}

function decodeQuotedPrintable(body: string): string {
  return body.replace(/=\r?\n/g, "").replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

/** The headers and the text of a single-part plain text message, as nodemailer writes one. */
function parse(raw: string, to: string[]): CapturedMail {
  const split = raw.indexOf("\r\n\r\n");
  const head = raw.slice(0, split).replace(/\r\n[ \t]+/g, " ");
  const header = (name: string) => new RegExp(`^${name}:\\s*(.*)$`, "im").exec(head)?.[1]?.trim() ?? "";
  const body = raw.slice(split + 4);
  const encoding = header("Content-Transfer-Encoding").toLowerCase();
  const text = encoding === "quoted-printable" ? decodeQuotedPrintable(body) : encoding === "base64" ? Buffer.from(body, "base64").toString("utf8") : body;
  return { to, subject: header("Subject"), text: text.replace(/\r\n/g, "\n") };
}

export async function startFakeSmtp(): Promise<FakeSmtp> {
  const mails: CapturedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        mails.push(parse(Buffer.concat(chunks).toString("utf8"), session.envelope.rcptTo.map((r) => r.address)));
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    async waitForMails(count, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (mails.length < count) {
        if (Date.now() > deadline) throw new Error(`expected ${count} mails, got ${mails.length}`);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      return mails;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
