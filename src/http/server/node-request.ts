// A node:http request as a fetch Request, without an AbortSignal. @whatwg-node/server gives every
// request a signal that aborts when the client goes away; on Node 20 making a Request with one costs
// about as much again as the Request (~20 µs of CPU per request, most of a whole answer's fetch
// overhead), and only a streamed answer has anything to stop then. Those take their signal from
// `abandonmentOf`, made on first use (pipeline/abandoned-streams.ts).
import type { IncomingMessage, ServerResponse } from "node:http";
import type { TLSSocket } from "node:tls";

export function fetchRequestOf(request: IncomingMessage): Request {
  const scheme = (request.socket as TLSSocket).encrypted ? "https" : "http";
  // node:http answers 400 itself to an HTTP/1.1 request without Host; an HTTP/1.0 one may have none.
  const url = `${scheme}://${request.headers.host ?? "localhost"}${request.url ?? "/"}`;
  const headers = request.headers as Record<string, string>;
  if (request.method === "GET" || request.method === "HEAD") return new Request(url, { method: request.method, headers });
  // The body is read as the node request streams it (duplex: half: before the answer starts).
  return new Request(url, { method: request.method, headers, body: request as unknown as ReadableStream, duplex: "half" } as RequestInit);
}

const abandonments = new WeakMap<ServerResponse, AbortSignal>();

/** A signal that aborts when `response`'s connection closes before the response finished. */
export function abandonmentOf(response: ServerResponse): AbortSignal {
  let signal = abandonments.get(response);
  if (signal) return signal;
  const controller = new AbortController();
  signal = controller.signal;
  abandonments.set(response, signal);
  if (response.writableFinished) return signal;
  if (response.destroyed || response.closed) {
    controller.abort(response.errored ?? undefined);
    return signal;
  }
  const abandoned = () => {
    if (!response.writableFinished) controller.abort(response.errored ?? undefined);
  };
  response.once("close", abandoned);
  return signal;
}
