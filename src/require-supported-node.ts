/**
 * Imported first by the CLI (`src/cli.ts`, which `bin/buckeye.js` and `npm start` run): stops with a
 * message naming the supported versions before a dependency can crash on an old Node.
 * Deno reports its own Node compatibility version and is supported separately (README, "Running under Deno").
 */
import { unsupportedNodeMessage } from "./supported-node.ts";

const message = "deno" in process.versions ? undefined : unsupportedNodeMessage(process.versions.node);
if (message) {
  process.stderr.write(message);
  process.exit(1);
}
