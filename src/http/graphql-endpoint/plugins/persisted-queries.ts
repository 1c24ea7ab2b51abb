// Automatic persisted queries (Apollo's APQ protocol) on /graphql, with Yoga's maintained plugin: a
// client sends `extensions.persistedQuery.sha256Hash` alone; PERSISTED_QUERY_NOT_FOUND asks it to
// send the query too, which is then stored under the hash. Errors come from the one error table.
import { useAPQ, type APQStore } from "@graphql-yoga/plugin-apq";
import { GraphQLError } from "graphql";
import type { Plugin } from "graphql-yoga";
import { LRUCache } from "lru-cache";
import { DomainError } from "../../../domain/errors.js";
import { graphQLErrorFor } from "../../../graphql/error-codes.js";

export interface PersistedQueryLimits {
  maxQueries: number;
  maxTotalChars: number;
  ttlMs: number;
}

/** The store's bounds: a hash-flood evicts the least recently used queries; memory stays bounded. */
export const PERSISTED_QUERY_LIMITS: Readonly<PersistedQueryLimits> = {
  /** Queries kept at most. */
  maxQueries: 1000,
  /** Characters of query text kept at most, all queries together (~16 MB of UTF-16). */
  maxTotalChars: 8 * 1024 * 1024,
  /** A query unused this long is forgotten (the client sends it again on PERSISTED_QUERY_NOT_FOUND). */
  ttlMs: 24 * 60 * 60 * 1000,
};

export function createPersistedQueryStore(limits: Readonly<PersistedQueryLimits> = PERSISTED_QUERY_LIMITS): APQStore {
  const cache = new LRUCache<string, string>({
    max: limits.maxQueries,
    maxSize: limits.maxTotalChars,
    sizeCalculation: (query) => Math.max(1, query.length),
    ttl: limits.ttlMs,
    updateAgeOnGet: true,
  });
  return {
    get: (hash) => cache.get(hash) ?? null,
    // A query longer than the whole budget is not stored (lru-cache refuses it); it still runs.
    set: (hash, query) => {
      cache.set(hash, query);
    },
  };
}

const CODES = { PERSISTED_QUERY_NOT_FOUND: "PERSISTED_QUERY_NOT_FOUND", PERSISTED_QUERY_MISMATCH: "PERSISTED_QUERY_MISMATCH" } as const;

export function usePersistedQueries(store: APQStore = createPersistedQueryStore()): Plugin {
  const apq = useAPQ({ store }) as Plugin;
  const onParams = apq.onParams!;
  return {
    async onParams(payload) {
      try {
        await onParams(payload);
      } catch (error) {
        const code = error instanceof GraphQLError ? CODES[error.extensions.code as keyof typeof CODES] : undefined;
        // The plugin's message ("PersistedQueryNotFound") is what Apollo Client's link looks for.
        throw code ? graphQLErrorFor(new DomainError(code, error instanceof Error ? error.message : String(error))) : error;
      }
    },
  };
}
