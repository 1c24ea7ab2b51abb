// `npm run db:migration -- <name>`: writes the SQL that brings the committed migrations up to
// prisma/schema.prisma, one migration per provider (PostgreSQL needs a reachable server:
// TOOLGATE_TEST_POSTGRES_URL, default postgres://postgres@127.0.0.1:5432/test).
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { LOCKFILE_NAME, lockfileContent, migrateDatabase, migrationsDir, sqlFromDatabaseToSchema } from "../src/db/migrations.js";
import { DATABASE_PROVIDERS } from "../src/db/prisma-schemas.js";
import { createScratchDatabase } from "./scratch-database.js";

const name = process.argv[2];
if (!name || !/^[a-z0-9_]+$/.test(name)) {
  console.error("usage: npm run db:migration -- <name>   (name: lowercase letters, digits, underscores)");
  process.exit(2);
}
const stamp = new Date().toISOString().replace(/[-:T]/g, "").slice(0, 14);

for (const provider of DATABASE_PROVIDERS) {
  const scratch = await createScratchDatabase(provider);
  try {
    await migrateDatabase(scratch.url);
    const sql = await sqlFromDatabaseToSchema(scratch.url);
    if (!sql.trim()) {
      console.log(`${provider}: schema and migrations are in sync, nothing written`);
      continue;
    }
    const dir = path.join(migrationsDir(provider), `${stamp}_${name}`);
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, "migration.sql"), sql);
    writeFileSync(path.join(migrationsDir(provider), LOCKFILE_NAME), lockfileContent(provider));
    console.log(`${provider}: wrote ${path.relative(process.cwd(), dir)}/migration.sql`);
  } finally {
    await scratch.drop();
  }
}
