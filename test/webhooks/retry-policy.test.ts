// The retry schedule: exponential backoff with jitter, and with the defaults at least 24 hours of
// retries before a webhook is disabled.
import { describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config.js";
import { retryPolicy, shortestRetrySpanMs } from "../../src/webhooks/retry-policy.js";

describe("webhook retries", () => {
  it("wait 3 times longer after each failure, capped, within ±20 %", () => {
    const middle = retryPolicy(10_000, 15, () => 0.5);
    expect([1, 2, 3, 4].map((failures) => middle.delayAfterFailure(failures))).toEqual([10_000, 30_000, 90_000, 270_000]);
    expect(middle.delayAfterFailure(14)).toBe(10_000 * 1440);
    const lowest = retryPolicy(10_000, 15, () => 0);
    const highest = retryPolicy(10_000, 15, () => 0.999999);
    expect(lowest.delayAfterFailure(2)).toBe(24_000);
    expect(highest.delayAfterFailure(2)).toBe(36_000);
  });

  it("keep retrying for at least 24 hours with the default settings before disabling", () => {
    const { webhooks } = loadConfig({});
    expect(webhooks).toMatchObject({ firstRetryMs: 10_000, maxFailures: 15 });
    expect(shortestRetrySpanMs(webhooks.firstRetryMs, webhooks.maxFailures)).toBeGreaterThanOrEqual(24 * 3600 * 1000);
  });
});
