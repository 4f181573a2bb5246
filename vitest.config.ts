import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // Fetches the boundary polygons once when the folder the service reads has none (test/_global-setup.ts).
    globalSetup: ["test/_global-setup.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // expect.poll waits for something that happens on its own time (a delivery, a page refreshed in the browser);
    // its 1 s default is shorter than one page load on a machine busy with the whole suite.
    expect: { poll: { timeout: 10_000, interval: 100 } },
    // Suites start real servers and databases; two files at a time fits this 2-core machine.
    maxWorkers: 2,
  },
});
