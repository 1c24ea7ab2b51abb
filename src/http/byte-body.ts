// Responses whose body is bytes already in hand. undici copies a byte body given to `new Response`,
// and reading it back (`arrayBuffer()`) copies it again through a stream, several copies of a list
// of grant views that may be megabytes. A BytesResponse keeps the bytes it was made from, for the
// representation step and the server, which writes them to the socket as they are
// (docs/performance.md). Its body stream is made only when someone asks for it: on Node 20 a
// ReadableStream and the Response around it cost ~30 µs to make, and most answers never need one.
//
// A body may be in chunks: a REST body is its JSON text with each stored definition's own bytes
// between (src/http/rest/json-body.ts), so a list of 50 grant views sends the definition cache's
// buffers instead of a 1.4 MB copy of them. Off the V8 heap, each such copy counted towards the
// external memory that makes V8 run full collections: under a load of lists, half of them.
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

/** A Response whose body is bytes in hand, not copied; the Fetch API's body stream is made on first use. */
class BytesResponse extends Response {
  readonly #known: KnownBody;
  #stream: ReadableStream<Uint8Array<ArrayBuffer>> | undefined;
  #read = false;

  constructor(body: KnownBody, init: ResponseInit) {
    super(null, init);
    this.#known = body;
  }

  /** The bytes, while nobody has read the body. */
  get known(): KnownBody | undefined {
    return this.#read ? undefined : this.#known;
  }

  override get body(): ReadableStream<Uint8Array<ArrayBuffer>> {
    const chunks = this.#known.chunks;
    const readOnce = () => {
      if (this.#read) throw new TypeError("Body is unusable: Body has already been read");
      this.#read = true;
    };
    // With no queue to fill, the stream asks for its chunks only when it is read.
    this.#stream ??= new ReadableStream<Uint8Array<ArrayBuffer>>(
      {
        pull(controller) {
          readOnce();
          for (const chunk of chunks) if (chunk.byteLength > 0) controller.enqueue(chunk as Uint8Array<ArrayBuffer>);
          controller.close();
        },
      },
      { highWaterMark: 0 },
    );
    return this.#stream;
  }

  override get bodyUsed(): boolean {
    return this.#read;
  }

  override async arrayBuffer(): Promise<ArrayBuffer> {
    const bytes = this.#take();
    return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  }

  override async bytes(): Promise<Uint8Array<ArrayBuffer>> {
    return new Uint8Array(await this.arrayBuffer());
  }

  override async text(): Promise<string> {
    return new TextDecoder().decode(this.#take());
  }

  override async json(): Promise<unknown> {
    return JSON.parse(await this.text());
  }

  override async blob(): Promise<Blob> {
    return new Blob([await this.arrayBuffer()], { type: this.headers.get("content-type") ?? "" });
  }

  override async formData(): Promise<FormData> {
    throw new TypeError("a BytesResponse has no form data");
  }

  override clone(): BytesResponse {
    if (this.#read || this.#stream) throw new TypeError("Response.clone: Body has already been consumed.");
    return new BytesResponse(this.#known, { status: this.status, statusText: this.statusText, headers: this.headers });
  }

  #take(): Uint8Array {
    if (this.#read || this.#stream?.locked) throw new TypeError("Body is unusable: Body has already been read");
    this.#read = true;
    return this.#known.bytes;
  }
}

/**
 * Node's Response, as Yoga should make its answers: a body given as text (every whole GraphQL answer)
 * is kept in hand as its UTF-8 bytes, in a BytesResponse; anything else (no body, an event stream)
 * goes to Node's own. For a text body Node 20's Response makes a stream at once, which the
 * representation step would then read back through a reader.
 */
export const TextKeepingResponse: typeof Response = new Proxy(Response, {
  construct(target, [body, init]: [BodyInit | null | undefined, ResponseInit | undefined]) {
    return typeof body === "string" ? new BytesResponse(new KnownBody([Buffer.from(body)]), init ?? {}) : new target(body, init);
  },
});

/** A Response whose body is `body` (bytes, or a body in hand), not copied. */
export function byteResponse(body: Uint8Array | KnownBody, init: ResponseInit, tag?: string): Response {
  return new BytesResponse(body instanceof KnownBody ? body : new KnownBody([body], tag), init);
}

/** `response` with another status and the same headers: a body in hand stays in hand, any other is passed on as its stream. */
export function withStatus(response: Response, status: number): Response {
  const known = knownBodyOf(response);
  const init = { status, headers: response.headers };
  return known ? byteResponse(known, init) : new Response(response.body, init);
}

/** The body of a response made by byteResponse, while it is unread. */
export function knownBodyOf(response: Response): KnownBody | undefined {
  return response instanceof BytesResponse ? response.known : undefined;
}
