// Rate limiting with token buckets: each key (an API token, or a client address for requests without a valid token)
// holds up to `burst` requests and regains `perSecond` of them every second. A request that finds
// its bucket empty is refused with 429 RATE_LIMITED and told how long to wait (Retry-After).
import { createHash } from "node:crypto";
import { LRUCache } from "lru-cache";
import type { Authentication } from "../../domain/actor.js";
import { clientAddress } from "./client-address.js";

interface BucketLimits {
  /** Sustained requests per second; 0 turns the limit off. */
  perSecond: number;
  /** Requests a full bucket allows at once. */
  burst: number;
}

type TakeResult = { allowed: true } | { allowed: false; retryAfterSeconds: number };

interface Bucket {
  tokens: number;
  updatedAt: number;
}

/**
 * Buckets are kept for the most recently seen keys only, so a flood of distinct keys costs bounded
 * memory; an evicted key comes back with a full bucket, which only favours the client.
 */
export const MAX_TRACKED_KEYS = 100_000;

class TokenBuckets {
  // Bounded by `maxSize` (one per key) rather than `max`, with which the cache allocates room for
  // every key up front, held even while rate limits are off.
  private readonly buckets = new LRUCache<string, Bucket>({ maxSize: MAX_TRACKED_KEYS, sizeCalculation: () => 1 });

  constructor(private readonly limits: BucketLimits) {}

  get enabled(): boolean {
    return this.limits.perSecond > 0;
  }

  take(key: string, now = performance.now()): TakeResult {
    if (!this.enabled) return { allowed: true };
    const { perSecond, burst } = this.limits;
    const bucket = this.buckets.get(key) ?? { tokens: burst, updatedAt: now };
    bucket.tokens = Math.min(burst, bucket.tokens + ((now - bucket.updatedAt) / 1000) * perSecond);
    bucket.updatedAt = now;
    this.buckets.set(key, bucket);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return { allowed: true };
    }
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((1 - bucket.tokens) / perSecond)) };
  }
}

/** Token buckets per API token and per client address (TOOLGATE_RATE_LIMIT_*, src/config.ts). */
export interface RateLimitConfig {
  perToken: { perSecond: number; burst: number };
  /** Requests without a valid token, per client address. */
  anonymous: { perSecond: number; burst: number };
  /** Take the client address from the last X-Forwarded-For entry (set by the proxy in front). */
  trustProxy: boolean;
}

export interface RateLimiter {
  /** Charges the request to its API token when it has a valid one, otherwise to its client address. */
  take(authentication: Authentication, request: Request, socketAddress: string | undefined): TakeResult;
}

export function createRateLimiter(config: RateLimitConfig): RateLimiter {
  const perToken = new TokenBuckets(config.perToken);
  const perAddress = new TokenBuckets(config.anonymous);
  return {
    take(authentication, request, socketAddress) {
      if (authentication.kind === "authenticated") {
        // Only the hash of a valid token's header is kept, never the secret.
        return perToken.take(
          createHash("sha256")
            .update(request.headers.get("authorization") ?? "")
            .digest("base64url"),
        );
      }
      return perAddress.take(clientAddress(request, socketAddress, config.trustProxy));
    },
  };
}
