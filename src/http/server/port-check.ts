// Whether the server's address can be bound, checked before a start creates anything: a first start
// whose port is taken would otherwise create the database, the admin and its one-time token, then
// fail before printing them (and later starts never print a generated token again).
import net from "node:net";

/**
 * Binds `port` on `host` and lets it go; rejects with the bind error (EADDRINUSE, EACCES,
 * EADDRNOTAVAIL, carrying `address` and `port`) that listening would meet. Port 0 always binds.
 */
export async function checkCanListen(port: number, host: string): Promise<void> {
  if (port === 0) return;
  const probe = net.createServer();
  await new Promise<void>((resolve, reject) => {
    probe.once("error", reject);
    probe.listen({ port, host, exclusive: true }, () => resolve());
  });
  await new Promise<void>((resolve) => probe.close(() => resolve()));
}
