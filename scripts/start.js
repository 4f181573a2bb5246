// @ts-check
/**
 * What `npm start` runs (after src/require-supported-node.js), so that it works after either install
 * docs/guides/setup.md names. With TypeScript installed (`npm ci`) it compiles the sources into `dist/`,
 * bundles the compiled server into `dist/bundle/` (scripts/bundle-server.js) and serves the bundle, the
 * lightest. A production install (`npm ci --omit=dev`) has no TypeScript: it then serves a `dist/` shipped
 * with the checkout (`npm run build` before pruning) when that build is newer than every source (its
 * bundle when the bundle was made from it, else the compiled modules), or else the sources through tsx,
 * which is a dependency, and says which and why in one line. Plain JavaScript: it must run before
 * anything is compiled.
 */
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { COMPILED_CLI, ROOT, SERVER_BUNDLE, bundleIsCurrent, compiledBuild, typescriptCompiler } from "./compiled-build.js";

const say = (/** @type {string} */ line) => process.stderr.write(`npm start: ${line}\n`);

async function serveSources() {
  const { register } = await import("tsx/esm/api");
  register();
  await import(pathToFileURL(join(ROOT, "src", "cli.ts")).href);
}

const tsc = typescriptCompiler();
if (tsc) {
  try {
    execFileSync(process.execPath, [tsc, "-p", join(ROOT, "tsconfig.build.json")], { stdio: "inherit" });
  } catch {
    say("the TypeScript compiler reported the errors above; fix them and start again");
    process.exit(1);
  }
  // In a process of its own, like the compiler: esbuild's service would otherwise live on beside the server.
  try {
    execFileSync(process.execPath, [join(ROOT, "scripts", "bundle-server.js")], { stdio: "inherit" });
  } catch {
    say("esbuild could not bundle the compiled server (scripts/bundle-server.js; its errors are above)");
    process.exit(1);
  }
  await import(pathToFileURL(SERVER_BUNDLE).href);
} else {
  const build = compiledBuild();
  if (build.state === "current" && bundleIsCurrent()) {
    say("TypeScript is not installed (a production install); serving the bundled build already in dist/bundle/");
    await import(pathToFileURL(SERVER_BUNDLE).href);
  } else if (build.state === "current") {
    say("TypeScript is not installed (a production install); serving the build already in dist/, which is not bundled (`npm run build` where TypeScript is installed bundles it, for less memory)");
    await import(pathToFileURL(COMPILED_CLI).href);
  } else if (build.state === "stale") {
    say(`TypeScript is not installed (a production install) and dist/ is older than ${build.newer}; serving the sources through tsx (run \`npm run build\` where TypeScript is installed to refresh dist/)`);
    await serveSources();
  } else {
    say("TypeScript is not installed (a production install) and there is no dist/; serving the sources through tsx");
    await serveSources();
  }
}
