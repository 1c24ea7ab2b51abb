// Stored definition texts by release id, in one statement below Prisma's query engine. A grant
// list carries 50 definitions of up to 50 KB; through the engine that megabyte cost 17 ms of CPU,
// this way 4 ms (docs/performance.md). On PostgreSQL the statement goes to the pool the adapter
// uses; on SQLite to the adapter (through the isolation gate). Releases never change, so reading
// outside the request's transaction reads the same text. Not in the database metrics' statement
// timings.
import type pg from "pg";
import type { AdapterAccess } from "./adapter-access.js";

/** The stored text of each release found, by id, as its UTF-8 bytes. */
export type DefinitionTextReader = (releaseIds: readonly string[]) => Promise<Map<string, Buffer>>;

export interface PostgresPool {
  pool: pg.Pool;
  /** Whether statements may be prepared under a name (not behind a PgBouncer in transaction mode). */
  preparedStatements: boolean;
}

const POSTGRES_SQL = `SELECT "id", "definition" FROM "ToolRelease" WHERE "id" = ANY($1)`;
const SQLITE_SQL = `SELECT "id", "definition" FROM "ToolRelease" WHERE "id" IN (SELECT "value" FROM json_each(?))`;
/**
 * Each value as its UTF-8 bytes, made as the row is parsed. node-postgres hands every value over as
 * a string, even in binary format; kept as strings until the last row of a 1.4 MB answer arrives, they
 * outlived the young generation and were copied into the old one on every list read.
 */
const AS_UTF8 = { getTypeParser: () => utf8Of };

/** `onQuery`: told each statement, as Prisma's query log is (tests count statements). */
export function definitionTextReader(access: AdapterAccess, postgres: PostgresPool | undefined, onQuery?: (sql: string) => void): DefinitionTextReader {
  if (postgres) {
    return async (releaseIds) => {
      onQuery?.(POSTGRES_SQL);
      const query: pg.QueryArrayConfig = {
        ...(postgres.preparedStatements ? { name: "toolgate_definition_texts" } : {}),
        text: POSTGRES_SQL,
        values: [[...releaseIds]],
        rowMode: "array",
        types: AS_UTF8 as unknown as pg.CustomTypesConfig,
      };
      const { rows } = await postgres.pool.query<[Buffer, Buffer]>(query);
      return new Map(rows.map(([id, definition]) => [id.toString("latin1"), ownBytes(definition)]));
    };
  }
  return async (releaseIds) => {
    onQuery?.(SQLITE_SQL);
    const { rows } = await access
      .adapter()
      .queryRaw({ sql: SQLITE_SQL, args: [JSON.stringify([...releaseIds])], argTypes: [{ scalarType: "string", arity: "scalar" }] });
    return new Map(rows.map(([id, definition]) => [String(id), ownBytes(utf8Of(String(definition)))]));
  };
}

/** The text's UTF-8 bytes; for ASCII text (the usual definition) a plain copy instead of an encoding. */
function utf8Of(text: string): Buffer {
  // A character outside ASCII takes two or more bytes for one or two UTF-16 units, so equal lengths mean ASCII.
  return Buffer.from(text, Buffer.byteLength(text, "utf8") === text.length ? "latin1" : "utf8");
}

/**
 * `bytes` when they fill a memory of their own, as a Buffer of 4 KiB or more made from a string does;
 * otherwise a copy, so that what is kept never holds on to (or changes with) a larger buffer, such as
 * a connection's receive buffer or Node's pool of small allocations. A definition list is 1.4 MB.
 */
function ownBytes(bytes: Buffer): Buffer {
  return bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes : Buffer.from(bytes);
}
