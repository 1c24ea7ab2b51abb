// A TCP proxy in front of PostgreSQL that a test controls, to simulate outages without touching the
// real server: forward traffic, refuse connections (nothing listens), or black-hole them (a network
// partition: connections open, bytes vanish, nothing ever answers).
import net from "node:net";

export type ProxyMode = "forward" | "refuse" | "blackhole";

export interface TcpProxy {
  port: number;
  /** `databaseUrl` with its host and port replaced by the proxy's. */
  urlFor(databaseUrl: string): string;
  setMode(mode: ProxyMode): Promise<void>;
  /** Cuts every open connection (as a restarted or crashed server would). */
  dropConnections(): void;
  close(): Promise<void>;
}

export async function startTcpProxy(target: { host: string; port: number }, initialMode: ProxyMode = "forward"): Promise<TcpProxy> {
  let mode: ProxyMode = initialMode;
  const sockets = new Set<net.Socket>();
  const track = (socket: net.Socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => socket.destroy());
  };
  const server = net.createServer((client) => {
    track(client);
    if (mode === "blackhole") return; // accepted, never answered
    const upstream = net.connect(target.port, target.host);
    track(upstream);
    const relay = (from: net.Socket, to: net.Socket) =>
      from.on("data", (chunk) => {
        if (mode !== "blackhole") to.write(chunk);
      });
    relay(client, upstream);
    relay(upstream, client);
    client.on("close", () => upstream.destroy());
    upstream.on("close", () => client.destroy());
  });
  const listenOn = (port: number) =>
    new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(port, "127.0.0.1", () => resolve());
    });
  await listenOn(0);
  const port = (server.address() as net.AddressInfo).port;
  if (mode === "refuse") await new Promise<void>((resolve) => server.close(() => resolve()));
  const dropConnections = () => {
    for (const socket of sockets) socket.destroy();
  };
  return {
    port,
    urlFor: (databaseUrl) => {
      const url = new URL(databaseUrl);
      url.hostname = "127.0.0.1";
      url.port = String(port);
      return url.toString();
    },
    setMode: async (next) => {
      if (next === mode) return;
      if (next === "refuse") {
        mode = next;
        dropConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
        return;
      }
      if (mode === "refuse") await listenOn(port);
      mode = next;
    },
    dropConnections,
    close: async () => {
      dropConnections();
      if (server.listening) await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Host and port of a postgres:// URL. */
export function hostAndPort(databaseUrl: string): { host: string; port: number } {
  const url = new URL(databaseUrl);
  return { host: url.hostname, port: Number(url.port || 5432) };
}
