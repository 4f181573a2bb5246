#!/usr/bin/env node
// The operator CLI. It runs the compiled build in dist/ when that build is newer than every source
// (scripts/compiled-build.js): a command then starts in a fraction of the time the sources take through
// tsx. Otherwise (no build, or sources edited since) it runs the TypeScript sources through tsx's loader,
// so that `npx buckeye` works straight after `npm ci`, with no build step, and never runs code older than
// the checkout's. The version check runs first and tsx loads only after it, so an unsupported Node (or a
// clone without node_modules on one) gets the message that says how to get a supported Node, not a
// missing-package error.
import "../src/require-supported-node.js";
import { pathToFileURL } from "node:url";

// Imported only once the version check has passed: a static import is resolved before any module runs.
const { COMPILED_CLI, compiledBuild } = await import("../scripts/compiled-build.js");

if (compiledBuild().state === "current") {
  await import(pathToFileURL(COMPILED_CLI).href);
} else {
  const { register } = await import("tsx/esm/api");
  register();
  await import("../src/cli.ts");
}
