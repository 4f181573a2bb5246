/**
 * The organization dashboard, mounted on the service's h3 app under /dashboard: server-rendered pages
 * for accounts, API keys, webhooks, usage and settings. Everything under /dashboard answers in
 * HTML, errors included; the API's paths are untouched.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { H3, H3Event } from "h3";
import { REPO_ROOT } from "../config.ts";
import type { DashboardDeps, DashboardSetup } from "./deps.ts";
import type { Logger } from "../log.ts";
import { dashboardErrors } from "./error-page.ts";
import { accountRoutes } from "./pages/account.ts";
import { keyRoutes } from "./pages/keys.ts";
import { passwordResetRoutes } from "./pages/password-reset.ts";
import { returnRoutes } from "./pages/returns.ts";
import { settingsRoutes } from "./pages/settings.ts";
import { usageRoutes } from "./pages/usage.ts";
import { webhookRoutes } from "./pages/webhooks.ts";
import { publicRoutes } from "./public-pages.ts";
import { dashboardError, redirectTo } from "./respond.ts";
import { currentSession } from "./session.ts";
import { SignUpThrottle } from "./sign-up-throttle.ts";
import { SubmitOnce } from "./submit-once.ts";
import { clientAddressReader } from "../web/client-address.ts";
import { StaticFiles } from "../web/static-files.ts";

const ASSETS: Record<string, string> = {
  "dashboard.css": "text/css; charset=utf-8",
  "dashboard.js": "text/javascript; charset=utf-8",
  "favicon.svg": "image/svg+xml",
};

function isDashboardPath(event: H3Event): boolean {
  const path = event.url.pathname;
  return path === "/dashboard" || path.startsWith("/dashboard/");
}

/** Mounts the dashboard on the service's app (the composition root, src/service.ts, calls it). */
export function registerDashboard(app: H3, setup: DashboardSetup, log: Logger = () => {}): void {
  const { signUpLimit, trustedProxies, ...given } = setup;
  const deps: DashboardDeps = {
    ...given,
    clientAddress: clientAddressReader(trustedProxies),
    throttle: setup.accounts.signIns,
    signUps: new SignUpThrottle(setup.db, setup.now, signUpLimit),
    once: new SubmitOnce(setup.db, setup.now),
    resets: setup.accounts.resets,
    log,
  };

  app.use(dashboardErrors(log), { match: isDashboardPath });

  const files = new StaticFiles(ASSETS, (name) => readFileSync(join(REPO_ROOT, "src", "dashboard", "assets", name)));
  app.get("/dashboard/assets/:name", async (event) => {
    const answer = await files.answer(event.context.params?.name ?? "", event.req);
    if (!answer) throw dashboardError(404, "Not found", "No such file.");
    return answer;
  });

  app.get("/dashboard", async (event) => redirectTo(event, (await currentSession(event, deps)) ? "/dashboard/keys" : "/dashboard/sign-in"));

  accountRoutes(app, deps);
  passwordResetRoutes(app, deps);
  keyRoutes(app, deps);
  webhookRoutes(app, deps);
  usageRoutes(app, deps);
  returnRoutes(app, deps);
  settingsRoutes(app, deps);
  publicRoutes(app, deps);

  // Unknown dashboard paths and methods reach this route, so they throw inside the error hook above.
  app.all("/dashboard/**", () => {
    throw dashboardError(404, "Page not found", "There is nothing at this address. Check the link, or go back to your dashboard.");
  });
}
