/**
 * One boundary file import at a time (the import lease, migration 2026-11-24-080), against a real
 * database (SQLite, or a PostgreSQL schema under TEST_DATABASE_URL) with SYNTHETIC files generated
 * from data/. Before the lease, a second import deleted the first one's rows as an unfinished load,
 * and the first could then switch lookups to a version missing those rows.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { importBoundaryFile } from "../src/boundaries/import-file.ts";
import { activateVersion, LeaseLostError, readPointer, takeImportLease } from "../src/store/boundaries.repository.ts";
import { boundaryWorkspace, type BoundaryWorkspace } from "./_boundary-files.ts";

const RECORDS = 6000;
let ws: BoundaryWorkspace;

async function recordsOf(version: string): Promise<number> {
  const row = await ws.store.db.selectFrom("boundary_records").select((eb) => eb.fn.countAll<number>().as("n")).where("version", "=", version).executeTakeFirstOrThrow();
  return Number(row.n);
}

beforeAll(async () => {
  ws = await boundaryWorkspace();
});
afterAll(() => ws?.close());

describe("one import at a time: a second import is refused while the first holds the lease", () => {
  it("of two imports started together, one imports every record and the other is refused and changes nothing", async () => {
    const a = await ws.write("OHB2026Q3JUN1-synthetic.csv", RECORDS);
    const b = await ws.write("OHB2026Q4SEP17-synthetic.csv", RECORDS + 100);
    const results = await Promise.all([importBoundaryFile({ store: ws.store, source: a, synthetic: true }), importBoundaryFile({ store: ws.store, source: b, synthetic: true })]);
    const imported = results.filter((r) => r.status === "imported");
    const refused = results.filter((r) => r.status === "refused");
    expect(imported).toHaveLength(1);
    expect(refused).toHaveLength(1);
    expect(refused[0]!.error).toMatch(/another boundary file import is running .*nothing was changed/);
    const pointer = await readPointer(ws.store.db);
    expect(pointer.version).toBe(imported[0]!.version);
    // The winner's version holds every record of its file: nothing of it was deleted by the other.
    expect(await recordsOf(imported[0]!.version!)).toBe(imported[0]!.records);
    expect(await recordsOf(refused[0]!.version!)).toBe(0);
  });

  it("the lease is given back at the end: the next import goes ahead", async () => {
    const c = await ws.write("OHB2027Q1NOV28-synthetic.csv", RECORDS + 200);
    expect(await importBoundaryFile({ store: ws.store, source: c, synthetic: true })).toMatchObject({ status: "imported", records: expect.any(Number) });
    expect((await readPointer(ws.store.db)).version).toBe("OHB2027Q1NOV28-SYNTHETIC");
  });
});

describe("an import that died lets its lease lapse, and the next one takes over", () => {
  it("refused while the dead import's lease holds; imported once it has lapsed", async () => {
    const file = await ws.write("OHB2027Q2FEB27-synthetic.csv", RECORDS + 300);
    expect(await takeImportLease(ws.store.db, { holder: "imp_dead", ttlMs: 300 }, "/var/dead.csv", new Date())).toEqual({ ok: true });
    const refused = await importBoundaryFile({ store: ws.store, source: file, synthetic: true });
    expect(refused).toMatchObject({ status: "refused", error: expect.stringContaining("/var/dead.csv") });
    expect((await readPointer(ws.store.db)).version).toBe("OHB2027Q1NOV28-SYNTHETIC");
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(await importBoundaryFile({ store: ws.store, source: file, synthetic: true })).toMatchObject({ status: "imported" });
    expect((await readPointer(ws.store.db)).version).toBe("OHB2027Q2FEB27-SYNTHETIC");
  });
});

describe("an import that lost its lease never switches lookups to its version", () => {
  it("activation checks the lease in its own transaction", async () => {
    const before = await readPointer(ws.store.db);
    expect(await takeImportLease(ws.store.db, { holder: "imp_other", ttlMs: 60_000 }, "/var/other.csv", new Date())).toEqual({ ok: true });
    const counts = { records: 1, address_ranges: 1, zip4_ranges: 0, zip5_ranges: 0 };
    await expect(activateVersion(ws.store.db, "OHB2027Q3MAY30", counts, new Date(), { holder: "imp_mine", ttlMs: 60_000 })).rejects.toBeInstanceOf(LeaseLostError);
    expect(await readPointer(ws.store.db)).toEqual(before);
  });
});
