/** Runs the FAKE UPSTREAM Census Geocoder (test/fake-census-geocoder.ts) in its own process for the benchmark, so it does not share a CPU thread with the service. */
import { startFakeCensusGeocoder } from "../test/fake-census-geocoder.ts";

const fake = await startFakeCensusGeocoder();
process.stdout.write(`fake geocoder at ${fake.url}\n`);
process.once("SIGTERM", () => void fake.close().then(() => process.exit(0)));
