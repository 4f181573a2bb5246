/**
 * Prism (@stoplight/prism-cli) as a validating proxy in front of a running Buckeye: every request
 * is forwarded unchanged, and Prism lists in the `sl-violations` header each way the request or
 * the real response departs from the OpenAPI document (an undocumented status, a body or a
 * required header that does not match its schema, a media type the operation does not name).
 * It runs offline, as its own process, on a document file.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { freePort } from "./_http.ts";
import { join } from "node:path";
import { REPO_ROOT } from "../src/config.ts";

export interface Violation {
  location: string[];
  severity: string;
  code?: string | number;
  message: string;
}

export interface PrismProxy {
  url: string;
  close(): Promise<void>;
}

export async function startPrismProxy(documentPath: string, upstream: string): Promise<PrismProxy> {
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, [join(REPO_ROOT, "node_modules/@stoplight/prism-cli/dist/index.js"), "proxy", documentPath, upstream, "--host", "127.0.0.1", "--port", String(port)], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`Prism did not start in 60 s:\n${output}`)), 60_000);
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes("Prism is listening")) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on("data", read);
    child.stderr!.on("data", read);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`Prism exited with ${code}:\n${output}`));
    });
  });
  // Its request log is not needed once it listens; keep the pipes drained.
  child.stdout!.resume();
  child.stderr!.resume();
  return {
    url: `http://127.0.0.1:${port}`,
    close: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await exited;
    },
  };
}

/** The violations Prism reported for one exchange. */
export function violationsOf(res: Response): Violation[] {
  const header = res.headers.get("sl-violations");
  return header ? (JSON.parse(header) as Violation[]) : [];
}
