// Thread entry the rate file read uses when Buckeye runs from its TypeScript sources (bin/buckeye.js,
// vitest): registers tsx in this thread, then loads workers/rate-file.ts (see geo-loader.mjs).
import { register } from "tsx/esm/api";

register();
await import("./rate-file.ts");
