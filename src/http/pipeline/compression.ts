// Content coding (RFC 9110 12.5.3): gzip or brotli as Accept-Encoding prefers, for compressible
// bodies of at least MIN_COMPRESSED_BYTES. Bodies already in memory are compressed in one call on
// libuv's thread pool (so the length is known); bodies that are still streams go through a zlib stream.
import { Duplex } from "node:stream";
import { promisify } from "node:util";
import zlib from "node:zlib";
import { LRUCache } from "lru-cache";

export type ContentCoding = "br" | "gzip";

/** Below this, compressing saves less than the coding's own overhead and the CPU it costs. */
export const MIN_COMPRESSED_BYTES = 1024;

/**
 * Brotli's default quality (11) takes seconds for GraphiQL's scripts and styles; 5 takes a fraction
 * of that for a slightly larger result that still beats gzip (docs/architecture.md). Responses are compressed
 * as they are sent; GraphiQL's files are compressed at 11 once, by the build (graphiql-asset-build.ts).
 */
const BROTLI_QUALITY = 5;

const COMPRESSIBLE = /^(?:application\/(?:(?:[\w.+-]+\+)?json|graphql-response\+json|javascript)|text\/(?:html|css|javascript|plain))\b/i;

export function isCompressible(contentType: string | null): boolean {
  return contentType !== null && COMPRESSIBLE.test(contentType);
}

/**
 * The coding to send for an Accept-Encoding header, or undefined for identity: br or gzip, whichever
 * has the higher q-value (br on a tie, being smaller). Identity is sent when no header is sent, when
 * neither coding is acceptable (RFC 9110 lets a server send identity rather than 406), or when
 * identity is named with a higher q-value than the best coding.
 */
export function negotiateContentCoding(acceptEncoding: string | null): ContentCoding | undefined {
  if (acceptEncoding === null) return undefined;
  const weights = new Map<string, number>();
  for (const part of acceptEncoding.split(",")) {
    const [name, ...parameters] = part.split(";").map((piece) => piece.trim().toLowerCase());
    if (!name) continue;
    const q = parameters.find((parameter) => /^q\s*=/.test(parameter));
    const weight = q === undefined ? 1 : Number(q.replace(/^q\s*=\s*/, ""));
    weights.set(name === "x-gzip" ? "gzip" : name, Number.isFinite(weight) ? Math.min(Math.max(weight, 0), 1) : 0);
  }
  const weightOf = (coding: string) => weights.get(coding) ?? weights.get("*") ?? 0;
  const best = weightOf("gzip") > weightOf("br") ? "gzip" : "br";
  if (weightOf(best) === 0) return undefined;
  const identity = weights.get("identity");
  return identity !== undefined && identity > weightOf(best) ? undefined : best;
}

const brotliOptions = (sizeHint?: number): zlib.BrotliOptions => ({
  params: {
    [zlib.constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY,
    [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
    ...(sizeHint === undefined ? {} : { [zlib.constants.BROTLI_PARAM_SIZE_HINT]: sizeHint }),
  },
});

const gzip = promisify(zlib.gzip);
const brotliCompress = promisify(zlib.brotliCompress);

/** Compresses a body that is already in memory. */
async function compressBytes(body: Uint8Array, coding: ContentCoding): Promise<Uint8Array<ArrayBuffer>> {
  const compressed = coding === "br" ? await brotliCompress(body, brotliOptions(body.byteLength)) : await gzip(body);
  return new Uint8Array(compressed.buffer as ArrayBuffer, compressed.byteOffset, compressed.byteLength);
}

/** A web TransformStream over a zlib stream, for bodies that are still streams. */
export function compressionStream(coding: ContentCoding): ReadableWritablePair<Uint8Array, Uint8Array> {
  const transform = coding === "br" ? zlib.createBrotliCompress(brotliOptions()) : zlib.createGzip();
  return Duplex.toWeb(transform) as unknown as ReadableWritablePair<Uint8Array, Uint8Array>;
}

/**
 * Large bodies sent again and again (the /docs bundle) are compressed once: compressed bodies of
 * at least CACHED_MIN_BYTES are kept by their ETag, least recently used first out, within
 * CACHE_MAX_BYTES in all.
 */
const CACHED_MIN_BYTES = 256 * 1024;
const CACHE_MAX_BYTES = 32 * 1024 * 1024;

export function createCompressedBodyCache(maxBytes = CACHE_MAX_BYTES) {
  // fetch() shares one compression between requests that ask for the same body at once.
  const compressed = new LRUCache<string, Uint8Array<ArrayBuffer>, { body: Uint8Array; coding: ContentCoding }>({
    maxSize: maxBytes,
    sizeCalculation: (value) => Math.max(1, value.byteLength),
    fetchMethod: (_etag, _stale, { context }) => compressBytes(context.body, context.coding),
  });
  return {
    /** `body` compressed with `coding`; `etag` names the compressed representation. */
    async compress(etag: string, body: Uint8Array, coding: ContentCoding): Promise<Uint8Array<ArrayBuffer>> {
      if (body.byteLength < CACHED_MIN_BYTES) return compressBytes(body, coding);
      return (await compressed.fetch(etag, { context: { body, coding } }))!;
    },
  };
}
