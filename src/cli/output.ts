/**
 * What every command shares: the --json option, how a result is printed (a human summary, or one
 * JSON document for scripts), and how a command refuses. src/cli.ts prints a CliError's message
 * and exits 1.
 */
import { Option } from "commander";

/** A refusal the operator can act on: printed as its message alone, exit status 1. */
export class CliError extends Error {}

export const jsonOption = () => new Option("--json", "print one JSON document");

/** Prints the summary, or with --json the document; a command that failed sets exit status 1. */
export function print(json: boolean | undefined, value: unknown, text: string, failed = false): void {
  process.stdout.write(json ? `${JSON.stringify(value, null, 2)}\n` : `${text}\n`);
  if (failed) process.exitCode = 1;
}

/** For the commands whose output is a file or a log (`batch`, `data fetch-geo`): the reason on stderr, exit status 1. */
export function fail(message: string): void {
  process.stderr.write(`buckeye: ${message}\n`);
  process.exitCode = 1;
}
