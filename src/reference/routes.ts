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
import { problem } from "../http/problem.ts";
import { REPO_ROOT } from "../config.ts";

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
</head>
<body>
<div id="reference"></div>
<script src="${REFERENCE_PATH}/assets/swagger-ui-bundle.js"></script>
<script src="${REFERENCE_PATH}/assets/reference.js"></script>
</body>
</html>
`;

const CONTENT_TYPES = { ".js": "text/javascript; charset=utf-8", ".css": "text/css; charset=utf-8" } as const;

function readAssets(): Map<string, Buffer> {
  // The package's entry point sits at its root, beside the prebuilt bundle and stylesheet.
  const dist = dirname(createRequire(import.meta.url).resolve("swagger-ui-dist"));
  return new Map([
    ["swagger-ui-bundle.js", readFileSync(join(dist, "swagger-ui-bundle.js"))],
    ["swagger-ui.css", readFileSync(join(dist, "swagger-ui.css"))],
    ["reference.js", readFileSync(join(REPO_ROOT, "src", "reference", "assets", "reference.js"))],
  ]);
}

export function registerReference(app: H3): void {
  // Read on first request: the 1.7 MB bundle costs nothing to a service whose reference is never opened.
  let files: Map<string, Buffer> | undefined;

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

  app.get(`${REFERENCE_PATH}/assets/:name`, (event: H3Event) => {
    const name = event.context.params?.name ?? "";
    files ??= readAssets();
    const body = files.get(name);
    if (!body) throw problem("not-found", `No such file under ${REFERENCE_PATH}/assets.`);
    event.res.headers.set("content-type", CONTENT_TYPES[name.endsWith(".css") ? ".css" : ".js"]);
    event.res.headers.set("cache-control", "public, max-age=300");
    event.res.headers.set("x-content-type-options", "nosniff");
    return body;
  });
}
