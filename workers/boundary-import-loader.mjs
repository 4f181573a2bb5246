// Thread entry the boundary import uses when Buckeye runs from its TypeScript sources (bin/buckeye.js,
// vitest): registers tsx in this thread, then loads workers/boundary-import.ts (see geo-loader.mjs).
import { register } from "tsx/esm/api";

register();
await import("./boundary-import.ts");
