// What toolgate sets on each PostgreSQL connection rather than by a statement per transaction or
// query: write transactions run at READ COMMITTED (their advisory locks order them), so they must stay
// READ COMMITTED on a database whose own default is another level; and the planner's random page cost.
import pg from "pg";
import { describe, expect, it } from "vitest";
import { openDatabase, type Database } from "../../src/db/client.js";
import { writeTransaction, type WriteStatements } from "../../src/domain/write-transaction.js";
import { createScratchDatabase } from "../../scripts/scratch-database.js";

const POSTGRES = process.env.TOOLGATE_TEST_POSTGRES_URL;

/**
 * Runs `check` with toolgate's client of a scratch database whose own `setting` is `value`, after a
 * plain client of that database has shown the value took.
 */
async function withDatabaseDefault(setting: string, value: string, check: (db: Database) => Promise<void>): Promise<void> {
  const scratch = await createScratchDatabase("postgresql", POSTGRES);
  const name = decodeURIComponent(new URL(scratch.url).pathname.slice(1));
  const admin = new pg.Client({ connectionString: scratch.url });
  await admin.connect();
  await admin.query(`ALTER DATABASE "${name}" SET ${setting} = '${value}'`);
  await admin.end();
  const db = await openDatabase(scratch.url);
  try {
    const plain = new pg.Client({ connectionString: scratch.url });
    await plain.connect();
    expect(Object.values((await plain.query(`SHOW ${setting}`)).rows[0])).toEqual([value]);
    await plain.end();
    await check(db);
  } finally {
    await db.$disconnect();
    await scratch.drop();
  }
}

/** `SHOW setting` inside a write transaction, through Prisma and below its engine: the same for both. */
async function shownInWriteTransaction(db: Database, setting: string): Promise<unknown> {
  const shown = async (statements: WriteStatements) => {
    const rows = await writeTransaction(db, [], (tx) => tx.$queryRawUnsafe<Record<string, unknown>[]>(`SHOW ${setting}`), statements);
    return Object.values(rows[0]!)[0];
  };
  const [prisma, belowEngine] = [await shown("prisma"), await shown("below-engine")];
  expect(belowEngine).toBe(prisma);
  return prisma;
}

describe.skipIf(!POSTGRES)("write transaction isolation [postgresql]", () => {
  it("is READ COMMITTED on a database whose default is SERIALIZABLE", async () => {
    await withDatabaseDefault("default_transaction_isolation", "serializable", async (db) => {
      expect(await shownInWriteTransaction(db, "transaction_isolation")).toBe("read committed");
    });
  });

  it("plans with a random page cost of 1.1 whatever the database's default", async () => {
    await withDatabaseDefault("random_page_cost", "4", async (db) => {
      const read = await db.$queryRawUnsafe<{ random_page_cost: string }[]>("SHOW random_page_cost");
      expect(read[0]!.random_page_cost).toBe("1.1");
      expect(await shownInWriteTransaction(db, "random_page_cost")).toBe("1.1");
    });
  });
});
