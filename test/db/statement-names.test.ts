// PostgreSQL statements are named by their text, so each connection parses and plans one once; texts
// with long parameter lists (one text per list length) stay unnamed. On a live database, a named
// statement is prepared once per connection and reused.
import { describe, expect, it } from "vitest";
import { openDatabase } from "../../src/db/client.js";
import { createScratchDatabase } from "../../scripts/scratch-database.js";
import { statementNameOf } from "../../src/db/statement-names.js";

const POSTGRES = process.env.TOOLGATE_TEST_POSTGRES_URL;
const args = (count: number) => Array.from({ length: count }, (_, index) => index);

describe("statement names", () => {
  it("names a text the same way every time, another text otherwise, and leaves long parameter lists unnamed", () => {
    const text = 'SELECT "id" FROM "Grant" WHERE "id" = $1';
    expect(statementNameOf({ sql: text, args: args(1) })).toBe(statementNameOf({ sql: text, args: args(1) }));
    expect(statementNameOf({ sql: `${text} LIMIT $2`, args: args(2) })).not.toBe(statementNameOf({ sql: text, args: args(1) }));
    expect(statementNameOf({ sql: text, args: args(65) })).toBeUndefined();
  });

  (POSTGRES ? it : it.skip)("prepares a repeated statement once per connection on PostgreSQL", async () => {
    const scratch = await createScratchDatabase("postgresql", POSTGRES);
    const db = await openDatabase(scratch.url, { postgres: { connectTimeoutMs: 5000, statementTimeoutMs: 15_000, poolSize: 1, preparedStatements: true } });
    try {
      for (let index = 0; index < 3; index++) await db.$queryRawUnsafe(`SELECT $1::int + 1 AS "next"`, index);
      const prepared = await db.$queryRawUnsafe<{ name: string }[]>(`SELECT "name" FROM pg_prepared_statements WHERE statement LIKE 'SELECT $1::int + 1%'`);
      expect(prepared).toHaveLength(1);
      expect(prepared[0]!.name).toMatch(/^toolgate_/);
    } finally {
      await db.$disconnect();
      await scratch.drop();
    }
  });
});
