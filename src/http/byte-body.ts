// Responses whose body is bytes already in hand. undici copies a byte body given to `new Response`,
// and reading it back (`arrayBuffer()`) copies it again through a stream, several copies of a list
// of grant views that may be megabytes. A body made here is a stream over the same bytes, and the
// bytes stay known to the representation step (docs/performance.md).
const bodies = new WeakMap<Response, KnownBody>();

/** A body in hand: its bytes and, when already computed, the hash its ETag carries (etag.ts). */
export interface KnownBody {
  bytes: Uint8Array;
  tag?: string | undefined;
}

/** A Response whose body is `bytes`, not copied. */
export function byteResponse(bytes: Uint8Array, init: ResponseInit, tag?: string): Response {
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      if (bytes.byteLength > 0) controller.enqueue(bytes);
      controller.close();
    },
  });
  const response = new Response(body, init);
  bodies.set(response, { bytes, tag });
  return response;
}

/** The body of a response made by byteResponse, while it is unread. */
export function knownBodyOf(response: Response): KnownBody | undefined {
  return response.bodyUsed ? undefined : bodies.get(response);
}
