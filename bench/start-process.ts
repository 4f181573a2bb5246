/** Starts a server process for a benchmark and resolves with it once it prints its URL. */
import { spawn, type ChildProcess } from "node:child_process";

export const root = new URL("..", import.meta.url).pathname;

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
