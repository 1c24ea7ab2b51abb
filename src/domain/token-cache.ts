// Remembers stored tokens for a short time so a busy client costs one token query per interval, not
// one per request. The interval is the bound on how long a revocation (or an account change) made
// through another replica can go unnoticed here; revocations through this process apply at once.
import { EventEmitter } from "node:events";
import { LRUCache } from "lru-cache";
import type { StoredToken, TokenLookup } from "./tokens.js";

/** The longest a cached token may be trusted: the documented bound for revocation across replicas. */
export const MAX_TOKEN_CACHE_MS = 1000;

const revocations = new EventEmitter().setMaxListeners(0);

/** Called by revokeToken once the revocation is committed. */
export function announceTokenRevoked(tokenId: string): void {
  revocations.emit("revoked", tokenId);
}

/** `lookup` with a cache in front: entries live `ttlMs` (at most MAX_TOKEN_CACHE_MS); 0 turns caching off. */
export function cachedTokenLookup(lookup: TokenLookup, { ttlMs, maxEntries = 10_000 }: { ttlMs: number; maxEntries?: number }): TokenLookup {
  if (ttlMs <= 0) return lookup;
  // Unknown tokens are not cached: forged tokens must not push real ones out.
  const cache = new LRUCache<string, StoredToken>({ max: maxEntries, ttl: Math.min(ttlMs, MAX_TOKEN_CACHE_MS) });
  const forget = (tokenId: string) => {
    for (const [secretHash, token] of cache.entries()) if (token.id === tokenId) cache.delete(secretHash);
  };
  revocations.on("revoked", forget);
  return async (secretHash) => {
    const cached = cache.get(secretHash);
    if (cached) return cached;
    const token = await lookup(secretHash);
    if (token) cache.set(secretHash, token);
    return token;
  };
}
