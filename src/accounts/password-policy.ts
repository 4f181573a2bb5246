/**
 * Which new passwords are accepted, after NIST SP 800-63B (§3.1.1.2): at least 12 characters,
 * each Unicode code point counting as one (so an emoji or an accented letter is one character,
 * not two UTF-16 units); no composition rules (no "one digit, one symbol"); and a password that is
 * common, found in breach corpora, a keyboard walk or repetition, or built from the account's own
 * email or organization name is refused. That last check is zxcvbn-ts with its common (breached
 * passwords, names) and English dictionaries: a password it rates below 3 of 4 (about 10^8
 * guesses) is refused, with its feedback as the message.
 */
import type { ZxcvbnFactory } from "@zxcvbn-ts/core";

export const MIN_PASSWORD_LENGTH = 12;
/** Long passphrases are welcome (NIST asks for at least 64); this only bounds the work per check. */
export const MAX_PASSWORD_LENGTH = 200;
const MIN_SCORE = 3;

// The dictionaries weigh about 12 MB of heap once parsed and take a second or so to build: they are
// imported at the first check (a sign-up or a password change), so a server that only answers
// lookups never holds them.
let estimator: Promise<ZxcvbnFactory> | undefined;
function strength(): Promise<ZxcvbnFactory> {
  estimator ??= (async () => {
    const [{ ZxcvbnFactory }, common, english] = await Promise.all([
      import("@zxcvbn-ts/core"),
      import("@zxcvbn-ts/language-common"),
      import("@zxcvbn-ts/language-en"),
    ]);
    return new ZxcvbnFactory({
      translations: english.translations,
      graphs: common.adjacencyGraphs,
      dictionary: { ...common.dictionary, ...english.dictionary },
    });
  })();
  return estimator;
}

/** Why a new password is refused, or null when it is acceptable. `context` holds the account's own words (email, organization name). */
export async function passwordProblem(password: string, context: readonly string[] = []): Promise<string | null> {
  const length = [...password.normalize("NFKC")].length;
  if (length < MIN_PASSWORD_LENGTH) return `Use at least ${MIN_PASSWORD_LENGTH} characters.`;
  if (length > MAX_PASSWORD_LENGTH) return `Use at most ${MAX_PASSWORD_LENGTH} characters.`;
  const texts = context.map((text) => text.toLowerCase());
  const words = texts.flatMap((text) => text.split(/[^\p{L}\p{N}]+/u)).filter((word) => word.length >= 3);
  const joined = texts.map((text) => text.replace(/[^\p{L}\p{N}]+/gu, ""));
  const result = (await strength()).check(password, ["buckeye", ...texts, ...joined, ...words]);
  if (result.score >= MIN_SCORE) return null;
  const personal = result.sequence.some((match) => "dictionaryName" in match && match.dictionaryName === "userInputs");
  const why = personal ? "Do not build it from your email address or organization name." : (result.feedback.warning ?? "This password is too easy to guess.");
  return `${why.replace(/\.?$/, ".")} Choose a longer passphrase of a few uncommon words; no digits or symbols are required.`;
}
