/** Starts a server process for a benchmark and resolves with it once it prints its URL. */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";

export const root = new URL("..", import.meta.url).pathname;

/** Builds what `npm start` runs (dist/), so a benchmark never measures a stale build. */
export function buildCompiled(): void {
  execFileSync(process.execPath, ["node_modules/typescript/bin/tsc", "-p", "tsconfig.build.json"], { cwd: root, stdio: "inherit" });
}

/**
 * The node arguments `npm start` runs the compiled server with, read from package.json's `start`
 * script, so a benchmark measures the server as operators start it (its V8 flags included).
 */
export function compiledServeArgs(): string[] {
  const start: string = JSON.parse(readFileSync(new URL("package.json", `file://${root}`), "utf8")).scripts.start;
  const command = /\bnode ((?:--\S+ )*)(dist\/src\/cli\.js serve)\b/.exec(start);
  if (!command) throw new Error(`package.json's start script does not run "node [flags] dist/src/cli.js serve": ${start}`);
  return [...command[1]!.trim().split(" ").filter(Boolean), ...command[2]!.split(" ")];
}

export function startProcess(args: string[], env: NodeJS.ProcessEnv, urlPattern: RegExp): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, args, { cwd: root, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
  return new Promise((resolve, reject) => {
    let out = "";
    const onData = (chunk: Buffer) => {
      out += chunk;
      const match = urlPattern.exec(out);
      if (match) resolve({ child, url: match[1]! });
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", onData);
    child.once("exit", (code) => reject(new Error(`process exited with ${code}: ${out}`)));
  });
}
