// Stored definition texts by release id, in one statement sent straight to the adapter
// (adapter-access.ts). A grant list carries 50 definitions of up to 50 KB; through Prisma's engine
// that megabyte cost 12–17 ms of CPU, through the adapter 5 ms. Releases never change, so reading
// them outside the request's transaction reads the same text.
import type { AdapterAccess } from "./adapter-access.js";

/** The stored text of each release found, by id. */
export type DefinitionTextReader = (releaseIds: readonly string[]) => Promise<Map<string, string>>;

export function definitionTextReader(access: AdapterAccess): DefinitionTextReader {
  // One statement text whatever the count, so PostgreSQL prepares it once per connection.
  const sql =
    access.provider === "postgres"
      ? `SELECT "id", "definition" FROM "ToolRelease" WHERE "id" = ANY($1)`
      : `SELECT "id", "definition" FROM "ToolRelease" WHERE "id" IN (SELECT "value" FROM json_each(?))`;
  return async (releaseIds) => {
    const ids = [...releaseIds];
    const { rows } = await access
      .adapter()
      .queryRaw(
        access.provider === "postgres"
          ? { sql, args: [ids], argTypes: [{ scalarType: "string", arity: "list" }] }
          : { sql, args: [JSON.stringify(ids)], argTypes: [{ scalarType: "string", arity: "scalar" }] },
      );
    return new Map(rows.map(([id, definition]) => [String(id), String(definition)]));
  };
}
