// Node's http server in front of the fetch handler, with graceful shutdown: stop accepting, close
// idle keep-alive connections, answer in-flight requests with `Connection: close`, and after a grace
// period cut whatever is left, so a stop is always bounded.
import { createServer, type ServerResponse, type Server } from "node:http";
import net, { type AddressInfo } from "node:net";
import { handleErrorFromRequestHandler } from "@whatwg-node/server";
import type { FetchHandler } from "../app.js";
import type { NodeFastPath } from "../ops/health-fast-path.js";
import type { MethodRefusal } from "../api/method-refusal.js";
import { guardNodeServer } from "./node-guards.js";
import { fetchRequestOf } from "./node-request.js";
import { sendResponse } from "./node-response.js";

export interface RunningServer {
  server: Server;
  url: string;
  port: number;
  /**
   * Stops accepting connections and resolves when in-flight requests are answered, or after
   * `graceMs` with the connections still open cut (`cut` counts them).
   */
  close(graceMs?: number): Promise<{ cut: number }>;
}

const DEFAULT_GRACE_MS = 10_000;

/**
 * `answerDirectly` may answer a request on node:http before it is converted to a fetch Request;
 * `refuseMethod` answers the methods node:http cannot hand to `handler` as `handler` answers others it does not serve.
 */
export async function listen(
  handler: FetchHandler & { answerDirectly?: NodeFastPath; refuseMethod: MethodRefusal },
  port: number,
  host: string,
): Promise<RunningServer> {
  const unanswered = new Set<ServerResponse>();
  let draining = false;
  const server = createServer((request, response) => {
    unanswered.add(response);
    response.once("close", () => unanswered.delete(response));
    if (draining) response.shouldKeepAlive = false;
    if (handler.answerDirectly?.(request, response)) return;
    // Node's own fetch classes, as Yoga and every handler use: one implementation of Request,
    // Response and streams in the whole process (node-request.ts, node-response.ts).
    void Promise.resolve()
      .then(() => handler(fetchRequestOf(request), { req: request, res: response }))
      .catch((error: unknown) => handleErrorFromRequestHandler(error, Response))
      .then((answer) => sendResponse(answer, response, request))
      .catch((error: unknown) => console.error(`Unexpected error while answering a request: ${(error as Error)?.message ?? String(error)}`));
  });
  guardNodeServer(server, handler.refuseMethod);
  // Longer than the idle timeouts of clients and load balancers (undici 4 s, AWS ALB 60 s): the side
  // that closes an idle connection must be the client, or a request sent as the server closes it
  // is reset (ECONNRESET) instead of answered. Shutdown closes idle connections itself.
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const displayHost = address.family === "IPv6" ? `[${address.address}]` : address.address;
  let closing: Promise<{ cut: number }> | undefined;
  const close = async (graceMs: number) => {
    draining = true;
    // Node sends `Connection: close` and ends the socket after the response.
    for (const response of unanswered) if (!response.headersSent) response.shouldKeepAlive = false;
    const deadline = Date.now() + graceMs;
    // Closing the listener resets connections still queued in the kernel: clients that connected
    // and sent a request before the signal. Accept them first (a busy server accepts slowly).
    await acceptQueuedConnections(server, address, graceMs);
    let cut = 0;
    const grace = setTimeout(
      () => {
        cut = unanswered.size;
        server.closeAllConnections();
      },
      Math.max(0, deadline - Date.now()),
    );
    await new Promise<void>((resolve) => server.close(() => resolve()));
    clearTimeout(grace);
    return { cut };
  };
  return {
    server,
    port: address.port,
    url: `http://${displayHost}:${address.port}`,
    close: (graceMs = DEFAULT_GRACE_MS) => (closing ??= close(graceMs)),
  };
}

/**
 * Resolves once every connection queued in the kernel when it was called has been accepted, or
 * after `timeoutMs`. The accept queue is first-in first-out, so a connection we open now is
 * accepted after all of those.
 */
function acceptQueuedConnections(server: Server, address: AddressInfo, timeoutMs: number): Promise<void> {
  const host = address.address === "0.0.0.0" ? "127.0.0.1" : address.address === "::" ? "::1" : address.address;
  return new Promise<void>((resolve) => {
    const marker = net.connect(address.port, host);
    // The server may accept the marker before the marker learns its own port: remember what was accepted.
    const accepted = new Set<string>();
    let markerId: string | undefined;
    const done = () => {
      clearTimeout(timer);
      server.off("connection", onConnection);
      marker.destroy();
      resolve();
    };
    const onConnection = (socket: net.Socket) => {
      const id = `${socket.remoteAddress}:${socket.remotePort}`;
      if (id === markerId) done();
      else if (markerId === undefined) accepted.add(id);
    };
    const timer = setTimeout(done, timeoutMs);
    server.on("connection", onConnection);
    marker.once("connect", () => {
      markerId = `${marker.localAddress}:${marker.localPort}`;
      if (accepted.has(markerId)) done();
      accepted.clear();
    });
    marker.once("error", done);
  });
}
