/**
 * `buckeye serve` as a real child process, for tests about processes: several instances, signals,
 * crashes, another runtime. Resolves once the process prints its "listening" line; keeps every
 * JSON log line it writes to stderr.
 */
import { spawn, type ChildProcess } from "node:child_process";

export const BIN = new URL("../bin/buckeye.js", import.meta.url).pathname;
export const ROOT = new URL("..", import.meta.url).pathname;

/**
 * PostgreSQL for tests that need it in every run of the suite (several instances on one database;
 * the Deno smoke test's PostgreSQL half): TEST_DATABASE_URL when that is a postgres:// URL, else
 * the local one .ci/start-services.sh starts.
 */
export const POSTGRES_URL = /^postgres(ql)?:\/\//.test(process.env.TEST_DATABASE_URL ?? "")
  ? process.env.TEST_DATABASE_URL!
  : "postgres://postgres@127.0.0.1:5432/test";

export interface ServeProcess {
  child: ChildProcess;
  url: string;
  /** Parsed JSON lines from stderr, in order. */
  logs: Array<Record<string, unknown>>;
  /** Resolves with the exit code (null when killed by a signal) once the process has exited. */
  exited: Promise<number | null>;
}

export interface ServeOptions {
  env: Record<string, string>;
  /** The command and its arguments before `serve`; by default this Node running bin/buckeye.js. */
  command?: [string, ...string[]];
  startTimeoutMs?: number;
}

export async function startServe(options: ServeOptions): Promise<ServeProcess> {
  const [file, ...args] = options.command ?? [process.execPath, BIN];
  const child = spawn(file, [...args, "serve"], {
    cwd: ROOT,
    env: { ...process.env, PORT: "0", HOST: "127.0.0.1", ...options.env },
    stdio: ["ignore", "ignore", "pipe"],
  });
  const logs: Array<Record<string, unknown>> = [];
  let raw = "";
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not start within ${options.startTimeoutMs ?? 60_000} ms: ${raw}`)), options.startTimeoutMs ?? 60_000);
    let pending = "";
    child.stderr!.on("data", (chunk: Buffer) => {
      raw += chunk;
      pending += chunk;
      const lines = pending.split("\n");
      pending = lines.pop()!;
      for (const line of lines) {
        try {
          const entry = JSON.parse(line) as Record<string, unknown>;
          logs.push(entry);
          if (entry.msg === "listening" && typeof entry.url === "string") {
            clearTimeout(timer);
            resolve(entry.url);
          }
        } catch {
          // Not JSON: a runtime's own warning; kept in `raw` for the start-up error message.
        }
      }
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`serve exited with ${code} before listening: ${raw}`));
    });
  });
  return { child, url, logs, exited };
}
