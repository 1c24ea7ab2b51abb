// Answers a repeated read with the bytes the pipeline gave it last time, while what the reader can see
// is in the state that answer was computed in. A read is `GET` on /v1, or a /graphql request (GET, or
// a POST of JSON); its key is everything the handler's answer depends on: method, path and query
// string, body, Accept, Content-Type and who asks (the whole account row authentication found). The
// reader's data version (src/db/data-version.ts: its account's head and the system's) is read before
// the handler runs; the answer is kept under it only when the handler executed a query without
// errors (the executors note that in the context: answerable.ts) and answered 200. A later identical request reads
// the version again (one small statement, shared by the reads of one turn of the event loop, instead
// of the 3–5 a read needs, and no GraphQL execution)
// and gets the kept bytes only if nothing it can see changed since, through any replica or process.
// Other accounts' writes leave its version alone. Administrators see everything, so their reads are
// never kept.
//
// Most answers are mostly stored definitions (a grant view's 5–50 KB, a list's fifty), which the
// definition cache keeps already. An answer keeps those by name and only its own bytes, so the same
// memory holds many times more answers; one whose definition has left the definition cache since
// is computed again.
import { LRUCache } from "lru-cache";
import type { DataVersionReader } from "../../db/data-version.js";
import type { Context } from "../../graphql/context.js";
import type { ReadCacheOutcome, ReadCacheStats } from "../../metrics/service-metrics.js";
import { byteResponse, KnownBody, knownBodyOf } from "../byte-body.js";
import { sha256Base64url } from "../pipeline/etag.js";

/** Where a kept answer's bytes are: its own, or a stored text's that the definition cache keeps, by name. */
type KeptChunk = Uint8Array | { storedText: string };

interface Answer {
  version: string;
  status: number;
  headers: [string, string][];
  body: KeptChunk[];
  /** The hash its ETag carries (src/http/pipeline/etag.ts), computed once per answer. */
  tag: string;
  /** The memory it holds itself: its own bytes, and the names of the rest. */
  ownBytes: number;
  /** The GraphQL operation it ran, for the request metrics. */
  operationName: string | undefined;
}

export interface ReadCacheOptions {
  /** The memory answers may take (their own bytes and keys); 0 turns the cache off. */
  maxBytes: number;
  dataVersion: DataVersionReader;
  /** The bytes of a stored text kept elsewhere, by the name a body's chunk gives it (byte-body.ts); none when omitted. */
  storedText?: ((name: string) => Uint8Array | undefined) | undefined;
}

/** Request bodies (and query strings) longer than this are not worth a key (publication plans carry whole definitions). */
const MAX_REQUEST_CHARS = 8192;
/** One answer may take at most this share of the cache, so one large list cannot empty it. */
const MAX_ANSWER_SHARE = 4;
/** What an answer costs beyond its bytes and key: the entry, its headers, the LRU's bookkeeping. */
const ANSWER_OVERHEAD_BYTES = 400;
/** What naming a stored text costs beyond the name: its object and the array's slot. */
const NAME_OVERHEAD_BYTES = 40;

export class ReadCache {
  readonly #answers: LRUCache<string, Answer> | undefined;
  readonly #dataVersion: DataVersionReader;
  readonly #storedText: (name: string) => Uint8Array | undefined;
  readonly #lookups: Record<ReadCacheOutcome, number> = { hit: 0, miss: 0, uncacheable: 0 };
  /** Reads being answered now, by version and key: what they will keep, or undefined. */
  readonly #running = new Map<string, Promise<Answer | undefined>>();

  constructor({ maxBytes, dataVersion, storedText }: ReadCacheOptions) {
    this.#dataVersion = dataVersion;
    this.#storedText = storedText ?? (() => undefined);
    if (maxBytes > 0) {
      this.#answers = new LRUCache<string, Answer>({
        maxSize: maxBytes,
        maxEntrySize: Math.floor(maxBytes / MAX_ANSWER_SHARE),
        sizeCalculation: (answer, key) => answer.ownBytes + key.length + ANSWER_OVERHEAD_BYTES,
      });
    }
  }

  /** `handle()`'s answer, or the one kept for the same request when nothing was committed since. `body`: the request's, as text. */
  async answer(request: Request, context: Context, body: string | undefined, handle: () => Promise<Response> | Response): Promise<Response> {
    const key = this.#answers ? keyOf(request, context, body) : undefined;
    const reader = readerOf(context);
    if (!this.#answers || key === undefined || reader === "administrator") return this.#uncacheable(handle);
    let version: string;
    try {
      version = await this.#dataVersion(reader);
    } catch (error) {
      // The database is unreachable: the read would fail the same way (503), after waiting as long
      // again for its own statements, so it fails now.
      this.#lookups.uncacheable += 1;
      throw error;
    }
    const kept = this.#answers.get(key);
    const replayed = kept?.version === version ? this.#replay(kept, context) : undefined;
    if (replayed) return replayed;
    // The same read at the same version already running (many clients asking right after a change):
    // its answer is as valid here as a kept one, so it is shared rather than computed again.
    const flight = `${version}\u0001${key}`;
    const running = this.#running.get(flight);
    if (running) {
      const shared = await running;
      const replayedShared = shared && this.#replay(shared, context);
      if (replayedShared) return replayedShared;
    }
    this.#lookups.miss += 1;
    let settle!: (answer: Answer | undefined) => void;
    if (!running) this.#running.set(flight, new Promise((resolve) => (settle = resolve)));
    let answer: Answer | undefined;
    try {
      const response = await this.#execute(context, version, handle);
      answer = response.answer;
      if (answer) this.#answers.set(key, answer);
      return response.response;
    } finally {
      if (!running) {
        this.#running.delete(flight);
        settle(answer);
      }
    }
  }

  stats(): ReadCacheStats {
    return { lookups: { ...this.#lookups }, bytes: this.#answers?.calculatedSize ?? 0 };
  }

  /** The kept answer, unless a stored text it names has left the definition cache. */
  #replay(answer: Answer, context: Context): Response | undefined {
    const chunks: Uint8Array[] = [];
    for (const chunk of answer.body) {
      const bytes = chunk instanceof Uint8Array ? chunk : this.#storedText(chunk.storedText);
      if (!bytes) return undefined;
      chunks.push(bytes);
    }
    this.#lookups.hit += 1;
    context.answer.operationName = answer.operationName;
    return byteResponse(new KnownBody(chunks, answer.tag), { status: answer.status, headers: answer.headers });
  }

  /** Runs the handler; its answer may be kept when the executor said so (context.answer) and it is a 200. */
  async #execute(context: Context, version: string, handle: () => Promise<Response> | Response): Promise<{ response: Response; answer?: Answer }> {
    context.answer.keepable = false;
    // The version was read before the handler ran, so an answer is never older than its version: a
    // change committed meanwhile may be in it, and then the next request reads a newer version anyway.
    const response = await handle();
    if (!context.answer.keepable || response.status !== 200) return { response };
    const known = knownBodyOf(response);
    const body = known?.tag ? known : tagged(known?.bytes ?? new Uint8Array(await response.arrayBuffer()));
    const answer: Answer = {
      version,
      status: response.status,
      headers: [...response.headers],
      ...this.#kept(body),
      tag: body.tag!,
      operationName: context.answer.operationName,
    };
    return { response: byteResponse(body, { status: answer.status, headers: answer.headers }), answer };
  }

  /** `body`'s chunks as an answer keeps them: the stored texts kept elsewhere by name, the rest as they are. */
  #kept(body: KnownBody): { body: KeptChunk[]; ownBytes: number } {
    let ownBytes = 0;
    const kept = body.chunks.map((chunk, index): KeptChunk => {
      const storedText = body.storedTexts[index];
      if (storedText !== undefined && this.#storedText(storedText)?.byteLength === chunk.byteLength) {
        ownBytes += storedText.length + NAME_OVERHEAD_BYTES;
        return { storedText };
      }
      ownBytes += chunk.byteLength;
      return chunk;
    });
    return { body: kept, ownBytes };
  }

  async #uncacheable(handle: () => Promise<Response> | Response): Promise<Response> {
    this.#lookups.uncacheable += 1;
    return handle();
  }
}

const READ_METHODS = new Set(["GET", "HEAD"]);
const GRAPHQL_PATH = /^\/graphql\/?$/;

/** The request's key, or undefined when it is not a read that may be kept. */
function keyOf(request: Request, context: Context, body: string | undefined): string | undefined {
  const url = new URL(request.url);
  const graphql = GRAPHQL_PATH.test(url.pathname);
  if (!READ_METHODS.has(request.method) && !(graphql && request.method === "POST")) return undefined;
  if ((body?.length ?? 0) > MAX_REQUEST_CHARS || url.search.length > MAX_REQUEST_CHARS) return undefined;
  if (body !== undefined && opensWithWrite(body)) return undefined;
  const accept = graphql ? (request.headers.get("accept") ?? "") : "";
  const contentType = graphql ? (request.headers.get("content-type") ?? "") : "";
  // HEAD is answered by GET's handler; the representation step drops the body.
  return [READ_METHODS.has(request.method) ? "GET" : request.method, url.pathname + url.search, accept, contentType, viewerKey(context), body ?? ""].join(
    "\u0000",
  );
}

/** Whose version an answer is kept under: the account's, none for an anonymous or refused request. */
function readerOf(context: Context): string | null | "administrator" {
  const { authentication } = context;
  if (authentication.kind !== "authenticated") return null;
  return authentication.actor.admin ? "administrator" : authentication.actor.id;
}

/** A document that begins with a mutation or subscription: never kept, so not looked up at all. */
const WRITE_OPERATION = /^(?:[\s,\uFEFF]|#[^\n\r]*)*(?:mutation|subscription)\b/;

/**
 * Whether a /graphql body's document opens with a write. A document that does not say so at once
 * (a query first, a persisted query) is looked up as a read, and its executor decides.
 */
function opensWithWrite(body: string): boolean {
  // Most reads name neither word: they are not parsed here a second time (Yoga parses the body too).
  if (!body.includes("mutation") && !body.includes("subscription")) return false;
  try {
    const { query } = JSON.parse(body) as { query?: unknown };
    return typeof query === "string" && WRITE_OPERATION.test(query);
  } catch {
    return false;
  }
}

const viewerKeys = new WeakMap<object, string>();

/** Who asks, as everything an answer may depend on: the account row (its admin flag, plan, name…). */
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

/** `bytes` with the hash of its ETag. */
const tagged = (bytes: Uint8Array) => new KnownBody([bytes], sha256Base64url(bytes));
