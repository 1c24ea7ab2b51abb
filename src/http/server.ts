// Node's http server in front of the fetch handler, with graceful shutdown: stop accepting, close
// idle keep-alive connections, answer in-flight requests with `Connection: close`, and after a grace
// period cut whatever is left, so a stop is always bounded.
import { createServer, type ServerResponse, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { setImmediate as nextTurn } from "node:timers/promises";
import { createServerAdapter } from "@whatwg-node/server";
import type { FetchHandler } from "./app.js";

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

export async function listen(handler: FetchHandler, port: number, host: string): Promise<RunningServer> {
  const adapter = createServerAdapter(handler, { fetchAPI: { Request, Response } });
  const unanswered = new Set<ServerResponse>();
  let draining = false;
  const server = createServer((request, response) => {
    unanswered.add(response);
    response.once("close", () => unanswered.delete(response));
    if (draining) response.shouldKeepAlive = false;
    void adapter(request, response);
  });
  server.keepAliveTimeout = 5000;
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
    // Let the event loop accept connections already queued in the kernel and read requests already
    // sent: closing the listener resets queued connections, and an unread request looks idle.
    await nextTurn();
    await nextTurn();
    let cut = 0;
    const grace = setTimeout(() => {
      cut = unanswered.size;
      server.closeAllConnections();
    }, graceMs);
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
