// Node's http server in front of the fetch handler, with graceful shutdown: stop accepting,
// let in-flight requests finish, then let the caller close the database.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createServerAdapter } from "@whatwg-node/server";
import type { FetchHandler } from "./app.js";
import { guardNodeServer } from "./node-guards.js";

export interface RunningServer {
  server: Server;
  url: string;
  port: number;
  /** Stops accepting connections and resolves when in-flight requests are done. */
  close(): Promise<void>;
}

export async function listen(handler: FetchHandler, port: number, host: string): Promise<RunningServer> {
  const adapter = createServerAdapter(handler, { fetchAPI: { Request, Response } });
  const server = createServer(adapter);
  guardNodeServer(server);
  server.keepAliveTimeout = 5000;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const displayHost = address.family === "IPv6" ? `[${address.address}]` : address.address;
  return {
    server,
    port: address.port,
    url: `http://${displayHost}:${address.port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeIdleConnections();
      }),
  };
}
