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

/** The rule as forms state it beside a new password's field (and docs/guides/dashboard.md, "Passwords"). */
export const PASSWORD_RULE = `At least ${MIN_PASSWORD_LENGTH} characters, not built from your email or organization name, no word repeated; common or easily guessed passwords are refused. A passphrase of a few uncommon words works well.`;

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

/**
 * The account's own words, as zxcvbn user inputs: each text whole, its words (three letters or
 * more), adjacent words run together ("acmehardware") and all of them run together; the email
 * gives its local part's words and its domain's labels the same way.
 */
export function accountWords(context: readonly string[]): string[] {
  const out = new Set<string>();
  for (const text of context.map((t) => t.toLowerCase().trim()).filter(Boolean)) {
    out.add(text);
    const words = text.split(/[^\p{L}\p{N}]+/u).filter(Boolean);
    out.add(words.join(""));
    for (let i = 0; i < words.length; i++) {
      if (words[i]!.length >= 3) out.add(words[i]!);
      if (i + 1 < words.length) out.add(words[i]! + words[i + 1]!);
    }
  }
  return [...out].filter((word) => [...word].length >= 3);
}

/** The password with every account word taken out (longest first), and separators with them. */
function withoutAccountWords(password: string, words: readonly string[]): string {
  let rest = password.toLowerCase();
  for (const word of [...words].sort((a, b) => b.length - a.length)) rest = rest.split(word).join(" ");
  return rest.replace(/[^\p{L}\p{N}]+/gu, " ").trim();
}

/** One word or group said again and again ("betaco betaco betaco"), separators aside. */
function isRepetition(password: string): boolean {
  const letters = password.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, "");
  return letters.length > 0 && /^(.+?)\1+$/u.test(letters);
}

const ADVICE = "Choose a longer passphrase of a few uncommon words; no digits or symbols are required.";

/**
 * Why a new password is refused, or null when it is acceptable. `context` holds the account's own
 * words (email, organization name). Three checks: zxcvbn's score with those words as user inputs;
 * a word or group repeated; and what is left once the account's words are taken out must score on
 * its own, since zxcvbn multiplies the guesses of a few known parts ("acme" + "hardware" + "123")
 * up to a passing score.
 */
export async function passwordProblem(password: string, context: readonly string[] = []): Promise<string | null> {
  const length = [...password.normalize("NFKC")].length;
  if (length < MIN_PASSWORD_LENGTH) return `Use at least ${MIN_PASSWORD_LENGTH} characters.`;
  if (length > MAX_PASSWORD_LENGTH) return `Use at most ${MAX_PASSWORD_LENGTH} characters.`;
  const words = accountWords(context);
  const zxcvbn = await strength();
  const result = zxcvbn.check(password, ["buckeye", ...words]);
  if (result.score < MIN_SCORE) {
    const personal = result.sequence.some((match) => "dictionaryName" in match && match.dictionaryName === "userInputs");
    const why = personal ? "Do not build it from your email address or organization name." : (result.feedback.warning ?? "This password is too easy to guess.");
    return `${why.replace(/\.?$/, ".")} ${ADVICE}`;
  }
  if (isRepetition(password)) return `Do not repeat one word or group of characters. ${ADVICE}`;
  const rest = withoutAccountWords(password, words);
  if (rest !== password.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, " ").trim() && zxcvbn.check(rest, ["buckeye"]).score < MIN_SCORE) {
    return `Do not build it from your email address or organization name. ${ADVICE}`;
  }
  return null;
}
