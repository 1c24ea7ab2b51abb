// `npx tsx bench/statement-costs.ts [sqlite|postgresql]`: the CPU one statement costs the server
// process, by how it is sent: Prisma's client (a raw `SELECT 1`, a `findFirst`, an empty interactive
// transaction, five raw statements in one) against node-postgres on a pooled connection (PostgreSQL)
// and toolgate's write transaction below Prisma's engine (src/db/statement-transaction.ts), 2,000
// times each after 300 to warm up, on a scratch database. Why the hottest writes run below the
// engine (docs/performance.md, "Writes").
import { openDatabase } from "../src/db/client.js";
import { migrateDatabase } from "../src/db/migrations.js";
import type { DatabaseProvider } from "../src/db/prisma-schemas.js";
import { writeTransaction } from "../src/domain/write-transaction.js";
import { createScratchDatabase } from "../scripts/scratch-database.js";

const provider = (process.argv[2] ?? "postgresql") as DatabaseProvider;
const TIMES = 2000;

async function cost(label: string, run: () => Promise<unknown>): Promise<void> {
  for (let index = 0; index < 300; index++) await run();
  const before = process.cpuUsage();
  for (let index = 0; index < TIMES; index++) await run();
  const used = process.cpuUsage(before);
  console.log(`${label.padEnd(60)} ${(((used.user + used.system) / TIMES) | 0).toString().padStart(5)} µs of CPU`);
}

const scratch = await createScratchDatabase(provider);
try {
  await migrateDatabase(scratch.url);
  const db = await openDatabase(scratch.url);
  try {
    await cost("Prisma: $queryRawUnsafe('SELECT 1')", () => db.$queryRawUnsafe("SELECT 1 AS one"));
    await cost("Prisma: account.findFirst (no row)", () => db.account.findFirst({ where: { id: "none" } }));
    await cost("Prisma: empty interactive transaction", () => db.$transaction(async () => 1));
    await cost("Prisma: transaction of 5 × SELECT 1", () =>
      db.$transaction(async (tx) => {
        for (let index = 0; index < 5; index++) await tx.$queryRawUnsafe("SELECT 1 AS one");
      }),
    );
    await cost("below the engine: transaction of 5 × SELECT 1", () =>
      writeTransaction(
        db,
        [],
        async (tx) => {
          for (let index = 0; index < 5; index++) await tx.$queryRawUnsafe("SELECT 1 AS one");
        },
        "below-engine",
      ),
    );
    if (provider === "postgresql") {
      const pg = await import("pg");
      const pool = new pg.default.Pool({ connectionString: scratch.url, max: 2 });
      const client = await pool.connect();
      await cost("node-postgres: SELECT 1 (named)", () => client.query({ name: "one", text: "SELECT 1 AS one" }));
      await cost("node-postgres: BEGIN, 5 × SELECT 1 (named), COMMIT", async () => {
        await client.query("BEGIN");
        for (let index = 0; index < 5; index++) await client.query({ name: "one", text: "SELECT 1 AS one" });
        await client.query("COMMIT");
      });
      client.release();
      await pool.end();
    }
  } finally {
    await db.$disconnect();
  }
} finally {
  await scratch.drop();
}
