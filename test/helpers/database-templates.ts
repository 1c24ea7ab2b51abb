// One migrated database per provider per run, which every test service's database is copied from:
// applying the migrations (through the WASM schema engine on SQLite) for each of the suite's ~150
// services cost more than most of their tests. The migrations themselves are tested where they run
// (test/db/migrations.test.ts, the CLI and reliability tests), over fresh, unmigrated databases.
import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { migrateDatabase } from "../../src/db/migrations.js";
import type { DatabaseProvider } from "../../src/db/prisma-schemas.js";
import { databaseUrlOf, scratchDatabaseName, withAdminConnection, type ScratchDatabase } from "../../scripts/scratch-database.js";

export interface DatabaseTemplates {
  /** The migrated SQLite file. */
  sqlite: string;
  /** The migrated PostgreSQL database's name, beside TOOLGATE_TEST_POSTGRES_URL's; absent without it. */
  postgresql?: string;
}

declare module "vitest" {
  export interface ProvidedContext {
    databaseTemplates: DatabaseTemplates;
  }
}

/** Creates and migrates the templates (global setup); returns them and how to remove them. */
export async function createDatabaseTemplates(postgresUrl: string | undefined): Promise<{ templates: DatabaseTemplates; drop(): Promise<void> }> {
  const dir = mkdtempSync(path.join(os.tmpdir(), "toolgate-template-"));
  const sqlite = path.join(dir, "template.db");
  await migrateDatabase(`file:${sqlite}`);
  let postgresql: string | undefined;
  if (postgresUrl) {
    postgresql = `toolgate_template_${process.pid}_${Date.now().toString(36)}`;
    await withAdminConnection(postgresUrl, (client) => client.query(`CREATE DATABASE "${postgresql}"`));
    await migrateDatabase(databaseUrlOf(postgresUrl, postgresql));
  }
  const drop = async () => {
    rmSync(dir, { recursive: true, force: true });
    if (postgresUrl && postgresql) await withAdminConnection(postgresUrl, (client) => client.query(`DROP DATABASE IF EXISTS "${postgresql}" WITH (FORCE)`));
  };
  return { templates: { sqlite, ...(postgresql ? { postgresql } : {}) }, drop };
}

/** A fresh, migrated database: a copy of the provider's template. */
export async function copyDatabaseTemplate(
  templates: DatabaseTemplates,
  provider: DatabaseProvider,
  postgresUrl: string | undefined,
): Promise<ScratchDatabase> {
  const name = scratchDatabaseName();
  if (provider === "sqlite") {
    const dir = mkdtempSync(path.join(os.tmpdir(), "toolgate-"));
    const file = path.join(dir, `${name}.db`);
    copyFileSync(templates.sqlite, file);
    return { url: `file:${file}`, drop: async () => rmSync(dir, { recursive: true, force: true }) };
  }
  if (!postgresUrl || !templates.postgresql) throw new Error("copyDatabaseTemplate: no PostgreSQL template (TOOLGATE_TEST_POSTGRES_URL is not set)");
  await withAdminConnection(postgresUrl, (client) => client.query(`CREATE DATABASE "${name}" TEMPLATE "${templates.postgresql}"`));
  return {
    url: databaseUrlOf(postgresUrl, name),
    drop: () => withAdminConnection(postgresUrl, (client) => client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)),
  };
}
