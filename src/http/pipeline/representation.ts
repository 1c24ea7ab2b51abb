// The last step before a response leaves: its cache policy, ETag and 304, its content coding, and
// no body for HEAD. Successful reads of /v1 and /graphql (GET and HEAD answering 200) are
// revalidated with a strong ETag; everything else (errors, writes, health checks) is never stored.
import { cancelledWhenAbandoned } from "./abandoned-streams.js";
import type { Exchange, Middleware } from "./middleware.js";
import { byteResponse, KnownBody, knownBodyOf } from "../byte-body.js";
import {
  compressionStream,
  createCompressedBodyCache,
  isCompressible,
  MIN_COMPRESSED_BYTES,
  negotiateContentCoding,
  type ContentCoding,
} from "./compression.js";
import { ifNoneMatchMatches, strongETag } from "./etag.js";

/**
 * Every read depends on the caller's token: shared caches must not store it, and a client's cache
 * must ask again (a 304 is cheap) because grants and lifecycles change.
 */
const CACHE_CONTROL_READ = "private, no-cache";
export const CACHE_CONTROL_OTHER = "no-store";

// Also the pages about the API (api-reference.ts): /, /v1, /openapi.json, /docs and its bundle.
const REVALIDATED_PATH = /^\/(?:v1\/|graphql\/?$|$|v1$|openapi\.json$|docs\/?$|docs\/assets\/)/;

/** Headers a 304 carries over from the 200 it stands for (RFC 9110 15.4.5). */
const NOT_MODIFIED_HEADERS = ["cache-control", "etag", "vary", "content-location", "date", "expires"];

/** The step: every answer leaves through `represent`. */
export function representation(): Middleware {
  const represent = createRepresentation();
  return async (request, exchange, next) => represent(request, await next(), exchange);
}

type Represent = (request: Request, response: Response, exchange: Pick<Exchange, "abandonment" | "url">) => Promise<Response>;

function createRepresentation(): Represent {
  const compressedBodies = createCompressedBodyCache();

  /** A 200 read: buffered (it is one JSON or HTML string already), tagged, maybe 304, maybe compressed. */
  const revalidated = async (request: Request, response: Response, coding: ContentCoding | undefined): Promise<Response> => {
    const body = knownBodyOf(response) ?? new KnownBody([new Uint8Array(await response.arrayBuffer())]);
    const used = coding && body.byteLength >= MIN_COMPRESSED_BYTES ? coding : undefined;
    const etag = strongETag(body, used);
    const headers = new Headers(response.headers);
    headers.set("etag", etag);
    // Pages that are the same for everyone say so themselves (api-reference.ts).
    if (!headers.has("cache-control")) headers.set("cache-control", CACHE_CONTROL_READ);
    if (ifNoneMatchMatches(request.headers.get("if-none-match"), etag)) {
      const notModified = new Headers();
      for (const name of NOT_MODIFIED_HEADERS) {
        const value = headers.get(name);
        if (value !== null) notModified.set(name, value);
      }
      return new Response(null, { status: 304, headers: notModified });
    }
    const sent = used ? await compressedBodies.compress(etag, body.bytes as Uint8Array<ArrayBuffer>, used) : body;
    if (used) headers.set("content-encoding", used);
    headers.set("content-length", String(sent.byteLength));
    const init = { status: response.status, statusText: response.statusText, headers };
    return request.method === "HEAD" ? new Response(null, init) : byteResponse(sent, init);
  };

  /** Anything else: streamed through, compressed once it proves to be at least MIN_COMPRESSED_BYTES long. */
  const streamed = async (
    request: Request,
    response: Response,
    compressible: boolean,
    coding: ContentCoding | undefined,
    exchange: Pick<Exchange, "abandonment">,
  ): Promise<Response> => {
    const headers = new Headers(response.headers);
    if (!headers.has("cache-control")) headers.set("cache-control", CACHE_CONTROL_OTHER);
    if (!hasBody(response) || response.status === 204 || response.status === 304) {
      return new Response(null, { status: response.status, statusText: response.statusText, headers });
    }
    const init = { status: response.status, statusText: response.statusText, headers };
    // A body in hand that will not be compressed is sent as it is (node-response.ts).
    const known = knownBodyOf(response);
    if (known && (!compressible || !coding || known.byteLength < MIN_COMPRESSED_BYTES)) {
      headers.set("content-length", String(known.byteLength));
      return request.method === "HEAD" ? new Response(null, init) : byteResponse(known, init);
    }
    const body = response.body!;
    // Not ours to buffer: it may be a stream that never reaches 1 KiB (an event stream, say).
    if (!compressible) return new Response(request.method === "HEAD" ? null : cancelledWhenAbandoned(body, exchange.abandonment()), init);
    const { prefix, complete, rest } = await readPrefix(body, MIN_COMPRESSED_BYTES);
    if (complete) {
      headers.set("content-length", String(prefix.byteLength));
      // Whole (a GraphQL answer over POST, an error): a body in hand, written in one go (node-response.ts).
      return request.method === "HEAD" ? new Response(null, init) : byteResponse(prefix, init);
    }
    if (coding) {
      headers.set("content-encoding", coding);
      headers.delete("content-length");
    }
    if (request.method === "HEAD") {
      await rest().cancel();
      return new Response(null, init);
    }
    return new Response(coding ? rest().pipeThrough(compressionStream(coding)) : rest(), init);
  };

  return async (request, response, exchange) => {
    const compressible = isCompressible(response.headers.get("content-type"));
    // A body already coded (files compressed ahead, precompressed-files.ts) is sent as it is.
    const coded = response.headers.has("content-encoding");
    const coding = compressible && !coded ? negotiateContentCoding(request.headers.get("accept-encoding")) : undefined;
    const reads = request.method === "GET" || request.method === "HEAD";
    const path = exchange.url.pathname;
    const represented =
      // Only whole documents are buffered; an event stream (GraphQL over SSE) is passed through.
      reads && response.status === 200 && hasBody(response) && compressible && REVALIDATED_PATH.test(path)
        ? await revalidated(request, response, coding)
        : await streamed(request, response, compressible && !coded, coding, exchange);
    if ((compressible || represented.status === 304) && !variesByAcceptEncoding(represented)) represented.headers.append("vary", "Accept-Encoding");
    return represented;
  };
}

/** Whether the response has a body, without making the stream of a body in hand (byte-body.ts). */
const hasBody = (response: Response) => knownBodyOf(response) !== undefined || response.body !== null;

const variesByAcceptEncoding = (response: Response) =>
  (response.headers.get("vary") ?? "").split(",").some((name) => name.trim().toLowerCase() === "accept-encoding");

/**
 * Reads `body` until `bytes` bytes or its end; `complete` when the end came first, `prefix` then
 * being the whole body. `rest()` gives back a stream that replays what was read and then the rest.
 */
async function readPrefix(
  body: ReadableStream<Uint8Array>,
  bytes: number,
): Promise<{ prefix: Uint8Array; complete: boolean; rest: () => ReadableStream<Uint8Array> }> {
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let length = 0;
  let complete = false;
  while (length < bytes) {
    const { done, value } = await reader.read();
    if (done) {
      complete = true;
      break;
    }
    chunks.push(value);
    length += value.byteLength;
  }
  // One chunk (a body in hand, byte-body.ts) is not copied: it may be megabytes, sent to many at once.
  const prefix = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, length);
  const rest = () =>
    new ReadableStream<Uint8Array>({
      start(controller) {
        if (length > 0) controller.enqueue(new Uint8Array(prefix.buffer, prefix.byteOffset, prefix.byteLength));
        if (complete) controller.close();
      },
      async pull(controller) {
        const { done, value } = await reader.read();
        if (done) controller.close();
        else controller.enqueue(value);
      },
      cancel: (reason) => reader.cancel(reason),
    });
  return { prefix, complete, rest };
}
