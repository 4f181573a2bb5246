/**
 * GET /docs: the API reference, rendered in the browser by Swagger UI (the swagger-ui-dist package, which
 * has no dependencies of its own) from GET /api/v1/openapi.json. Its prebuilt bundle and stylesheet are
 * served from node_modules under /docs/assets/, so nothing comes from a CDN. The page keeps the dashboard's
 * content security policy as it is: scripts and styles from this host only, no inline script, no nonce.
 * Why Swagger UI, measured against the other renderers: docs/decisions/README.md, "The API reference page".
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import type { H3, H3Event } from "h3";
import { problem } from "../web/problem.ts";
import { REPO_ROOT } from "../config.ts";
import { StaticFiles } from "../web/static-files.ts";

export const REFERENCE_PATH = "/docs";

const CSP = [
  "default-src 'none'",
  "style-src 'self'",
  "script-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join("; ");

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Buckeye API reference</title>
<link rel="icon" href="/dashboard/assets/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="${REFERENCE_PATH}/assets/swagger-ui.css">
<link rel="stylesheet" href="${REFERENCE_PATH}/assets/reference.css">
</head>
<body>
<header class="reference-intro">
<nav aria-label="Buckeye"><a href="/">Buckeye</a><a href="/dashboard">Dashboard</a><a href="/status">Service status</a><a href="/api/v1/openapi.json">OpenAPI document (JSON)</a></nav>
<p class="keys-note">Every request except health and this document needs an API key, sent as <code>Authorization: Bearer tax_live_…</code> (or <code>tax_test_…</code> for test mode). Create keys in the <a href="/dashboard/keys">dashboard</a>, then paste one under <strong>Authorize</strong> below to use “Try it out”.</p>
</header>
<noscript><div class="reference-intro"><p>This page draws the reference with JavaScript, which is off. The same reference is the OpenAPI document at <a href="/api/v1/openapi.json">/api/v1/openapi.json</a>, and as Markdown in the <code>docs/api/</code> folder of Buckeye's source (start at <code>docs/api/README.md</code>).</p></div></noscript>
<main id="reference"></main>
<script src="${REFERENCE_PATH}/assets/swagger-ui-bundle.js"></script>
<script src="${REFERENCE_PATH}/assets/reference.js"></script>
</body>
</html>
`;

const ASSETS = {
  "swagger-ui-bundle.js": "text/javascript; charset=utf-8",
  "swagger-ui.css": "text/css; charset=utf-8",
  "reference.js": "text/javascript; charset=utf-8",
  "reference.css": "text/css; charset=utf-8",
};

const OURS = new Set(["reference.js", "reference.css"]);

function readAsset(name: string): Buffer {
  if (OURS.has(name)) return readFileSync(join(REPO_ROOT, "src", "reference-page", "assets", name));
  // The package's entry point sits at its root, beside the prebuilt bundle and stylesheet.
  return readFileSync(join(dirname(createRequire(import.meta.url).resolve("swagger-ui-dist")), name));
}

/**
 * Mounts the page and its assets. Returns `warm`, which the started service calls: it reads and
 * compresses every asset once, in the background (zlib on libuv's pool), so the first browser to
 * open the reference gets the 1.4 MB bundle as 0.4 MB of brotli at once instead of waiting for it
 * to be compressed (about a second of CPU).
 */
export function registerReference(app: H3): { warm: () => Promise<void> } {
  const files = new StaticFiles(ASSETS, readAsset);

  app.get(REFERENCE_PATH, (event: H3Event) => {
    const headers = event.res.headers;
    headers.set("content-security-policy", CSP);
    headers.set("x-content-type-options", "nosniff");
    headers.set("x-frame-options", "DENY");
    headers.set("referrer-policy", "same-origin");
    headers.set("cache-control", "no-store");
    headers.set("content-type", "text/html; charset=utf-8");
    return PAGE;
  });

  app.get(`${REFERENCE_PATH}/assets/:name`, async (event: H3Event) => {
    const answer = await files.answer(event.context.params?.name ?? "", event.req);
    if (!answer) throw problem("not-found", `No such file under ${REFERENCE_PATH}/assets.`);
    return answer;
  });
  return { warm: () => files.warm() };
}
