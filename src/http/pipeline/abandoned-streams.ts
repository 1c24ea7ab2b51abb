// A streamed body must end when its client goes away. @whatwg-node/server stops reading a response
// stream whose connection closed, but never cancels it, so an event stream (a GraphQL subscription)
// would keep its subscription, its timers and its database reads for as long as the process runs.
// The exchange's abandonment signal aborts when the client goes away (the node response closes
// before it finished, server/node-request.ts); the body is cancelled then, which ends the subscription.

/** `body`, cancelled (and ended for whoever reads it) once `signal` aborts. */
export function cancelledWhenAbandoned(body: ReadableStream<Uint8Array>, signal: AbortSignal): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  const abandon = () => void reader.cancel(signal.reason).catch(() => {});
  return new ReadableStream<Uint8Array>({
    start() {
      if (signal.aborted) abandon();
      else signal.addEventListener("abort", abandon, { once: true });
    },
    async pull(controller) {
      const { done, value } = await reader.read();
      if (!done) return controller.enqueue(value);
      signal.removeEventListener("abort", abandon);
      controller.close();
    },
    cancel(reason) {
      signal.removeEventListener("abort", abandon);
      return reader.cancel(reason);
    },
  });
}
