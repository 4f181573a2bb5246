/**
 * A circuit breaker for the geocoder upstream. After `failureThreshold` failures in a row it
 * opens for `cooldownMs`: calls are refused at once, so an outage costs nothing per request
 * while it lasts. Then one trial call is let through (half-open); success closes the circuit,
 * failure opens it for another cooldown. The clock is injected so tests never sleep.
 */
export interface BreakerOptions {
  failureThreshold: number;
  cooldownMs: number;
  now?: () => number;
}

export type BreakerState = "closed" | "open" | "half-open";

export class CircuitBreaker {
  readonly #threshold: number;
  readonly #cooldownMs: number;
  readonly #now: () => number;
  #failures = 0;
  #openUntil = 0;
  #trialInFlight = false;

  constructor(options: BreakerOptions) {
    this.#threshold = options.failureThreshold;
    this.#cooldownMs = options.cooldownMs;
    this.#now = options.now ?? Date.now;
  }

  get state(): BreakerState {
    if (this.#failures < this.#threshold) return "closed";
    return this.#now() < this.#openUntil ? "open" : "half-open";
  }

  /** Whole seconds until a call may be tried again; 0 when calls are allowed now. */
  retryAfterSeconds(): number {
    return Math.max(0, Math.ceil((this.#openUntil - this.#now()) / 1000));
  }

  /** True if a call may go out now. In half-open state only one trial call is allowed at a time. */
  tryAcquire(): boolean {
    const state = this.state;
    if (state === "closed") return true;
    if (state === "open" || this.#trialInFlight) return false;
    this.#trialInFlight = true;
    return true;
  }

  succeeded(): void {
    this.#failures = 0;
    this.#trialInFlight = false;
  }

  failed(): void {
    this.#failures++;
    this.#trialInFlight = false;
    if (this.#failures >= this.#threshold) this.#openUntil = this.#now() + this.#cooldownMs;
  }
}
