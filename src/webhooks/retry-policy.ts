// When a failed delivery is tried again: exponential backoff (×3 per failure, capped at 1,440 times
// the first delay) with ±20 % jitter, so that receivers coming back are not hit by every retry at once.
import type { RetryPolicy } from "../domain/webhook-deliveries.js";

const GROWTH = 3;
const CAP_FACTOR = 1440;
const JITTER = 0.2;

export function retryPolicy(firstDelayMs: number, maxConsecutiveFailures: number, random: () => number = Math.random): RetryPolicy {
  return {
    maxConsecutiveFailures,
    delayAfterFailure: (failures) => {
      const base = Math.min(firstDelayMs * GROWTH ** (failures - 1), firstDelayMs * CAP_FACTOR);
      return Math.round(base * (1 - JITTER + 2 * JITTER * random()));
    },
  };
}

/** The shortest time from the first failure to disabling: every delay at its lowest jitter. */
export function shortestRetrySpanMs(firstDelayMs: number, maxConsecutiveFailures: number): number {
  const lowest = retryPolicy(firstDelayMs, maxConsecutiveFailures, () => 0);
  let total = 0;
  for (let failures = 1; failures < maxConsecutiveFailures; failures += 1) total += lowest.delayAfterFailure(failures);
  return total;
}
