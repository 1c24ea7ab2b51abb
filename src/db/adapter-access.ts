// The driver adapter Prisma connects through, for the few fixed statements that are answered below
// Prisma's query engine: on a hot path the engine, not the database, is the cost (it spends
// ~0.2 ms of JavaScript per statement and, on a megabyte of text, three times the driver's time).
// On SQLite the adapter is the isolation gate's (sqlite-isolation.ts), so these statements never
// read another request's open transaction.
import type { SqlDriverAdapter, SqlDriverAdapterFactory } from "@prisma/driver-adapter-utils";

export interface AdapterAccess {
  /** The connected adapter; throws before Prisma has connected. */
  adapter(): SqlDriverAdapter;
  provider: SqlDriverAdapterFactory["provider"];
}

/** Wraps a factory so that the adapter Prisma connects through can also be reached by `adapter()`. */
export function withAdapterAccess<F extends SqlDriverAdapterFactory>(factory: F): { factory: F; access: AdapterAccess } {
  let connected: SqlDriverAdapter | undefined;
  const connect = factory.connect.bind(factory);
  factory.connect = async () => (connected = await connect());
  const access: AdapterAccess = {
    provider: factory.provider,
    adapter() {
      if (!connected) throw new Error("the database is not connected");
      return connected;
    },
  };
  return { factory, access };
}
