// Which committed state an account's reads saw: the heads of its stream and of the system's
// (src/domain/event-streams.ts). A writer moves the head of every account whose reads its change may
// alter, in the change's own transaction, through any replica or process (the CLI on a SQLite file
// included), so an account's version changes exactly when an answer kept for it may be stale, and
// stays put while other tenants write.
import type { SqlDriverAdapter, SqlDriverAdapterFactory } from "@prisma/driver-adapter-utils";
import { accountStream, SYSTEM_STREAM } from "./stream-heads.js";

/** Reads the data version an account's reads see (null: a reader with no account); one small statement. */
export type DataVersionReader = (accountId: string | null) => Promise<string>;

const SYSTEM_HEAD_SQL = `SELECT "head" FROM "StreamHead" WHERE "stream" = '${SYSTEM_STREAM}'`;

/**
 * Wraps a factory so that the adapter Prisma connects through also answers `read`. The statement
 * goes to the adapter, below Prisma's query engine (the costly part of a query), and on SQLite
 * through the isolation gate, so it never reads another request's open transaction.
 */
export function withDataVersion<F extends SqlDriverAdapterFactory>(factory: F): { factory: F; read: DataVersionReader } {
  let connected: SqlDriverAdapter | undefined;
  const connect = factory.connect.bind(factory);
  factory.connect = async () => (connected = await connect());
  const accountHeadSql = `SELECT (${SYSTEM_HEAD_SQL}) AS "system", (SELECT "head" FROM "StreamHead" WHERE "stream" = ${factory.provider === "postgres" ? "$1" : "?"}) AS "account"`;
  const read: DataVersionReader = async (accountId) => {
    if (!connected) throw new Error("data version: the database is not connected");
    const { rows } = await connected.queryRaw(
      accountId === null
        ? { sql: SYSTEM_HEAD_SQL, args: [], argTypes: [] }
        : { sql: accountHeadSql, args: [accountStream(accountId)], argTypes: [{ scalarType: "string", arity: "scalar" }] },
    );
    const [system, account] = rows[0] ?? [];
    return `${String(system ?? "")}/${String(account ?? "")}`;
  };
  return { factory, read };
}
