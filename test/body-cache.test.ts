import { describe, expect, it } from "vitest";
import { BodyCache } from "../src/http/body-cache.ts";
import { loadShippedData } from "../src/load-data.ts";

const { table } = loadShippedData(new URL("../data", import.meta.url).pathname);

describe("cached answer bodies (src/http/body-cache.ts)", () => {
  it("each request gets its own request_id wherever the record puts it, and the rest of the body is the record's", () => {
    for (const build of [
      (id: string) => ({ request_id: id, county: "Franklin", rate: "0.0800" }),
      (id: string) => ({ county: "Franklin", request_id: id, rate: "0.0800" }),
      (id: string) => ({ county: "Franklin", rate: "0.0800", request_id: id }),
    ]) {
      const cache = new BodyCache();
      for (const id of ["req_one", "req_two", 'req_"quoted"']) {
        const body = cache.get(table, "franklin", id, build);
        expect(body).toBe(JSON.stringify(build(id)));
      }
    }
  });

  it("a body is built once per key, and again after the rate table is replaced", () => {
    const cache = new BodyCache();
    let builds = 0;
    const build = (id: string) => ({ built: ++builds, request_id: id });
    cache.get(table, "k", "req_a", build);
    expect(JSON.parse(cache.get(table, "k", "req_b", build))).toEqual({ built: 1, request_id: "req_b" });
    const replaced = { ...table };
    expect(JSON.parse(cache.get(replaced, "k", "req_c", build))).toEqual({ built: 2, request_id: "req_c" });
  });

  it("a body without a request_id is served as built", () => {
    const cache = new BodyCache();
    expect(cache.get(table, "k", "req_a", () => ({ total: 1 }))).toBe('{"total":1}');
  });
});
