/**
 * `buckeye data fetch-geo` that fails (here: no route to the TIGER/Line site, a closed local port) leaves
 * the folder it was to fill as it found it: a folder that did not exist is not made, so the service and
 * the tests' global setup still see "no polygons folder, run fetch-geo" rather than an empty one.
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { fetchTiger, FetchGeoError } from "../src/geo/fetch-tiger.ts";

const parent = mkdtempSync(join(tmpdir(), "buckeye-fetch-geo-"));
afterAll(() => rmSync(parent, { recursive: true, force: true }));

describe("a failed fetch-geo makes no folder", () => {
  it("the download fails, the error says so, and the folder it was to write into still does not exist", async () => {
    const dir = join(parent, "var", "geo");
    await expect(fetchTiger({ vintage: 2024, baseUrl: "http://127.0.0.1:2", dir })).rejects.toBeInstanceOf(FetchGeoError);
    expect(existsSync(dir)).toBe(false);
    expect(existsSync(join(parent, "var"))).toBe(false);
  });
});
