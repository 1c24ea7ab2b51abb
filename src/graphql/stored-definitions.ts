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
import { serializesTo, type JsonSources } from "./json-sources.js";

interface StoredDefinition {
  /** The stored text: canonical JSON. */
  text: string;
  /** Parsed once, handed to every request (read-only). */
  definition: MiddlewareDefinition;
  /** Whether JSON.stringify(definition) is `text`, so REST bodies may splice the text (see `serializesTo`). */
  spliceable: boolean;
  /** Where the presented surface's JSON text lies in `text`; null when it is not there; found on first use. */
  presentedSpan?: { start: number; end: number } | null;
}

/** What a release row brings: its id and digest (the type's and the field's selections). */
export type DefinedRelease = Pick<ToolRelease, "id" | "metadataDigest">;

/**
 * Counted by text length: at most 32 MiB of stored text (the parsed objects take a few times that in
 * the heap), and at most 1,000 definitions.
 */
const MAX_TEXT_CHARACTERS = 32 * 1024 * 1024;
const known = new LRUCache<string, StoredDefinition>({ max: 1000, maxSize: MAX_TEXT_CHARACTERS, sizeCalculation: (stored) => Math.max(1, stored.text.length) });

function remember(digest: string, text: string): StoredDefinition {
  const definition = JSON.parse(text) as MiddlewareDefinition;
  const stored = { text, definition, spliceable: serializesTo(definition, text) };
  known.set(digest, stored);
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

const then = <T, R>(value: T | Promise<T>, next: (value: T) => R): R | Promise<R> => (value instanceof Promise ? value.then(next) : next(value));

/** The parsed definition. */
export function releaseDefinition(release: DefinedRelease, context: Context): MiddlewareDefinition | Promise<MiddlewareDefinition> {
  return then(storedDefinitionOf(release, context), (stored) => stored.definition);
}

/** The whole parsed definition, its stored text noted for REST bodies when it serializes to it. */
export function wholeDefinition(release: DefinedRelease, context: Context): MiddlewareDefinition | Promise<MiddlewareDefinition> {
  return then(storedDefinitionOf(release, context), (stored) => {
    if (stored.spliceable) context.jsonSources.note(stored.definition, stored.text);
    return stored.definition;
  });
}

/**
 * The presented surface (`scope.value.presented`), its text noted for REST bodies as a slice of the
 * stored text (V8 slices without copying); the surface is part of the canonical text.
 */
export function releasePresentedSurface(release: DefinedRelease, context: Context): PresentedSurface | Promise<PresentedSurface> {
  return then(storedDefinitionOf(release, context), (stored) => {
    const presented = presentedSurface(stored.definition);
    notePresentedText(stored, presented, context.jsonSources);
    return presented;
  });
}

function notePresentedText(stored: StoredDefinition, presented: PresentedSurface, sources: JsonSources): void {
  if (stored.presentedSpan === undefined) {
    const text = JSON.stringify(presented);
    const start = stored.text.indexOf(text);
    stored.presentedSpan = start < 0 ? null : { start, end: start + text.length };
  }
  const span = stored.presentedSpan;
  if (span) sources.note(presented, stored.text.slice(span.start, span.end));
}
