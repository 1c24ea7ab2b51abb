// Responses whose body is bytes already in hand. undici copies a byte body given to `new Response`,
// and reading it back (`arrayBuffer()`) copies it again through a stream, several copies of a list
// of grant views that may be megabytes. A body made here is a stream over the same bytes, and the
// bytes stay known to the representation step and the server, which writes them to the socket as
// they are (docs/performance.md).
//
// A body may be in chunks: a REST body is its JSON text with each stored definition's own bytes
// between (src/http/rest/json-body.ts), so a list of 50 grant views sends the definition cache's
// buffers instead of a 1.4 MB copy of them. Off the V8 heap, each such copy counted towards the
// external memory that makes V8 run full collections: under a load of lists, half of them.
const bodies = new WeakMap<Response, KnownBody>();

/**
 * A body in hand: its bytes, in one or more chunks, and the hash its ETag carries when already
 * computed (etag.ts). A chunk that is a stored text the process keeps by identity (a definition in
 * the definition cache) names it at the same index of `storedTexts`, so that the read cache can keep
 * the name instead of the bytes.
 */
export class KnownBody {
  readonly byteLength: number;
  #bytes: Uint8Array | undefined;

  /** @param chunks never written to, by the maker or anyone after */
  constructor(
    readonly chunks: readonly Uint8Array[],
    readonly tag?: string,
    readonly storedTexts: readonly (string | undefined)[] = [],
  ) {
    let byteLength = 0;
    for (const chunk of chunks) byteLength += chunk.byteLength;
    this.byteLength = byteLength;
    if (chunks.length <= 1) this.#bytes = chunks[0] ?? new Uint8Array(0);
  }

  /** The bytes as one array: the only chunk, or the chunks copied together once, for a step that needs them whole (compression). */
  get bytes(): Uint8Array {
    return (this.#bytes ??= Buffer.concat(this.chunks, this.byteLength));
  }
}

/** A Response whose body is `body` (bytes, or a body in hand), not copied. */
export function byteResponse(body: Uint8Array | KnownBody, init: ResponseInit, tag?: string): Response {
  const known = body instanceof KnownBody ? body : new KnownBody([body], tag);
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of known.chunks) if (chunk.byteLength > 0) controller.enqueue(chunk);
      controller.close();
    },
  });
  const response = new Response(stream, init);
  bodies.set(response, known);
  return response;
}

/** The body of a response made by byteResponse, while it is unread. */
export function knownBodyOf(response: Response): KnownBody | undefined {
  return response.bodyUsed ? undefined : bodies.get(response);
}
