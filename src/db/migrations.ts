// Applies the committed SQL migrations of a provider (prisma/migrations/<provider>/) and diffs
// databases against the schema, for `toolgate migrate`, `serve`, the drift test and new migrations.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import type { MigrationList } from "@prisma/schema-engine-wasm";
import { createMigrationAdapter, sqliteFilePath, type PostgresSettings } from "./connection.js";
import { providerOf } from "./database-url.js";
import { applyPostgresMigrations } from "./postgres-migrations.js";
import { applySqliteMigrations } from "./sqlite-migrations.js";
import { redactDatabaseUrl } from "./redact.js";
import { migrationsRoot, projectRoot, schemaFor, type DatabaseProvider } from "./prisma-schemas.js";
import { NO_FILTERS, openSchemaEngine } from "./schema-engine.js";

export const LOCKFILE_NAME = "migration_lock.toml";

export function migrationsDir(provider: DatabaseProvider): string {
  return path.join(migrationsRoot, provider);
}

export function lockfileContent(provider: DatabaseProvider): string {
  return `# Written by toolgate's migration script; do not edit.\nprovider = "${provider}"\n`;
}

export function listMigrations(provider: DatabaseProvider): MigrationList {
  const baseDir = migrationsDir(provider);
  const names = existsSync(baseDir)
    ? readdirSync(baseDir, { withFileTypes: true })
        .filter((entry) => entry.isDirectory())
        .map((entry) => entry.name)
        .sort()
    : [];
  const lockPath = path.join(baseDir, LOCKFILE_NAME);
  return {
    baseDir,
    lockfile: { path: LOCKFILE_NAME, content: existsSync(lockPath) ? readFileSync(lockPath, "utf8") : null },
    shadowDbInitScript: "",
    migrationDirectories: names.map((name) => ({
      path: name,
      migrationFile: { path: "migration.sql", content: { tag: "ok", value: readFileSync(path.join(baseDir, name, "migration.sql"), "utf8") } },
    })),
  };
}

function schemaFile(provider: DatabaseProvider) {
  return { path: path.join(projectRoot, "prisma", "schema.prisma"), content: schemaFor(provider) };
}

/**
 * Applies pending migrations; returns the names of those applied now (empty when up to date). Each
 * migration commits in one transaction with its record: PostgreSQL under an advisory lock
 * (postgres-migrations.ts), SQLite under the file's write lock (sqlite-migrations.ts).
 */
export async function migrateDatabase(databaseUrl: string, postgres?: PostgresSettings): Promise<string[]> {
  const provider = providerOf(databaseUrl);
  const committed = listMigrations(provider).migrationDirectories.map((directory) => ({
    name: directory.path,
    sql: readFileSync(path.join(migrationsDir(provider), directory.path, directory.migrationFile.path), "utf8"),
  }));
  if (provider === "postgresql") return applyPostgresMigrations(databaseUrl, committed, postgres);
  try {
    return applySqliteMigrations(sqliteFilePath(databaseUrl), committed);
  } catch (error) {
    if ((error as { code?: unknown }).code === "SQLITE_BUSY") {
      throw new Error(`cannot migrate ${redactDatabaseUrl(databaseUrl)}: another process holds its write lock; stop it and retry`, { cause: error });
    }
    throw error;
  }
}

/**
 * SQL that brings the database at `databaseUrl` to the schema; empty when they are in sync.
 * Diffing from committed migrations needs a shadow database the WASM engine cannot create, so
 * callers apply the migrations to a scratch database first and diff that.
 */
export async function sqlFromDatabaseToSchema(databaseUrl: string): Promise<string> {
  const provider = providerOf(databaseUrl);
  const schema = schemaFile(provider);
  const { engine, close } = await openSchemaEngine(createMigrationAdapter(databaseUrl), schema);
  try {
    const result = await engine.diff({
      from: { tag: "schemaDatasource", files: [schema], configDir: projectRoot },
      to: { tag: "schemaDatamodel", files: [schema] },
      script: true,
      exitCode: true,
      filters: NO_FILTERS,
    });
    return result.exitCode === 2 ? (result.stdout ?? "") : "";
  } finally {
    await close();
  }
}
