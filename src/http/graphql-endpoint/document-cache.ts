// Yoga's cache of parsed documents (and of documents that failed to parse), bounded by the memory it
// holds: Yoga's default keeps 1,024 entries of any size, and documents padded with a comment or a
// long string (one token each, so within the token limit) held a gigabyte through hostile traffic.
import type { DocumentNode } from "graphql";
import { LRUCache } from "lru-cache";

export interface DocumentCacheLimits {
  maxEntries: number;
  /** Estimated bytes of all entries together. */
  maxBytes: number;
  /** A document whose entry would weigh more is parsed again each time, not kept. */
  maxEntryBytes: number;
}

const DOCUMENT_CACHE_LIMITS: Readonly<DocumentCacheLimits> = { maxEntries: 1000, maxBytes: 32 * 1024 * 1024, maxEntryBytes: 512 * 1024 };

/** What one parsed token and its AST node take, roughly (V8 objects with their fields). */
const BYTES_PER_TOKEN = 300;
/** A parse error (its message and location; its source is the key's string). */
const BYTES_PER_ERROR = 1024;

interface Cache<T> {
  get(key: string): T | undefined;
  set(key: string, value: T): void;
}

/** The text (UTF-16) plus the tokens graphql-js keeps linked from the document's location. */
function documentBytes(document: DocumentNode, text: string): number {
  let tokens = 0;
  for (let token = document.loc?.startToken ?? null; token; token = token.next) tokens += 1;
  return text.length * 2 + tokens * BYTES_PER_TOKEN;
}

function boundedCache<T extends object>(weigh: (value: T, key: string) => number, limits: Readonly<DocumentCacheLimits>): Cache<T> {
  const cache = new LRUCache<string, T>({
    max: limits.maxEntries,
    maxSize: limits.maxBytes,
    maxEntrySize: limits.maxEntryBytes,
    sizeCalculation: (value, key) => Math.max(1, weigh(value, key)),
  });
  return {
    get: (key) => cache.get(key),
    set: (key, value) => {
      // Cheap refusals first: the text alone says a document is too heavy to keep.
      if (key.length * 2 > limits.maxEntryBytes) return;
      cache.set(key, value);
    },
  };
}

/** Yoga's `parserAndValidationCache` option, with both caches bounded by `limits`. */
export function boundedParserCaches(limits: Readonly<DocumentCacheLimits> = DOCUMENT_CACHE_LIMITS) {
  return {
    documentCache: boundedCache<DocumentNode>((document, text) => documentBytes(document, text), limits),
    errorCache: boundedCache<object>((_error, text) => text.length * 2 + BYTES_PER_ERROR, limits),
    validationCache: true,
  };
}
