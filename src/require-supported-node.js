// @ts-check
/**
 * The first thing every entry point runs: each npm script (`node src/require-supported-node.js && …`),
 * `bin/buckeye.js` before it loads tsx, and the CLI (`src/cli.ts`, what `npm start` serves from). It stops
 * with a message naming the supported versions before a missing tool or a dependency can crash on an old
 * Node. Plain JavaScript importing nothing but its sibling, so Node 20 runs it on a fresh clone.
 * Deno reports its own Node compatibility version and is supported separately (docs/operations/deno.md).
 */
import { unsupportedNodeMessage } from "./supported-node.js";

const message = "deno" in process.versions ? undefined : unsupportedNodeMessage(process.versions.node);
if (message) {
  process.stderr.write(message);
  process.exit(1);
}
