// @ts-check
/**
 * What `npm start` runs (after src/require-supported-node.js), so that it works after either install
 * docs/guides/setup.md names. With TypeScript installed (`npm ci`) it compiles the sources into `dist/`
 * and serves the compiled build, the lighter one. A production install (`npm ci --omit=dev`) has no
 * TypeScript: it then serves a `dist/` shipped with the checkout (`npm run build` before pruning), or
 * else the sources through tsx, which is a dependency, and says which in one line.
 * Plain JavaScript: it must run before anything is compiled.
 */
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const compiled = `${root}dist/src/cli.js`;

/** @returns {string | undefined} */
function typescriptCompiler() {
  try {
    return createRequire(`${root}package.json`).resolve("typescript/bin/tsc");
  } catch {
    return undefined;
  }
}

const tsc = typescriptCompiler();
if (tsc) {
  execFileSync(process.execPath, [tsc, "-p", `${root}tsconfig.build.json`], { stdio: "inherit" });
  await import(pathToFileURL(compiled).href);
} else if (existsSync(compiled)) {
  process.stderr.write("npm start: TypeScript is not installed (a production install); serving the build already in dist/\n");
  await import(pathToFileURL(compiled).href);
} else {
  process.stderr.write("npm start: TypeScript is not installed (a production install) and there is no dist/; serving the sources through tsx\n");
  const { register } = await import("tsx/esm/api");
  register();
  await import(pathToFileURL(`${root}src/cli.ts`).href);
}
