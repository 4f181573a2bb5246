/**
 * The delivery actor: claims due deliveries from the outbox under a lease, sends each through a
 * p-queue of bounded concurrency, and records every attempt. A delivery's pipeline:
 *
 *   claim (lease) → sign → POST with a deadline → record the attempt → delivered, or retry at
 *   the next step of the schedule (jittered, or when Retry-After says on 429/503), or give up.
 *
 * Any 2xx is delivered. 410 Gone disables the webhook at once. After the last scheduled retry
 * fails the webhook is disabled too. Every attempt of an event carries the same X-Webhook-ID so
 * receivers can drop duplicates: delivery is at least once, since a crash between a receiver's
 * 2xx and our commit means the event is sent again once the lease lapses.
 */
import { webhookAttempts } from "../metrics.ts";
import PQueue from "p-queue";
import { newId } from "../ids.ts";
import type { Dialect } from "../store/connect.ts";
import type { Db } from "../store/database.ts";
import {
  claimDueDeliveries,
  loadDeliveryWork,
  markCancelled,
  recordAttempt,
  releaseClaims,
  type AttemptRecord,
  type DeliveryWork,
} from "../store/deliveries.repository.ts";
import type { Delivery } from "../store/webhooks.tables.ts";
import { disableWebhook, noteEndpointAnswer } from "../store/webhooks.repository.ts";
import { allowedTargetsFor, type AllowedTargets } from "./address-guard.ts";
import { postJson, type PostResult } from "./post.ts";
import { parseRetryAfter, withJitter } from "./retry-schedule.ts";
import type { SecretBox } from "./secret-box.ts";
import { activeSecrets, signatureHeader } from "./sign.ts";
import { errorFields } from "../error-fields.ts";
import { isLockContention, retryOnLockContention } from "../store/lock-contention.ts";
import type { Logger } from "../log.ts";
import type { DeliverySettings } from "../config.ts";

export const USER_AGENT = "Buckeye-Webhook/1.0";

export type { DeliverySettings };


export interface DeliveryActorDeps {
  db: Db;
  dialect: Dialect;
  settings: DeliverySettings;
  secrets: SecretBox;
  log?: Logger;
  now?: () => Date;
  random?: () => number;
}

/**
 * Slots an instance lets endpoints in doubt hold (half, at least one): the rest stay free for
 * receivers that answer (docs/guides/webhooks-and-jobs.md, "Fairness between organizations").
 */
export function doubtfulSlotsOf(concurrency: number): number {
  return Math.max(1, Math.floor(concurrency / 2));
}

interface Verdict {
  outcome: AttemptRecord["outcome"];
  status: AttemptRecord["status"];
  nextAttemptAt: Date | null;
  disableReason: string | null;
}

export class DeliveryActor {
  readonly instance = newId("inst");
  readonly #deps: Required<DeliveryActorDeps>;
  readonly #queue: PQueue;
  #running = false;
  #stopping = false;
  #polling: Promise<void> | null = null;
  #pollAgain = false;
  #timer: NodeJS.Timeout | undefined;
  /** Claimed but not yet started: given back on shutdown. */
  readonly #waiting = new Set<string>();

  constructor(deps: DeliveryActorDeps) {
    this.#deps = { log: () => {}, now: () => new Date(), random: Math.random, ...deps };
    this.#queue = new PQueue({ concurrency: deps.settings.concurrency });
  }

  start(): void {
    this.#running = true;
    this.#stopping = false;
    this.wake();
  }

  /** Looks for due deliveries now, instead of at the next poll (called when events are published). */
  wake(): void {
    if (!this.#running || this.#stopping) return;
    if (this.#polling) {
      this.#pollAgain = true;
      return;
    }
    this.#polling = this.#poll().finally(() => {
      this.#polling = null;
      if (this.#pollAgain) {
        this.#pollAgain = false;
        this.wake();
      }
    });
  }

  /** Graceful shutdown: stop claiming, give back what has not started, let in-flight attempts finish. */
  async stop(): Promise<void> {
    this.#stopping = true;
    clearTimeout(this.#timer);
    await this.#polling;
    this.#queue.clear();
    await releaseClaims(this.#deps.db, this.instance, [...this.#waiting]).catch((error) =>
      this.#deps.log({ level: "error", msg: "releasing claims failed", ...errorFields(error) }),
    );
    this.#waiting.clear();
    await this.#queue.onIdle();
    this.#running = false;
  }

  /** Deliveries in flight or waiting for a slot in this process. */
  get busy(): number {
    return this.#queue.pending + this.#queue.size;
  }

  async #poll(): Promise<void> {
    clearTimeout(this.#timer);
    const { db, dialect, settings, log, now } = this.#deps;
    try {
      const free = settings.concurrency - this.busy;
      const at = now();
      const claimed = await claimDueDeliveries(db, dialect, {
        instance: this.instance,
        now: at,
        leaseUntil: new Date(at.getTime() + settings.leaseMs),
        limit: free,
        perOrganization: settings.perOrganization,
        doubtfulSlots: doubtfulSlotsOf(settings.concurrency),
      });
      for (const delivery of claimed) {
        this.#waiting.add(delivery.id);
        void this.#queue.add(() => this.#deliver(delivery));
      }
      if (free > 0 && claimed.length === free) this.#pollAgain = true;
    } catch (error) {
      // Another writer held the store's lock (a large job's commits on SQLite): the next poll claims them.
      if (isLockContention(error)) log({ level: "debug", msg: "claiming deliveries gave way to another writer; the next poll tries again", ...errorFields(error) });
      else log({ level: "error", msg: "claiming deliveries failed", ...errorFields(error) });
    } finally {
      if (!this.#stopping) {
        this.#timer = setTimeout(() => this.wake(), settings.pollIntervalMs);
        this.#timer.unref();
      }
    }
  }

  async #deliver(delivery: Delivery): Promise<void> {
    this.#waiting.delete(delivery.id);
    try {
      await this.#attempt(delivery);
    } catch (error) {
      // The claim lapses and another attempt follows; nothing is lost. Losing to another writer for that long is a state, not a fault.
      this.#deps.log({ level: isLockContention(error) ? "warn" : "error", msg: "delivery attempt failed to run", delivery_id: delivery.id, ...errorFields(error) });
    } finally {
      // Refill once half the slots are free: claims then come in batches, not one transaction per delivery.
      if (this.busy <= Math.ceil(this.#deps.settings.concurrency / 2)) this.wake();
    }
  }

  async #attempt(delivery: Delivery): Promise<void> {
    const { db, settings, secrets, log, now } = this.#deps;
    const work = await loadDeliveryWork(db, delivery);
    const attemptedAt = now();
    if (!work.webhook) {
      await retryOnLockContention(() => markCancelled(db, delivery.id, "the webhook was deleted", attemptedAt));
      return;
    }
    const timestamp = Math.floor(attemptedAt.getTime() / 1000);
    const number = delivery.attempts + 1;
    const signing = this.#signingSecrets(work.webhook, secrets, attemptedAt);
    // A secret that cannot be opened (SECRETS_KEY missing or changed) is a failed attempt, retried
    // on the schedule like any other, so the delivery goes out once the key is put right.
    const result: PostResult = signing.ok
      ? await postJson(
          work.webhook.url,
          work.payload,
          {
            "content-type": "application/json",
            "user-agent": USER_AGENT,
            "x-webhook-id": work.eventId,
            "x-webhook-timestamp": String(timestamp),
            "x-webhook-signature": signatureHeader(signing.secrets, timestamp, work.payload),
            "x-webhook-attempt": String(number),
          },
          { timeoutMs: settings.timeoutMs, allowed: allowedTargetsFor(work.webhook.env, settings.privateTargets) },
        )
      : { statusCode: null, retryAfter: null, error: `not sent: ${signing.error}`, cause: null, latencyMs: 0, response: null };
    if (result.cause) this.#deps.log({ level: "info", msg: "delivery attempt failed", delivery_id: delivery.id, cause: result.cause });
    const finishedAt = now();
    const verdict = this.#judge(result, number, work.eventType === "webhook.test", finishedAt);
    webhookAttempts.inc({ outcome: verdict.outcome });
    const webhookId = work.webhook.id;
    // A delivery that lost its claim meanwhile (the webhook was disabled, which cancelled it, and
    // perhaps set active again since) must not disable the webhook with its late failure.
    // The answer is in hand: recording it gives way to another writer and tries again, rather than let the claim lapse and send it twice.
    const disabled = await retryOnLockContention(() => db.transaction().execute(async (trx) => {
      const applied = await recordAttempt(trx, {
        deliveryId: delivery.id,
        instance: this.instance,
        number,
        attemptedAt,
        statusCode: result.statusCode,
        latencyMs: result.latencyMs,
        outcome: verdict.outcome,
        error: result.error ?? (verdict.outcome === "delivered" ? null : `HTTP ${result.statusCode}`),
        response: result.response,
        status: verdict.status,
        nextAttemptAt: verdict.nextAttemptAt,
        finishedAt,
      });
      if (!applied) return false;
      await noteEndpointAnswer(trx, webhookId, verdict.outcome === "delivered", finishedAt);
      if (!verdict.disableReason) return false;
      await disableWebhook(trx, webhookId, verdict.disableReason, finishedAt);
      return true;
    }));
    if (disabled) log({ level: "warn", msg: "webhook disabled", webhook_id: webhookId, reason: verdict.disableReason });
  }

  #signingSecrets(webhook: NonNullable<DeliveryWork["webhook"]>, box: SecretBox, at: Date): { ok: true; secrets: string[] } | { ok: false; error: string } {
    try {
      return { ok: true, secrets: activeSecrets(webhook, at).map((stored) => box.open(stored)) };
    } catch (error) {
      return { ok: false, error: error instanceof Error ? error.message : String(error) };
    }
  }

  /**
   * webhook.test is sent once, on request, so a failing test never retries for days nor disables
   * the webhook; only 410 Gone does, because the receiver asked for it.
   */
  #judge(result: PostResult, number: number, isTest: boolean, at: Date): Verdict {
    const { settings, random } = this.#deps;
    const code = result.statusCode;
    if (code !== null && code >= 200 && code < 300) {
      return { outcome: "delivered", status: "delivered", nextAttemptAt: null, disableReason: null };
    }
    if (code === 410) {
      return { outcome: "gone", status: "failed", nextAttemptAt: null, disableReason: "the receiver answered 410 Gone" };
    }
    const attempts = isTest ? 1 : settings.retrySchedule.length + 1;
    if (number >= attempts) {
      return {
        outcome: "failed",
        status: "failed",
        nextAttemptAt: null,
        disableReason: isTest ? null : `every one of ${attempts} attempts failed; the last: ${result.error ?? `HTTP ${code}`}`,
      };
    }
    const asked = code === 429 || code === 503 ? parseRetryAfter(result.retryAfter, at) : null;
    const delay = asked ?? withJitter(settings.retrySchedule[number - 1]!, random);
    return { outcome: "retry", status: "pending", nextAttemptAt: new Date(at.getTime() + delay), disableReason: null };
  }
}
