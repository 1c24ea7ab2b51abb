// Which committed state an account's reads saw: the heads of its stream and of the system's
// (src/domain/event-streams.ts). A writer moves the head of every account whose reads its change may
// alter, in the change's own transaction, through any replica or process (the CLI on a SQLite file
// included), so an account's version changes exactly when an answer kept for it may be stale, and
// stays put while other tenants write.
import type { AdapterAccess } from "./adapter-access.js";
import { accountStream, SYSTEM_STREAM } from "./stream-heads.js";

/** Reads the data version an account's reads see (null: a reader with no account); one small statement. */
export type DataVersionReader = (accountId: string | null) => Promise<string>;

const SYSTEM_HEAD_SQL = `SELECT "head" FROM "StreamHead" WHERE "stream" = '${SYSTEM_STREAM}'`;

/** The reader, one statement sent straight to the adapter (adapter-access.ts). */
export function dataVersionReader(access: AdapterAccess): DataVersionReader {
  const accountHeadSql = `SELECT (${SYSTEM_HEAD_SQL}) AS "system", (SELECT "head" FROM "StreamHead" WHERE "stream" = ${access.provider === "postgres" ? "$1" : "?"}) AS "account"`;
  return async (accountId) => {
    const { rows } = await access
      .adapter()
      .queryRaw(
        accountId === null
          ? { sql: SYSTEM_HEAD_SQL, args: [], argTypes: [] }
          : { sql: accountHeadSql, args: [accountStream(accountId)], argTypes: [{ scalarType: "string", arity: "scalar" }] },
      );
    const [system, account] = rows[0] ?? [];
    return `${String(system ?? "")}/${String(account ?? "")}`;
  };
}
