import { defineConfig } from "vitest/config";

/**
 * The end-to-end group, `npm run test:e2e` (README, "Testing"): files whose time goes to a real browser, to
 * several `buckeye` processes or to compiling whole checkouts, each a minute or more on a busy 2-core machine. They test nothing the rest
 * cannot reach faster except that whole path, so `npm test` (the fast group) leaves them out and stays
 * within its budget of 8 minutes on a quiet 2-core machine; CI runs both groups (.ci/run).
 */
const E2E_FILES = [
  // Debian's chromium driving the dashboard and /docs: a browser, page loads, axe-core on each page.
  "test/api-reference.test.ts",
  "test/dashboard-accessibility.test.ts",
  "test/dashboard-forms.test.ts",
  "test/dashboard-keys.test.ts",
  "test/dashboard-password-reset.test.ts",
  "test/dashboard-returns.test.ts",
  "test/dashboard-settings.test.ts",
  "test/dashboard-webhook-log.test.ts",
  "test/dashboard-webhooks.test.ts",
  "test/public-pages.test.ts",
  // Two `buckeye serve` processes on one database, changed by CLI commands in processes of their own, and
  // timed rate windows across them.
  "test/multi-instance.test.ts",
  "test/organization-limits-instances.test.ts",
  // `npm start` and the CLI in checkouts of their own: TypeScript's compiler builds one three times (each
  // build takes both cores for seconds), and every case is a process. Which code runs is chosen before
  // anything touches a store, so one run on Node 24 covers it.
  "test/start-entry.test.ts",
];

export default defineConfig({
  test: {
    // Once per run (test/_global-setup.ts): fetches the boundary polygons when the folder the service reads has
    // none, writes their polygon index for the tests when it has none beside them, and builds dist/ when it is
    // older than the sources, so no test file or `buckeye` process repeats either at its start.
    globalSetup: ["test/_global-setup.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // expect.poll waits for something that happens on its own time (a delivery, a page refreshed in the browser);
    // its 1 s default is shorter than one page load on a machine busy with the whole suite.
    expect: { poll: { timeout: 10_000, interval: 100 } },
    // Suites start real servers and databases; two files at a time fits this 2-core machine.
    maxWorkers: 2,
    projects: [
      { extends: true, test: { name: "fast", include: ["test/**/*.test.ts"], exclude: E2E_FILES } },
      { extends: true, test: { name: "e2e", include: E2E_FILES } },
    ],
  },
});
