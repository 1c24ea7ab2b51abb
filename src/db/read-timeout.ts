// A client-side bound on how long a query waits for PostgreSQL's answer, for network partitions the
// server never hears about (its statement_timeout bounds the rest). node-postgres has one
// (`query_timeout`), but it wraps every query's callback, and with that wrapper each large answer
// survives young-generation collections: a list of 50 grant views (1.4 MB of definitions read)
// cost 20 % more CPU, most of it garbage collection. Here a client only notes when it started
// working and when it became idle again ('drain'); one timer per process checks them and cuts the
// connection of a client that has waited too long, which fails its query like node-postgres's
// timeout does (src/db/unavailable.ts) and makes the pool replace the client.
import pg from "pg";

interface Watched {
  /** performance.now() when the client took work while idle; 0 while idle. */
  busySince: number;
  readTimeoutMs: number;
  connection: { stream: { destroy(error?: Error): void } };
}

const watched = new Set<Watched>();
const SWEEP_EVERY_MS = 250;
let sweeper: NodeJS.Timeout | undefined;

function sweep(): void {
  const now = performance.now();
  for (const client of watched) {
    if (client.busySince > 0 && now - client.busySince > client.readTimeoutMs) {
      client.busySince = 0;
      client.connection.stream.destroy(new Error(`Query read timeout: no answer from PostgreSQL within ${client.readTimeoutMs} ms`));
    }
  }
  if (watched.size === 0 && sweeper) {
    clearInterval(sweeper);
    sweeper = undefined;
  }
}

function watch(client: Watched): void {
  watched.add(client);
  sweeper ??= setInterval(sweep, SWEEP_EVERY_MS).unref();
}

/** A node-postgres Client class whose queries fail once they have waited `readTimeoutMs` for an answer. */
export function clientWithReadTimeout(readTimeoutMs: number): typeof pg.Client {
  class ClientWithReadTimeout extends pg.Client {
    busySince = 0;
    readonly readTimeoutMs = readTimeoutMs;

    constructor(config?: string | pg.ClientConfig) {
      super(config);
      watch(this as unknown as Watched);
      this.on("drain", () => (this.busySince = 0));
      this.on("end", () => watched.delete(this as unknown as Watched));
    }

    override query(...args: unknown[]): never {
      if (this.busySince === 0) this.busySince = performance.now();
      return (super.query as (...args: unknown[]) => never)(...args);
    }
  }
  return ClientWithReadTimeout;
}
