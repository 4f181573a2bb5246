#!/usr/bin/env node
// The operator CLI. The sources are TypeScript, run through tsx's loader so that `npx buckeye`
// works straight after `npm ci`, with no build step.
import { register } from "tsx/esm/api";

register();
await import("../src/cli.ts");
