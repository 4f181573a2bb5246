/**
 * Where the running service reads the time. The composition root (service.ts) makes one clock and
 * hands it to everything that asks the time (the API, the dashboard, the delivery actor, the
 * scheduler, the batch runner, the usage counter, the boundary index, and through the runtime the
 * rate table's recheck), so a test moves the time of the whole service in one place instead of
 * reaching into its parts. A CLI command reads its runtime's clock (runtime.ts), the system's.
 * A worker thread cannot share this object: it reads the system's time.
 */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };
