// Committed migrations must produce exactly prisma/schema.prisma, on both providers, and apply once.
import pg from "pg";
import { afterEach, describe, expect, it } from "vitest";
import { migrateDatabase, listMigrations, sqlFromDatabaseToSchema } from "../../src/db/migrations.js";
import type { DatabaseProvider } from "../../src/db/prisma-schemas.js";
import { createScratchDatabase, type ScratchDatabase } from "../../scripts/scratch-database.js";
import { POSTGRES_URL } from "../helpers/service.js";

const providers: DatabaseProvider[] = ["sqlite", "postgresql"];

for (const provider of providers) {
  const run = provider === "sqlite" || POSTGRES_URL ? describe : describe.skip;
  run(`migrations [${provider}]`, () => {
    let scratch: ScratchDatabase | undefined;
    afterEach(async () => {
      await scratch?.drop();
      scratch = undefined;
    });

    it("has committed migrations for the provider", () => {
      expect(listMigrations(provider).migrationDirectories.length).toBeGreaterThan(0);
    });

    it("applies every migration once; a second run applies none", async () => {
      scratch = await createScratchDatabase(provider, POSTGRES_URL);
      const first = await migrateDatabase(scratch.url);
      expect(first).toEqual(listMigrations(provider).migrationDirectories.map((directory) => directory.path));
      expect(await migrateDatabase(scratch.url)).toEqual([]);
    });

    if (provider === "postgresql") {
      it('keeps release name and version in bytewise order (COLLATE "C"), as SQLite compares them', async () => {
        scratch = await createScratchDatabase(provider, POSTGRES_URL);
        await migrateDatabase(scratch.url);
        const client = new pg.Client({ connectionString: scratch.url });
        await client.connect();
        try {
          const { rows } = await client.query(
            `SELECT column_name, collation_name FROM information_schema.columns WHERE table_name = 'ToolRelease' AND column_name IN ('name', 'version') ORDER BY column_name`,
          );
          expect(rows).toEqual([
            { column_name: "name", collation_name: "C" },
            { column_name: "version", collation_name: "C" },
          ]);
        } finally {
          await client.end();
        }
      });
    }

    it("does not drift from prisma/schema.prisma (run `npm run db:migration -- <name>` when it does)", async () => {
      scratch = await createScratchDatabase(provider, POSTGRES_URL);
      await migrateDatabase(scratch.url);
      const missing = await sqlFromDatabaseToSchema(scratch.url);
      expect(missing, `the schema needs SQL the migrations do not have:\n${missing}`).toBe("");
    });
  });
}
