import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Suites start real servers and databases; two files at a time fits this 2-core machine.
    maxWorkers: 2,
  },
});
