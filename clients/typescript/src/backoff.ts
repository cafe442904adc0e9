// How long to wait between attempts after the connection to the server was lost.

import { describeError, isTransient, retryDelayMs } from "./client.js";

/** When and how often to try again; the Rust SDK's `ReconnectPolicy` defaults. */
export interface ReconnectPolicy {
  /** The wait before the first retry after a failure. */
  firstDelayMs: number;
  /** No wait is longer than this. */
  maxDelayMs: number;
  /** Each wait is this many times the one before. */
  multiplier: number;
  /** The share of each wait drawn at random (0 to 1), so bots cut off together spread out. */
  jitter: number;
  /** Give up when failures have gone on this long without a success in between. */
  giveUpAfterMs: number;
}

/** 100 ms doubling up to 5 s, half of each drawn at random, giving up after a minute. */
export const DEFAULT_RECONNECT: ReconnectPolicy = {
  firstDelayMs: 100,
  maxDelayMs: 5_000,
  multiplier: 2,
  jitter: 0.5,
  giveUpAfterMs: 60_000,
};

export class Backoff {
  private nextDelayMs: number;
  private failingSince: number | undefined;
  private attempts = 0;

  constructor(
    private readonly policy: ReconnectPolicy = DEFAULT_RECONNECT,
    private readonly log: (line: string) => void = (line) => console.error(line),
  ) {
    this.nextDelayMs = policy.firstDelayMs;
  }

  /** A call got through: the next failure starts again from the first delay. */
  succeeded(): void {
    this.nextDelayMs = this.policy.firstDelayMs;
    this.failingSince = undefined;
    this.attempts = 0;
  }

  /**
   * Waits before the next attempt after `error`. Throws `error` itself when retrying cannot
   * help (the server refused the request), and gives up once failures have gone on too long.
   */
  async wait(error: unknown, what: string): Promise<void> {
    if (!isTransient(error)) {
      throw error;
    }
    const now = Date.now();
    this.failingSince ??= now;
    this.attempts += 1;
    const failingFor = now - this.failingSince;
    const left = this.policy.giveUpAfterMs - failingFor;
    if (left <= 0) {
      throw new Error(
        `${what}: gave up after ${this.attempts} attempts over ${(failingFor / 1000).toFixed(1)} s; ` +
          `the last error: ${describeError(error)}`,
      );
    }
    const nominal = Math.min(this.nextDelayMs, this.policy.maxDelayMs);
    this.nextDelayMs = Math.min(nominal * Math.max(this.policy.multiplier, 1), this.policy.maxDelayMs);
    const jitter = Math.min(Math.max(this.policy.jitter, 0), 1);
    // At least what the server asked for; one last attempt right at the limit rather than a
    // wait past it.
    const delay = Math.min(Math.max(nominal * (1 - jitter * Math.random()), retryDelayMs(error) ?? 0), left);
    this.log(`${what}: connection lost (${describeError(error)}); retrying in ${Math.round(delay)} ms`);
    await sleep(delay);
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
