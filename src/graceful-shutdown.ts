/**
 * What `buckeye serve` does on SIGTERM or SIGINT (docs/operations/several-instances.md: instances come and go behind a load
 * balancer): stop accepting connections, let requests in flight finish, stop claiming deliveries
 * and let those being sent finish and be recorded (work merely claimed is given back), finish
 * scheduled jobs under way, then close the database and exit 0. If that takes longer than
 * SHUTDOWN_GRACE_MS the process exits 1 anyway; whatever was cut short is safe, since claims are
 * leases another instance takes over. A second signal exits at once. Only the CLI calls this: it
 * is the one place that decides to exit the process.
 */
import type { Logger } from "./log.ts";
import { errorFields } from "./error-fields.ts";

export interface Closable {
  close(): Promise<void>;
}

export function exitGracefullyOnSignals(service: Closable, options: { graceMs: number; log: Logger }): void {
  const { graceMs, log } = options;
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) {
      log({ level: "warn", msg: "second signal during shutdown: exiting now", signal });
      process.exit(1);
    }
    stopping = true;
    log({ level: "info", msg: "shutting down: no new connections; finishing requests and deliveries in flight", signal, grace_ms: graceMs });
    const started = performance.now();
    const deadline = setTimeout(() => {
      log({ level: "error", msg: "shutdown took longer than SHUTDOWN_GRACE_MS: exiting anyway", grace_ms: graceMs });
      process.exit(1);
    }, graceMs);
    deadline.unref();
    service.close().then(
      () => {
        log({ level: "info", msg: "stopped", ms: Math.round(performance.now() - started) });
        process.exit(0);
      },
      (error: unknown) => {
        log({ level: "error", msg: "shutdown failed", ...errorFields(error) });
        process.exit(1);
      },
    );
  };
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
}
