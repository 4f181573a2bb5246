/**
 * The upload budgets as rules, without HTTP (src/batch/upload-reservations.ts): an organization's
 * budget counts what its uploads declare, the process's counts only bytes that have arrived, and one
 * organization may hold at most half the process's room (the configuration refuses more).
 */
import { describe, expect, it } from "vitest";
import { UploadReservations, type Reservation } from "../src/batch/upload-reservations.ts";
import type { JobRefusal } from "../src/batch/job-admission.ts";
import { testConfig } from "./_setup.ts";

const MIB = 1024 * 1024;
const taken = (place: Reservation | JobRefusal): Reservation => {
  if ("ok" in place) throw new Error(`refused: ${place.slug}`);
  return place;
};

describe("the process's upload room is taken by bytes that arrive, never by a declared size", () => {
  it("four uploads declaring 64 MiB each take none of a 128 MiB process's room until they send; a fifth organization is admitted", () => {
    const uploads = new UploadReservations({ perOrganization: 64 * MIB, perProcess: 128 * MIB });
    for (const org of ["a", "b", "c", "d"]) taken(uploads.reserve(org, 64 * MIB, `bat_${org}`)).arrive(1024);
    expect("jobId" in uploads.reserve("e", 1 * MIB, "bat_e")).toBe(true);
  });

  it("bytes that would pass the process's room are refused 503 batch-uploads-busy as they arrive, counting nothing; released bytes make room again", () => {
    const uploads = new UploadReservations({ perOrganization: 64 * MIB, perProcess: 100 });
    const one = taken(uploads.reserve("a", 64 * MIB, "bat_1"));
    const two = taken(uploads.reserve("b", 64 * MIB, "bat_2"));
    expect(one.arrive(60)).toBeNull();
    expect(two.arrive(41)).toMatchObject({ ok: false, slug: "batch-uploads-busy", retryAfterSeconds: 10 });
    expect(two.arrive(40)).toBeNull();
    expect(uploads.reserve("c", 10, "bat_3")).toMatchObject({ ok: false, slug: "batch-uploads-busy" });
    one.release();
    expect(two.arrive(60)).toBeNull();
    expect("jobId" in uploads.reserve("c", 10, "bat_4")).toBe(false);
    two.release();
    expect("jobId" in uploads.reserve("c", 10, "bat_5")).toBe(true);
  });

  it("an organization's declared bytes past its own budget are refused 429 batch-uploads-in-flight, and only it waits", () => {
    const uploads = new UploadReservations({ perOrganization: 64 * MIB, perProcess: 128 * MIB });
    taken(uploads.reserve("a", 64 * MIB, "bat_1"));
    expect(uploads.reserve("a", 1, "bat_2")).toMatchObject({ ok: false, slug: "batch-uploads-in-flight" });
    expect("jobId" in uploads.reserve("b", 64 * MIB, "bat_3")).toBe(true);
  });
});

describe("one organization may hold at most half the process's upload room", () => {
  it("BATCH_UPLOAD_BYTES_PER_ORG over half of BATCH_UPLOAD_BYTES_PER_PROCESS is refused at start", () => {
    expect(() => testConfig({ BATCH_UPLOAD_BYTES_PER_ORG: String(128 * MIB), BATCH_UPLOAD_BYTES_PER_PROCESS: String(192 * MIB) })).toThrow(/BATCH_UPLOAD_BYTES_PER_ORG: must be at most half/);
    expect(() => testConfig({ BATCH_UPLOAD_BYTES_PER_ORG: String(64 * MIB), BATCH_UPLOAD_BYTES_PER_PROCESS: String(128 * MIB) }).cleanup()).not.toThrow();
  });
});
