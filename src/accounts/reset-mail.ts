/** The password reset mail: plain text, the link, how long it works, and what to do if it was not you. */
import type { Mail } from "../mail/mailer.ts";
import { RESET_PATH, RESET_TTL_MS } from "./password-reset.ts";

/** The link a reset token opens: `base` is PUBLIC_URL (or the CLI's fallback), never a request's Host. */
export function resetLink(base: string, token: string): string {
  return `${base}${RESET_PATH}?token=${encodeURIComponent(token)}`;
}

export function resetMail(to: string, link: string): Mail {
  return {
    to,
    subject: "Reset your Buckeye password",
    text: [
      "Someone, probably you, asked to reset the password of the Buckeye dashboard account for this address.",
      "",
      `To choose a new password, open this link within ${RESET_TTL_MS / 60_000} minutes. It works once:`,
      "",
      link,
      "",
      "Setting a new password signs the account out everywhere else.",
      "If you did not ask for this, ignore this mail: your password stays as it is.",
    ].join("\n"),
  };
}
