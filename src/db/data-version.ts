// Which committed state an account's reads saw: the heads of its stream and of the system's
// (src/domain/event-streams.ts). A writer moves the head of every account whose reads its change may
// alter, in the change's own transaction, through any replica or process (the CLI on a SQLite file
// included), so an account's version changes exactly when an answer kept for it may be stale, and
// stays put while other tenants write.
//
// The reads of one turn of the event loop share one statement: every request that asks during a
// turn has arrived before the statement is sent at its end, so each still sees every change
// committed before it arrived, and a busy replica sends one small statement per turn rather than
// one per read.
import DataLoader from "dataloader";
import type { AdapterAccess } from "./adapter-access.js";
import { accountStream, SYSTEM_STREAM } from "./stream-heads.js";

/** Reads the data version an account's reads see (null: a reader with no account). */
export type DataVersionReader = (accountId: string | null) => Promise<string>;

/** The reader, its statement sent straight to the adapter (adapter-access.ts); `onQuery` is told each statement. */
export function dataVersionReader(access: AdapterAccess, onQuery?: (sql: string) => void): DataVersionReader {
  // One text whatever the number of streams: a single prepared statement on PostgreSQL.
  const sql =
    access.provider === "postgres"
      ? `SELECT "stream", "head" FROM "StreamHead" WHERE "stream" = ANY($1::text[])`
      : `SELECT "stream", "head" FROM "StreamHead" WHERE "stream" IN (SELECT "value" FROM json_each(?))`;
  const heads = new DataLoader<string, string>(
    async (streams) => {
      const distinct = [...new Set(streams)];
      onQuery?.(sql);
      const { rows } = await access.adapter().queryRaw({
        sql,
        args: [access.provider === "postgres" ? distinct : JSON.stringify(distinct)],
        argTypes: [access.provider === "postgres" ? { scalarType: "string", arity: "list" } : { scalarType: "string", arity: "scalar" }],
      });
      const headOf = new Map(rows.map(([stream, head]) => [String(stream), String(head)]));
      return streams.map((stream) => headOf.get(stream) ?? "");
    },
    // Not cached: a version is read anew for every request. Batched until the turn's I/O is handled.
    { cache: false, batchScheduleFn: (send) => setImmediate(send) },
  );
  return async (accountId) => {
    const [system, account] = await Promise.all([heads.load(SYSTEM_STREAM), accountId === null ? "" : heads.load(accountStream(accountId))]);
    return `${system}/${account}`;
  };
}
