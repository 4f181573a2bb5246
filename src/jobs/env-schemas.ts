/** zod schemas for the environment variables of webhooks and jobs, used by src/config.ts. */
import { Cron } from "croner";
import { z } from "zod";
import { parseRetrySchedule } from "../webhooks/retry-schedule.ts";
import { TIMEZONE } from "./scheduler.ts";

/** A comma-separated list of durations (50ms, 5s, 30m, 2h, 1d) → milliseconds. */
export const retryScheduleEnv = (fallback: string) =>
  z
    .string()
    .default(fallback)
    .transform((text, ctx) => {
      try {
        return parseRetrySchedule(text);
      } catch (error) {
        ctx.addIssue({ code: "custom", message: (error as Error).message });
        return z.NEVER;
      }
    });

/** A cron pattern read in America/New_York, or "off" (→ null). */
export const scheduleEnv = (fallback: string) =>
  z
    .string()
    .default(fallback)
    .transform((text, ctx) => {
      if (text.trim() === "off") return null;
      try {
        new Cron(text, { timezone: TIMEZONE });
        return text.trim();
      } catch (error) {
        ctx.addIssue({ code: "custom", message: `not a cron pattern: ${(error as Error).message}` });
        return z.NEVER;
      }
    });
