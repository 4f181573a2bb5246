/**
 * The measuring client of bench/jobs.ts, in a process of its own: every INTERVAL_MS one request of
 * each kind, over node:http with keep-alive (one socket per request in flight, so a stalled server
 * sees new connections, as real clients make them), open loop, each timed from the moment it is sent.
 * Keys of a kind take turns, so each key sends 1/n of the kind's rate.
 *
 * Why a process: a real client is not the one uploading jobs. In bench/jobs.ts's own event loop the
 * timings took in its pauses too: building three 100,000-row CSV bodies and reading the polls held it
 * for up to 185 ms, and every answer that arrived meanwhile counted as that much slower.
 *
 * Started by bench/jobs.ts with `fork` ({ url, keys, intervalMs } as argv[2], JSON); sends its answers
 * back over the IPC channel when the parent sends "stop"; it says "sending" once it has started.
 */
import { Agent, request } from "node:http";

/** One request's outcome: bench/jobs.ts reads these back. */
export interface Answer {
  key: string;
  sentMs: number;
  ms: number;
  status: number | null;
  error?: string;
}

const { url, keys, intervalMs, paths } = JSON.parse(process.argv[2]!) as { url: string; keys: Record<string, string[]>; intervalMs: number; paths: Record<string, string> };
const { hostname, port } = new URL(url);
const agent = new Agent({ keepAlive: true });
const answers: Record<string, Promise<Answer>[]> = Object.fromEntries(Object.keys(paths).map((kind) => [kind, []]));

const send = (kind: string, key: string) =>
  new Promise<Answer>((resolve) => {
    const sentMs = performance.now();
    const req = request({ hostname, port, path: paths[kind], agent, headers: { authorization: `Bearer ${key}` }, timeout: 30_000 }, (res) => {
      res.resume();
      res.once("end", () => resolve({ key, sentMs, ms: performance.now() - sentMs, status: res.statusCode! }));
    });
    req.once("timeout", () => req.destroy(Object.assign(new Error("timed out"), { code: "TIMEOUT" })));
    req.once("error", (error: NodeJS.ErrnoException) => resolve({ key, sentMs, ms: performance.now() - sentMs, status: null, error: error.code ?? error.message }));
    req.end();
  });

const started = performance.now();
let tick = 0;
let lateMs = 0;
// Scheduled from the start time, not from the previous timer: a late timer sends what is due at once.
const loop = () => {
  const now = performance.now();
  for (; started + tick * intervalMs <= now; tick++) {
    lateMs = Math.max(lateMs, now - (started + tick * intervalMs));
    for (const kind of Object.keys(paths)) answers[kind]!.push(send(kind, keys[kind]![tick % keys[kind]!.length]!));
  }
  timer = setTimeout(loop, Math.max(0, started + tick * intervalMs - performance.now()));
};
let timer = setTimeout(loop, 0);
// The parent starts its scenario once the first requests are on their way.
process.send!("sending");

process.once("message", async () => {
  clearTimeout(timer);
  const settled = Object.fromEntries(await Promise.all(Object.entries(answers).map(async ([kind, pending]) => [kind, await Promise.all(pending)] as const)));
  agent.destroy();
  process.send!({ answers: settled, lateMs }, () => process.disconnect());
});
