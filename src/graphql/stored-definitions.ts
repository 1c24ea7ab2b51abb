// Stored definitions by content. A release's metadataDigest is the SHA-256 of its stored text (the
// definition's canonical JSON) and releases never change, so a text read once serves every later
// read of any release with that digest. Reads therefore select the digest, not the text (up to 4 MiB
// per release; 1.4 MB for a list of 50 grant views), and the definitions a request does not find here
// are loaded by release id, in one statement per request.
import { createContextCache } from "@pothos/core";
import DataLoader from "dataloader";
import { LRUCache } from "lru-cache";
import type { ToolRelease } from "../db/generated/sqlite/client.js";
import { presentedSurface, type MiddlewareDefinition, type PresentedSurface } from "../domain/definitions/index.js";
import type { Context } from "./context.js";
import { serializesTo } from "./json-sources.js";

interface StoredDefinition {
  /** Parsed once, handed to every request (read-only). */
  definition: MiddlewareDefinition;
  /**
   * The stored text (canonical JSON) as UTF-8, when JSON.stringify(definition) is that text (see
   * `serializesTo`): REST bodies copy these bytes in place of the definition instead of encoding it.
   */
  utf8?: Buffer;
  /** The presented surface's part of `utf8`, when its serialization is found there. */
  presentedUtf8?: Buffer;
}

/** What a release row brings: its id and digest (the type's and the field's selections). */
export type DefinedRelease = Pick<ToolRelease, "id" | "metadataDigest">;

/**
 * Counted by stored text length: at most 16 MiB of it, however many definitions that is. In memory
 * that is up to ~3 times as much: the UTF-8 bytes, and the parsed objects (measured at 1.75 times the text).
 */
const MAX_TEXT_CHARACTERS = 16 * 1024 * 1024;
const known = new LRUCache<string, StoredDefinition>({ maxSize: MAX_TEXT_CHARACTERS });

function remember(digest: string, text: string): StoredDefinition {
  const definition = JSON.parse(text) as MiddlewareDefinition;
  const stored: StoredDefinition = { definition };
  if (serializesTo(definition, text)) {
    stored.utf8 = Buffer.from(text, "utf8");
    // The surface's text is part of the canonical text; found once, sliced without copying.
    const presented = JSON.stringify(presentedSurface(definition));
    const start = text.indexOf(presented);
    if (start >= 0) {
      const byteStart = Buffer.byteLength(text.slice(0, start), "utf8");
      stored.presentedUtf8 = stored.utf8.subarray(byteStart, byteStart + Buffer.byteLength(presented, "utf8"));
    }
  }
  known.set(digest, stored, { size: Math.max(1, text.length) });
  return stored;
}

/** One statement for every definition a request misses, however many fields ask. */
const textLoaderOf = createContextCache(
  (context: Context) =>
    new DataLoader<string, string>(async (releaseIds) => {
      const rows = await context.db.toolRelease.findMany({ where: { id: { in: [...releaseIds] } }, select: { id: true, definition: true } });
      const textById = new Map(rows.map((row) => [row.id, row.definition]));
      return releaseIds.map((id) => textById.get(id) ?? new Error(`tool release ${id} has no stored definition`));
    }),
);

/** The release's stored definition: at once when its digest is known, else after loading its text. */
function storedDefinitionOf(release: DefinedRelease, context: Context): StoredDefinition | Promise<StoredDefinition> {
  const stored = known.get(release.metadataDigest);
  if (stored) return stored;
  return textLoaderOf(context)
    .load(release.id)
    .then((text) => known.get(release.metadataDigest) ?? remember(release.metadataDigest, text));
}

/** `next(value)`, at once for a value, after it for a promise: known definitions resolve without a tick. */
export const mapMaybePromise = <T, R>(value: T | Promise<T>, next: (value: T) => R): R | Promise<R> => (value instanceof Promise ? value.then(next) : next(value));

/** The parsed definition. */
export function releaseDefinition(release: DefinedRelease, context: Context): MiddlewareDefinition | Promise<MiddlewareDefinition> {
  return mapMaybePromise(storedDefinitionOf(release, context), (stored) => stored.definition);
}

/** The whole parsed definition, its stored text noted for REST bodies when it serializes to it. */
export function wholeDefinition(release: DefinedRelease, context: Context): MiddlewareDefinition | Promise<MiddlewareDefinition> {
  return mapMaybePromise(storedDefinitionOf(release, context), (stored) => {
    if (stored.utf8) context.jsonSources.note(stored.definition, stored.utf8);
    return stored.definition;
  });
}

/** The presented surface (`scope.value.presented`), its part of the stored text noted for REST bodies. */
export function releasePresentedSurface(release: DefinedRelease, context: Context): PresentedSurface | Promise<PresentedSurface> {
  return mapMaybePromise(storedDefinitionOf(release, context), (stored) => {
    const presented = presentedSurface(stored.definition);
    if (stored.presentedUtf8) context.jsonSources.note(presented, stored.presentedUtf8);
    return presented;
  });
}
