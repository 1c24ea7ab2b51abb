// The rate limiter's buckets are bounded by key count: the most recently seen 100,000 keys keep
// theirs, an older one comes back with a full bucket.
import { describe, expect, it } from "vitest";
import { createRateLimiter, MAX_TRACKED_KEYS } from "../../src/http/api/rate-limit.js";

const anonymous = { kind: "anonymous" } as const;
const request = new Request("http://127.0.0.1/v1/tool-releases");

function limiter() {
  return createRateLimiter({ perToken: { perSecond: 0, burst: 0 }, anonymous: { perSecond: 0.001, burst: 2 }, trustProxy: false });
}

/** Spends the address's burst, so that its next request is refused while its bucket is kept. */
function exhaust(rateLimiter: ReturnType<typeof limiter>, address: string): void {
  expect(rateLimiter.take(anonymous, request, address).allowed).toBe(true);
  expect(rateLimiter.take(anonymous, request, address).allowed).toBe(true);
  expect(rateLimiter.take(anonymous, request, address).allowed).toBe(false);
}

function floodWith(rateLimiter: ReturnType<typeof limiter>, count: number): void {
  for (let index = 0; index < count; index++) rateLimiter.take(anonymous, request, `10.${index >> 16}.${(index >> 8) & 255}.${index & 255}`);
}

describe("rate limit buckets", () => {
  it("keeps the bucket of an address while fewer than the tracked maximum of other addresses came after it", () => {
    const rateLimiter = limiter();
    exhaust(rateLimiter, "192.0.2.1");
    floodWith(rateLimiter, MAX_TRACKED_KEYS - 1);
    expect(rateLimiter.take(anonymous, request, "192.0.2.1").allowed).toBe(false);
  });

  it("forgets the least recently seen address past the maximum, which then starts with a full bucket", () => {
    const rateLimiter = limiter();
    exhaust(rateLimiter, "192.0.2.1");
    floodWith(rateLimiter, MAX_TRACKED_KEYS);
    expect(rateLimiter.take(anonymous, request, "192.0.2.1").allowed).toBe(true);
  });
});
