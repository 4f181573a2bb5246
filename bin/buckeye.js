#!/usr/bin/env node
// The operator CLI. The sources are TypeScript, run through tsx's loader so that `npx buckeye`
// works straight after `npm ci`, with no build step. The version check runs first and tsx loads
// only after it, so an unsupported Node (or a clone without node_modules on one) gets the message
// that says how to get a supported Node, not a missing-package error.
import "../src/require-supported-node.js";

const { register } = await import("tsx/esm/api");
register();
await import("../src/cli.ts");
