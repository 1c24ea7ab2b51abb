// Stored definitions by content. A release's metadataDigest is the SHA-256 of its stored text (the
// definition's canonical JSON) and releases never change, so a text read once serves every later
// read of any release with that digest, for as long as the app's DefinitionCache keeps it. Reads
// therefore select the digest, not the text (up to 4 MiB per release; 1.4 MB for a list of 50 grant
// views), and the definitions a request does not find here are loaded by release id, in one
// statement per request sent below Prisma's engine (src/db/definition-texts.ts). The text is handed
// out as it is (JsonText): a REST body copies its bytes, and only a caller that needs the value
// parses it.
import { createContextCache } from "@pothos/core";
import DataLoader from "dataloader";
import { LRUCache } from "lru-cache";
import { definitionTextsOf } from "../db/client.js";
import type { DefinitionCacheStats } from "../metrics/service-metrics.js";
import type { ToolRelease } from "../db/generated/sqlite/client.js";
import { presentedSurface, type MiddlewareDefinition, type PresentedSurface } from "../domain/definitions/index.js";
import { presentedRange } from "../domain/definitions/presented-range.js";
import type { Context } from "./context.js";
import { JsonText } from "./json-text.js";

interface StoredDefinition {
  /** The stored text (canonical JSON) as UTF-8, never written to: REST bodies copy it in place. */
  utf8: Buffer;
  /**
   * Where the presented surface's serialization lies in `utf8`, found the first time a release's
   * surface is read (undefined until then; null when the text holds no such run of bytes).
   */
  presented?: { start: number; end: number } | null;
}

/** What a presented surface's identity adds to its definition's digest. */
const PRESENTED = "#presented";

/** What a release row brings: its id and digest (the type's and the field's selections). */
export type DefinedRelease = Pick<ToolRelease, "id" | "metadataDigest">;

/**
 * The stored texts a process keeps, by digest, up to `maxBytes` of text (0: none kept); only the
 * text, values are parsed when a caller needs one. Three of four reads on the many-tenant benchmark
 * carry a definition, so its size decides how often a read costs a statement more
 * (docs/performance.md, "Switches").
 */
export class DefinitionCache {
  readonly #known: LRUCache<string, StoredDefinition> | undefined;
  readonly #lookups = { hit: 0, miss: 0 };

  constructor(maxBytes: number) {
    this.#known = maxBytes > 0 ? new LRUCache<string, StoredDefinition>({ maxSize: maxBytes }) : undefined;
  }

  /** The text kept for `digest`, counted as a hit or a miss. */
  get(digest: string): StoredDefinition | undefined {
    const stored = this.#known?.get(digest);
    this.#lookups[stored ? "hit" : "miss"] += 1;
    return stored;
  }

  /** The text read for `digest`: the one kept already, else `utf8`, kept from now on. */
  remember(digest: string, utf8: Buffer): StoredDefinition {
    const known = this.#known?.get(digest);
    if (known) return known;
    const stored: StoredDefinition = { utf8 };
    this.#known?.set(digest, stored, { size: Math.max(1, utf8.byteLength) });
    return stored;
  }

  /**
   * The bytes of a stored text this cache keeps, by the identity its JsonText carries (a digest,
   * or a digest's presented surface), without counting a lookup: how the read cache's answers hold
   * their definitions (src/http/api/read-cache.ts). Undefined once the text has left the cache.
   */
  keptText(identity: string): Uint8Array | undefined {
    const presented = identity.endsWith(PRESENTED);
    const stored = this.#known?.get(presented ? identity.slice(0, -PRESENTED.length) : identity);
    if (!presented) return stored?.utf8;
    return stored?.presented ? stored.utf8.subarray(stored.presented.start, stored.presented.end) : undefined;
  }

  stats(): DefinitionCacheStats {
    return { lookups: { ...this.#lookups }, bytes: this.#known?.calculatedSize ?? 0 };
  }
}

const parsed = (utf8: Buffer) => JSON.parse(utf8.toString("utf8")) as MiddlewareDefinition;

/** One statement for every definition a request misses, however many fields ask. */
const textLoaderOf = createContextCache(
  (context: Context) =>
    new DataLoader<string, Buffer>(async (releaseIds) => {
      const textById = await definitionTextsOf(context.db)(releaseIds);
      return releaseIds.map((id) => textById.get(id) ?? new Error(`tool release ${id} has no stored definition`));
    }),
);

/** The release's stored definition: at once when its digest is known, else after loading its text. */
function storedDefinitionOf(release: DefinedRelease, context: Context): StoredDefinition | Promise<StoredDefinition> {
  const stored = context.definitions.get(release.metadataDigest);
  if (stored) return stored;
  return textLoaderOf(context)
    .load(release.id)
    .then((text) => context.definitions.remember(release.metadataDigest, text));
}

/** `next(value)`, at once for a value, after it for a promise: known definitions resolve without a tick. */
export const mapMaybePromise = <T, R>(value: T | Promise<T>, next: (value: T) => R): R | Promise<R> =>
  value instanceof Promise ? value.then(next) : next(value);

/** The parsed definition. */
export function releaseDefinition(release: DefinedRelease, context: Context): MiddlewareDefinition | Promise<MiddlewareDefinition> {
  return mapMaybePromise(storedDefinitionOf(release, context), (stored) => parsed(stored.utf8));
}

/** The whole definition as its stored text. */
export function wholeDefinition(release: DefinedRelease, context: Context): JsonText | Promise<JsonText> {
  return mapMaybePromise(storedDefinitionOf(release, context), (stored) => new JsonText(stored.utf8, release.metadataDigest));
}

/** The presented surface (`scope.value.presented`): its part of the stored text, or the value when the text has no such part. */
export function releasePresentedSurface(release: DefinedRelease, context: Context): JsonText | PresentedSurface | Promise<JsonText | PresentedSurface> {
  return mapMaybePromise(storedDefinitionOf(release, context), (stored) => {
    if (stored.presented === undefined) stored.presented = presentedRange(stored.utf8);
    if (stored.presented === null) return presentedSurface(parsed(stored.utf8));
    return new JsonText(stored.utf8.subarray(stored.presented.start, stored.presented.end), `${release.metadataDigest}${PRESENTED}`);
  });
}
