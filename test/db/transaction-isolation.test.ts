// What toolgate sets on each PostgreSQL connection rather than by a statement per transaction or
// query: write transactions run at READ COMMITTED (their advisory locks order them), so they must stay
// READ COMMITTED on a database whose own default is another level; and the planner's random page cost.
import pg from "pg";
import { describe, expect, it } from "vitest";
import { openDatabase } from "../../src/db/client.js";
import { writeTransaction } from "../../src/domain/write-transaction.js";
import { createScratchDatabase } from "../../scripts/scratch-database.js";

const POSTGRES = process.env.TOOLGATE_TEST_POSTGRES_URL;

describe.skipIf(!POSTGRES)("write transaction isolation [postgresql]", () => {
  it("is READ COMMITTED on a database whose default is SERIALIZABLE", async () => {
    const scratch = await createScratchDatabase("postgresql", POSTGRES);
    const name = decodeURIComponent(new URL(scratch.url).pathname.slice(1));
    const admin = new pg.Client({ connectionString: scratch.url });
    await admin.connect();
    await admin.query(`ALTER DATABASE "${name}" SET default_transaction_isolation = 'serializable'`);
    await admin.end();
    const db = await openDatabase(scratch.url);
    try {
      // A plain client of the same database sees the database's default: the setting took.
      const plain = new pg.Client({ connectionString: scratch.url });
      await plain.connect();
      expect((await plain.query("SHOW transaction_isolation")).rows[0].transaction_isolation).toBe("serializable");
      await plain.end();
      const levels = await writeTransaction(db, [], (tx) => tx.$queryRawUnsafe<{ transaction_isolation: string }[]>("SHOW transaction_isolation"));
      expect(levels[0]!.transaction_isolation).toBe("read committed");
    } finally {
      await db.$disconnect();
      await scratch.drop();
    }
  });

  it("plans with a random page cost of 1.1 whatever the database's default", async () => {
    const scratch = await createScratchDatabase("postgresql", POSTGRES);
    const name = decodeURIComponent(new URL(scratch.url).pathname.slice(1));
    const admin = new pg.Client({ connectionString: scratch.url });
    await admin.connect();
    await admin.query(`ALTER DATABASE "${name}" SET random_page_cost = 4`);
    await admin.end();
    const db = await openDatabase(scratch.url);
    try {
      const plain = new pg.Client({ connectionString: scratch.url });
      await plain.connect();
      expect((await plain.query("SHOW random_page_cost")).rows[0].random_page_cost).toBe("4");
      await plain.end();
      const read = await db.$queryRawUnsafe<{ random_page_cost: string }[]>("SHOW random_page_cost");
      expect(read[0]!.random_page_cost).toBe("1.1");
      const written = await writeTransaction(db, [], (tx) => tx.$queryRawUnsafe<{ random_page_cost: string }[]>("SHOW random_page_cost"));
      expect(written[0]!.random_page_cost).toBe("1.1");
    } finally {
      await db.$disconnect();
      await scratch.drop();
    }
  });
});
