/**
 * Runs the FAKE UPSTREAM Census Geocoder (test/fake-census-geocoder.ts) in its own process for the
 * benchmark, so it does not share a CPU thread with the service. A second port answers how many
 * requests it has had (single and batch), for the benchmarks that promise few upstream calls.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { startFakeCensusGeocoder } from "../test/fake-census-geocoder.ts";

const fake = await startFakeCensusGeocoder();
const counts = createServer((_req, res) => {
  const batch = fake.batchRequests.length;
  res.writeHead(200, { "content-type": "application/json" }).end(
    JSON.stringify({ url: fake.url, requests: fake.requests.length - batch, batch_requests: batch, batch_rows: fake.batchRequests.reduce((n, r) => n + r.rows.length, 0) }),
  );
});
await new Promise<void>((resolve) => counts.listen(0, "127.0.0.1", resolve));
process.stdout.write(`fake geocoder at ${fake.url} counts http://127.0.0.1:${(counts.address() as AddressInfo).port}\n`);
process.once("SIGTERM", () => void Promise.all([fake.close(), new Promise((resolve) => counts.close(resolve))]).then(() => process.exit(0)));
