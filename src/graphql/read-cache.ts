// Answers a repeated read from memory while the database is in the state the answer was computed
// in. Every query, from /graphql or a /v1 route, runs through `execute` here: its key is the
// document, the operation, the variables and who asks (the whole account row authentication found);
// its entry remembers the data version read before it was executed (src/db/data-version.ts). A hit
// costs one small statement, which reads the version again, instead of the 3–5 a read needs; any
// change committed since, through any replica or process, makes the entry a miss. Only results
// without errors are kept; mutations and subscriptions never touch the cache.
import { getOperationAST, Kind, visit, type DocumentNode, type ExecutionArgs, type ExecutionResult } from "graphql";
import { LRUCache } from "lru-cache";
import type { DataVersionReader } from "../db/data-version.js";
import type { Context } from "./context.js";
import type { JsonText } from "./json-sources.js";

type Execute = (args: ExecutionArgs) => unknown;

interface Entry {
  version: string;
  data: Record<string, unknown>;
  /** `{"data":…}` as /graphql answers it, made on the first hit: serializing was 8 % of a hit's CPU. */
  json?: string;
  /** The stored JSON texts REST splices in place of values in `data` (json-sources.ts). */
  texts: readonly (readonly [object, JsonText])[];
}

export type ReadCacheOutcome = "hit" | "miss" | "uncacheable";

export interface ReadCacheStats {
  lookups: Record<ReadCacheOutcome, number>;
  entries: number;
  bytes: number;
}

export interface ReadCacheOptions {
  /** The memory entries may take, estimated from their JSON size; 0 turns the cache off. */
  maxBytes: number;
  dataVersion: DataVersionReader;
}

/** Variables longer than this as JSON are not worth a key (publication plans carry whole definitions). */
const MAX_VARIABLES_CHARS = 4096;
/** One entry may take at most this share of the cache, so one large list cannot empty it. */
const MAX_ENTRY_SHARE = 4;

export class ReadCache {
  readonly #entries: LRUCache<string, Entry> | undefined;
  readonly #dataVersion: DataVersionReader;
  readonly #lookups: Record<ReadCacheOutcome, number> = { hit: 0, miss: 0, uncacheable: 0 };

  constructor({ maxBytes, dataVersion }: ReadCacheOptions) {
    this.#dataVersion = dataVersion;
    if (maxBytes > 0) {
      this.#entries = new LRUCache<string, Entry>({ maxSize: maxBytes, maxEntrySize: Math.floor(maxBytes / MAX_ENTRY_SHARE), sizeCalculation: entrySize });
    }
  }

  /** `execute(args)`, or its remembered data when nothing was committed since it was computed. */
  async execute(args: ExecutionArgs, execute: Execute): Promise<unknown> {
    const key = this.#entries ? keyOf(args) : undefined;
    if (!this.#entries || key === undefined) {
      this.#lookups.uncacheable += 1;
      return execute(args);
    }
    let version: string;
    try {
      version = await this.#dataVersion();
    } catch {
      // The database is unreachable: the read fails (or succeeds) the way it would without a cache.
      this.#lookups.uncacheable += 1;
      return execute(args);
    }
    const context = args.contextValue as Context;
    const entry = this.#entries.get(key);
    if (entry?.version === version) {
      this.#lookups.hit += 1;
      for (const [value, text] of entry.texts) context.jsonSources.note(value, text);
      return hitResult(entry);
    }
    this.#lookups.miss += 1;
    // The version was read before executing, so an entry is never older than its version: a change
    // committed meanwhile may be in the data, and then the next lookup sees a newer version anyway.
    const result = (await execute(args)) as ExecutionResult;
    if (isPlainResult(result) && !result.errors && result.data) {
      this.#entries.set(key, { version, data: result.data, texts: context.jsonSources.entries() });
    }
    return result;
  }

  stats(): ReadCacheStats {
    return { lookups: { ...this.#lookups }, entries: this.#entries?.size ?? 0, bytes: this.#entries?.calculatedSize ?? 0 };
  }
}

const documentIds = new WeakMap<DocumentNode, string | null>();
let documentsSeen = 0;

/** The key of a cacheable query, or undefined. Yoga's parse cache hands out one document object per query text. */
function keyOf(args: ExecutionArgs): string | undefined {
  let documentId = documentIds.get(args.document);
  if (documentId === undefined) {
    documentId = hasIncrementalDelivery(args.document) ? null : String(++documentsSeen);
    documentIds.set(args.document, documentId);
  }
  if (documentId === null) return undefined;
  if (getOperationAST(args.document, args.operationName)?.operation !== "query") return undefined;
  const variables = JSON.stringify(args.variableValues ?? {});
  if (variables.length > MAX_VARIABLES_CHARS) return undefined;
  return `${documentId}\u0000${args.operationName ?? ""}\u0000${variables}\u0000${viewerKey(args.contextValue as Context)}`;
}

const viewerKeys = new WeakMap<object, string>();

/** Who asks, as everything a result may depend on: the account row (its admin flag, plan, name…). */
function viewerKey(context: Context): string {
  const { authentication } = context;
  if (authentication.kind !== "authenticated") return authentication.kind === "anonymous" ? "anonymous" : `rejected:${authentication.reason}`;
  let key = viewerKeys.get(authentication.actor);
  if (key === undefined) {
    key = JSON.stringify(authentication.actor);
    viewerKeys.set(authentication.actor, key);
  }
  return key;
}

/** @defer and @stream results arrive in parts; they are executed every time. */
function hasIncrementalDelivery(document: DocumentNode): boolean {
  let found = false;
  visit(document, {
    [Kind.DIRECTIVE]: (directive) => {
      if (directive.name.value === "defer" || directive.name.value === "stream") found = true;
    },
  });
  return found;
}

/**
 * A fresh result object per hit (plugins may add to it), which Yoga serializes with its `stringify`:
 * the entry's text, unless something was added to the result since.
 */
function hitResult(entry: Entry): ExecutionResult & { stringify(value: unknown): string } {
  const result = {
    data: entry.data,
    stringify: (value: unknown) =>
      value === result && result.errors === undefined && result.extensions === undefined ? (entry.json ??= JSON.stringify({ data: entry.data })) : JSON.stringify(value),
  } as ExecutionResult & { stringify(value: unknown): string };
  return result;
}

function isPlainResult(result: unknown): result is ExecutionResult {
  return typeof result === "object" && result !== null && !(Symbol.asyncIterator in result) && !("initialResult" in result);
}

/** The entry's JSON size, counting a spliced value as its stored text. */
function entrySize(entry: Entry): number {
  const spliced = new Set(entry.texts.map(([value]) => value));
  let textBytes = 0;
  for (const [, text] of entry.texts) textBytes += text.length;
  const rest = JSON.stringify(entry.data, (_key, value: unknown) => (typeof value === "object" && value !== null && spliced.has(value) ? 0 : value));
  return Math.max(1, rest.length + textBytes + entry.version.length);
}
