// The database's data version: which committed state a read saw. Every state transition appends a
// change event in its own transaction, and event ids are issued in commit order (src/domain/events.ts),
// so the newest event id changes exactly when a change is committed, through any replica or process
// (the CLI on a SQLite file included). Retention deletes the oldest events, so the oldest id is part
// of the version too: a page of events that lost some is not the same state.
import type { SqlDriverAdapter, SqlDriverAdapterFactory } from "@prisma/driver-adapter-utils";

/** Reads the current data version; one small statement on the client's own connection or pool. */
export type DataVersionReader = () => Promise<string>;

// Both aggregates are answered from the primary key's index, on SQLite and PostgreSQL alike.
const VERSION_SQL = `SELECT (SELECT MAX("id") FROM "ChangeEvent") AS "newest", (SELECT MIN("id") FROM "ChangeEvent") AS "oldest"`;

/**
 * Wraps a factory so that the adapter Prisma connects through also answers `read`. The statement
 * goes to the adapter, below Prisma's query engine (which costs ~0.2 ms per query), and on SQLite
 * through the isolation gate, so it never reads another request's open transaction.
 */
export function withDataVersion<F extends SqlDriverAdapterFactory>(factory: F): { factory: F; read: DataVersionReader } {
  let connected: SqlDriverAdapter | undefined;
  const connect = factory.connect.bind(factory);
  factory.connect = async () => (connected = await connect());
  const read: DataVersionReader = async () => {
    if (!connected) throw new Error("data version: the database is not connected");
    const { rows } = await connected.queryRaw({ sql: VERSION_SQL, args: [], argTypes: [] });
    const [newest, oldest] = rows[0] ?? [];
    return `${String(newest ?? "")}/${String(oldest ?? "")}`;
  };
  return { factory, read };
}
