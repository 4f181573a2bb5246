/**
 * What every web answer shares, API, dashboard and reference alike: fixed files sent compressed and
 * cacheable, HSTS over https, and problems that echo a bounded part of the request.
 */
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { createRequire } from "node:module";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { preferredEncoding, StaticFiles } from "../src/web/static-files.ts";
import { startTestService, type TestService } from "./_setup.ts";

let api: TestService;
beforeAll(async () => {
  api = await startTestService();
});
afterAll(async () => api.close());

const fetchPath = (path: string, headers: Record<string, string> = {}) => api.service.app.fetch(new Request(`http://buckeye.test${path}`, { headers }));
const swaggerBundle = () => readFileSync(join(dirname(createRequire(import.meta.url).resolve("swagger-ui-dist")), "swagger-ui-bundle.js"));

describe("static files are sent compressed and may be cached", () => {
  it("the reference page's bundle comes as brotli to a client that accepts it, a quarter of its size or less, the same bytes once inflated", async () => {
    const res = await fetchPath("/docs/assets/swagger-ui-bundle.js", { "accept-encoding": "gzip, deflate, br" });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-encoding")).toBe("br");
    expect(res.headers.get("vary")).toMatch(/accept-encoding/i);
    const body = Buffer.from(await res.arrayBuffer());
    const original = swaggerBundle();
    expect(body.length).toBeLessThan(original.length / 4);
    expect(brotliDecompressSync(body).equals(original)).toBe(true);
  });

  it("gzip when the client accepts only gzip; the file as it is when the client names no encoding", async () => {
    const gz = await fetchPath("/dashboard/assets/dashboard.js", { "accept-encoding": "gzip" });
    expect(gz.headers.get("content-encoding")).toBe("gzip");
    const original = readFileSync(new URL("../src/dashboard/assets/dashboard.js", import.meta.url));
    expect(gunzipSync(Buffer.from(await gz.arrayBuffer())).equals(original)).toBe(true);
    const plain = await fetchPath("/dashboard/assets/dashboard.js");
    expect(plain.headers.get("content-encoding")).toBeNull();
    expect(Buffer.from(await plain.arrayBuffer()).equals(original)).toBe(true);
  });

  it("a file may be kept for a day, and asking again with its ETag answers an empty 304", async () => {
    const first = await fetchPath("/docs/assets/swagger-ui.css", { "accept-encoding": "br" });
    await first.arrayBuffer();
    expect(first.headers.get("cache-control")).toBe("public, max-age=86400");
    const etag = first.headers.get("etag");
    expect(etag).toMatch(/^".+-br"$/);
    const again = await fetchPath("/docs/assets/swagger-ui.css", { "accept-encoding": "br", "if-none-match": etag! });
    expect(again.status).toBe(304);
    expect((await again.arrayBuffer()).byteLength).toBe(0);
    const changed = await fetchPath("/docs/assets/swagger-ui.css", { "accept-encoding": "br", "if-none-match": '"something-else"' });
    expect(changed.status).toBe(200);
  });

  it("an unknown file is still a 404 (problem+json under /docs, a page under /dashboard)", async () => {
    const reference = await fetchPath("/docs/assets/nope.js");
    expect(reference.status).toBe(404);
    expect(reference.headers.get("content-type")).toBe("application/problem+json");
    expect((await fetchPath("/dashboard/assets/nope.js")).status).toBe(404);
  });

  it("warm() reads and compresses every file before anyone asks, so the first request waits for nothing (a started service warms the reference's)", async () => {
    const read: string[] = [];
    const files = new StaticFiles({ "a.js": "text/javascript", "b.css": "text/css" }, (name) => {
      read.push(name);
      return Buffer.from(`/* ${name} */`.repeat(1000));
    });
    files.warm();
    expect(read).toEqual(["a.js", "b.css"]);
    const res = await files.answer("a.js", new Request("http://x/", { headers: { "accept-encoding": "br" } }));
    expect(res!.headers.get("content-encoding")).toBe("br");
    files.warm();
    expect(read).toEqual(["a.js", "b.css"]);
  });

  it("Accept-Encoding is read as RFC 9110 says: brotli first, q=0 refuses, * stands for the rest", () => {
    expect(preferredEncoding("gzip, br")).toBe("br");
    expect(preferredEncoding("br;q=0, gzip")).toBe("gzip");
    expect(preferredEncoding("identity")).toBeNull();
    expect(preferredEncoding("*")).toBe("br");
    expect(preferredEncoding("*, br;q=0")).toBe("gzip");
    expect(preferredEncoding(null)).toBeNull();
  });
});

describe("HSTS: an answer that came over https tells the browser to stay on https", () => {
  it("behind a proxy that says https (X-Forwarded-Proto), API answers, problems and dashboard pages carry Strict-Transport-Security", async () => {
    const https = { "x-forwarded-proto": "https", authorization: `Bearer ${api.liveKey}` };
    for (const path of ["/api/v1/rates?county=Franklin", "/api/v1/rates?county=Nowhere", "/dashboard/sign-in", "/healthz"]) {
      const res = await fetchPath(path, https);
      await res.arrayBuffer();
      expect(res.headers.get("strict-transport-security"), path).toBe("max-age=31536000");
    }
  });

  it("over plain http it is not sent (a browser ignores it there)", async () => {
    const res = await fetchPath("/api/v1/rates?county=Franklin", { authorization: `Bearer ${api.liveKey}` });
    expect(res.headers.get("strict-transport-security")).toBeNull();
  });
});

describe("a problem echoes a bounded part of the request", () => {
  it("1,500 unknown query parameters get a 400 of a few kilobytes that lists the first 20 and counts the rest", async () => {
    const query = Array.from({ length: 1500 }, (_, i) => `unknown_parameter_${i}=1`).join("&");
    const res = await fetchPath(`/api/v1/rates?county=Franklin&${query}`, { authorization: `Bearer ${api.liveKey}` });
    const text = await res.text();
    expect(res.status).toBe(400);
    expect(text.length).toBeLessThan(8_000);
    const body = JSON.parse(text);
    expect(body.invalid_params).toHaveLength(20);
    expect(body.invalid_params[0].name).toBe("unknown_parameter_0");
    expect(body.detail).toMatch(/1500 problems; the first 20 are listed/);
  });

  it("a long parameter name is cut short in the answer", async () => {
    const name = "x".repeat(5000);
    const res = await fetchPath(`/api/v1/rates?county=Franklin&${name}=1`, { authorization: `Bearer ${api.liveKey}` });
    const body = await res.json();
    expect(res.status).toBe(400);
    expect(body.invalid_params[0].name.length).toBeLessThanOrEqual(100);
    expect(body.detail.length).toBeLessThanOrEqual(1000);
  });
});
