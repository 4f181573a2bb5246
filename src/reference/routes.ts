/**
 * GET /docs: the API reference, rendered in the browser by Scalar's @scalar/api-reference from
 * GET /api/v1/openapi.json. Its standalone bundle is served from node_modules at
 * /docs/assets/scalar.js, so nothing comes from a CDN. The page keeps the dashboard's content
 * security policy, with one addition the bundle needs: it injects its stylesheets as <style>
 * elements, which carry a fresh per-response nonce read from <meta property="csp-nonce">
 * (assets/csp-nonce.js hands it to the ones Scalar does not give it to). No inline script runs.
 */
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import type { H3, H3Event } from "h3";
import { problem } from "../http/problem.ts";
import { REPO_ROOT } from "../config.ts";

export const REFERENCE_PATH = "/docs";

// The package exports no path to its browser bundle: it sits beside its entry point, in dist/.
const scalarBundle = () => join(dirname(createRequire(import.meta.url).resolve("@scalar/api-reference")), "browser", "standalone.js");

function csp(nonce: string): string {
  return [
    "default-src 'none'",
    `style-src 'self' 'nonce-${nonce}'`,
    "script-src 'self'",
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    "base-uri 'none'",
  ].join("; ");
}

const page = (nonce: string) => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta property="csp-nonce" content="${nonce}">
<title>Buckeye API reference</title>
<link rel="icon" href="/dashboard/assets/favicon.svg" type="image/svg+xml">
</head>
<body>
<div id="reference"></div>
<script src="${REFERENCE_PATH}/assets/csp-nonce.js"></script>
<script src="${REFERENCE_PATH}/assets/scalar.js"></script>
<script src="${REFERENCE_PATH}/assets/reference.js"></script>
</body>
</html>
`;

export function registerReference(app: H3): void {
  // Read on first request: the 4 MB bundle costs nothing to a service whose reference is never opened.
  let files: Map<string, Buffer> | undefined;
  const asset = (name: string) => {
    files ??= new Map([
      ["scalar.js", readFileSync(scalarBundle())],
      ["csp-nonce.js", readFileSync(join(REPO_ROOT, "src", "reference", "assets", "csp-nonce.js"))],
      ["reference.js", readFileSync(join(REPO_ROOT, "src", "reference", "assets", "reference.js"))],
    ]);
    return files.get(name);
  };

  app.get(REFERENCE_PATH, (event: H3Event) => {
    const nonce = randomBytes(16).toString("base64");
    const headers = event.res.headers;
    headers.set("content-security-policy", csp(nonce));
    headers.set("x-content-type-options", "nosniff");
    headers.set("x-frame-options", "DENY");
    headers.set("referrer-policy", "same-origin");
    headers.set("cache-control", "no-store");
    headers.set("content-type", "text/html; charset=utf-8");
    return page(nonce);
  });

  app.get(`${REFERENCE_PATH}/assets/:name`, (event: H3Event) => {
    const body = asset(event.context.params?.name ?? "");
    if (!body) throw problem("not-found", `No such file under ${REFERENCE_PATH}/assets.`);
    event.res.headers.set("content-type", "text/javascript; charset=utf-8");
    event.res.headers.set("cache-control", "public, max-age=300");
    event.res.headers.set("x-content-type-options", "nosniff");
    return body;
  });
}
