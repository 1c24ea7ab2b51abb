// A webhook receiver for tests: a real HTTP server on an ephemeral port that records every request
// and answers as the test says (a status, a hang, a huge body).
import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  /** performance.now() when the request arrived. */
  at: number;
}

/** What to do with the n-th request (from 0): answer a status (and body), or never answer. */
export type Answer = { status: number; body?: string; headers?: Record<string, string> } | "hang" | ((response: ServerResponse) => void);

export interface Receiver {
  url: string;
  port: number;
  received: Received[];
  /** Resolves with the requests once there are at least `count`; rejects after `timeoutMs`. */
  waitFor(count: number, timeoutMs?: number): Promise<Received[]>;
  close(): Promise<void>;
}

export async function startReceiver(answer: (request: Received, index: number) => Answer = () => ({ status: 204 })): Promise<Receiver> {
  const received: Received[] = [];
  const waiters: (() => void)[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const entry = { headers: request.headers, body: Buffer.concat(chunks).toString("utf8"), at: performance.now() };
      const index = received.push(entry) - 1;
      for (const wake of waiters.splice(0)) wake();
      const reply = answer(entry, index);
      if (reply === "hang") return;
      if (typeof reply === "function") return reply(response);
      response.writeHead(reply.status, { "content-type": "text/plain", ...reply.headers });
      response.end(reply.body ?? "");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    port,
    received,
    waitFor: (count, timeoutMs = 15_000) =>
      new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`the receiver got ${received.length} requests, not ${count}, within ${timeoutMs} ms`)), timeoutMs);
        const check = () => {
          if (received.length >= count) {
            clearTimeout(timer);
            resolve(received.slice());
          } else waiters.push(check);
        };
        check();
      }),
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
