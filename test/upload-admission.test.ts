/**
 * An upload takes its organization's place before its body is read: the job caps count the uploads
 * being received, and the bytes being uploaded at once are bounded per organization
 * (BATCH_UPLOAD_BYTES_PER_ORG) and per process (BATCH_UPLOAD_BYTES_PER_PROCESS). Uploads past a cap
 * are answered while their client is still sending; a place is given back when its upload fails or
 * is refused. Real service on a real socket, real threads, the real database (SQLite, or PostgreSQL
 * under TEST_DATABASE_URL).
 */
import { request, type ClientRequest } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createKey } from "../src/auth/key-service.ts";
import { createOrganization } from "../src/store/organizations.repository.ts";
import { startTestService, type TestService } from "./_setup.ts";

const IN_FLIGHT = 2;
const MIB = 1024 * 1024;
let api: TestService & { url?: string };

beforeAll(async () => {
  api = await startTestService(
    {
      BATCH_JOBS_IN_FLIGHT_PER_ORG: String(IN_FLIGHT),
      BATCH_UPLOAD_BYTES_PER_ORG: String(64 * MIB),
      BATCH_UPLOAD_BYTES_PER_PROCESS: String(128 * MIB),
      BATCH_POLL_MS: "20",
    },
    true,
  );
}, 120_000);
afterAll(async () => {
  await api?.close();
});

async function newKey(name: string): Promise<string> {
  const org = await createOrganization(api.service.store.db, name);
  return (await createKey(api.service.store.db, org.id, name, "live")).key;
}

interface Answer {
  status: number;
  body: Record<string, any>;
  retryAfter: string | undefined;
  /** Whether the answer came before the client had sent its whole body. */
  whileSending: boolean;
}

/** An upload whose body is sent in parts: the headers (Content-Length `declared`) and `first` at once, the rest only when asked. */
function startUpload(key: string, declared: number, first: string) {
  let sentAll = false;
  let req!: ClientRequest;
  const answer = new Promise<Answer>((resolve, reject) => {
    req = request(
      new URL("/api/v1/batches", api.url),
      { method: "POST", headers: { authorization: `Bearer ${key}`, "content-type": "text/csv", "content-length": String(declared) } },
      (res) => {
        const whileSending = !sentAll;
        let text = "";
        res.on("data", (chunk: Buffer) => (text += chunk));
        res.on("end", () => resolve({ status: res.statusCode!, body: JSON.parse(text || "{}"), retryAfter: res.headers["retry-after"], whileSending }));
        res.on("error", reject);
      },
    );
    req.on("error", (error) => (sentAll ? reject(error) : undefined));
  });
  req.write(first);
  return {
    answer,
    finish(rest: string) {
      sentAll = true;
      req.end(rest);
    },
    abort() {
      req.destroy();
    },
  };
}

const CSV = "id,county\nr1,Franklin\nr2,Wood\n";
const half = CSV.length >> 1;

/** A pause for what the service does on its own (takes or frees a place); what follows checks the outcome. */
async function settle(ms = 300): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, ms));
}

describe("an upload takes its organization's place among its jobs in flight before its body is read", () => {
  it(`of 6 uploads sent at once against a cap of ${IN_FLIGHT}, 4 get 429 batch-jobs-in-flight while their clients are still sending; the ${IN_FLIGHT} holding places get 202 once sent`, async () => {
    const key = await newKey("Simultaneous Org");
    // Every upload sends its headers and half its body; none finishes before it is answered.
    const uploads = Array.from({ length: 6 }, () => startUpload(key, Buffer.byteLength(CSV), CSV.slice(0, half)));
    await settle(2_000);
    const answered = await Promise.all(
      uploads.map(async (upload) => {
        const outcome = await Promise.race([upload.answer, settle(1_000).then(() => null)]);
        return { upload, outcome };
      }),
    );
    const refused = answered.filter((a) => a.outcome !== null);
    const holding = answered.filter((a) => a.outcome === null);
    expect(refused).toHaveLength(6 - IN_FLIGHT);
    for (const { outcome } of refused) {
      expect(outcome).toMatchObject({ status: 429, whileSending: true, retryAfter: "30", body: { type: expect.stringMatching(/\/batch-jobs-in-flight$/) } });
      expect(outcome!.body.detail).toMatch(/2 batch jobs queued or running \(2 of them still being uploaded\); the limit is 2/);
    }
    for (const { upload } of holding) upload.finish(CSV.slice(half));
    for (const { upload } of holding) expect(await upload.answer).toMatchObject({ status: 202, whileSending: false });
    for (const { upload } of refused) upload.abort();
  }, 60_000);

  it("a place is given back when its upload is cut off or refused: the next upload is taken", async () => {
    const key = await newKey("Failing Org");
    const cut = startUpload(key, Buffer.byteLength(CSV), CSV.slice(0, half));
    const tooLong = startUpload(key, 200_000, `id,address\nr1,${"x".repeat(70_000)}`);
    expect(await tooLong.answer).toMatchObject({ status: 413, body: { type: expect.stringMatching(/\/batch-line-too-long$/) } });
    tooLong.abort();
    await settle();
    cut.abort();
    await settle();
    // Both places are free again: two uploads fill the cap of 2 and are stored.
    const next = [startUpload(key, Buffer.byteLength(CSV), CSV), startUpload(key, Buffer.byteLength(CSV), CSV)];
    for (const upload of next) upload.finish("");
    for (const upload of next) expect((await upload.answer).status).toBe(202);
  }, 60_000);
});

describe("bytes being uploaded at once: an organization's declared bytes are bounded (429); the process's room is taken only by bytes that arrive (503)", () => {
  it("a second 40 MB upload of one organization is 429 batch-uploads-in-flight; another organization's is taken; the places come back", async () => {
    const first = await newKey("Bulky Org");
    const second = await newKey("Second Bulky Org");
    const big = 40 * MIB;
    const a = startUpload(first, big, CSV);
    await settle();
    const b = startUpload(first, big, CSV);
    expect(await b.answer).toMatchObject({ status: 429, whileSending: true, retryAfter: "10", body: { type: expect.stringMatching(/\/batch-uploads-in-flight$/) } });
    b.abort();
    const c = startUpload(second, big, CSV);
    await settle();
    expect(await Promise.race([c.answer, settle(500).then(() => "holding")])).toBe("holding");
    a.abort();
    c.abort();
    await settle();
    const after = startUpload(second, Buffer.byteLength(CSV), CSV);
    after.finish("");
    expect((await after.answer).status).toBe(202);
  }, 60_000);

  it("a declared size is not a reservation until its bytes arrive: two organizations' slow uploads claiming 64 MiB each (the whole 128 MiB of the process) leave a third organization's upload taken and stored", async () => {
    const liars = [await newKey("Slow Claimer One"), await newKey("Slow Claimer Two")];
    const slow = liars.map((key) => startUpload(key, 64 * MIB, "id,county\n"));
    await settle();
    for (const upload of slow) expect(await Promise.race([upload.answer, settle(300).then(() => "holding")])).toBe("holding");
    const other = startUpload(await newKey("Honest Org"), Buffer.byteLength(CSV), CSV);
    other.finish("");
    expect(await other.answer).toMatchObject({ status: 202 });
    for (const upload of slow) upload.abort();
  }, 60_000);
});
