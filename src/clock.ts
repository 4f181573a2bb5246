/**
 * Where the running service reads the time. The composition root (service.ts) makes one clock and
 * hands it to everything that asks the time (the API, the dashboard, the delivery actor, the
 * scheduler, the batch runner, the usage counter), so a test moves the time of the whole service in
 * one place instead of reaching into its parts.
 */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };
