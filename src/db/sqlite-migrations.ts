// Applies the committed SQLite migrations over a plain better-sqlite3 connection rather than through
// the schema engine, for the guarantee PostgreSQL's applier gives: each migration commits in one
// transaction with its `_prisma_migrations` row (SQLite DDL is transactional), so a process killed
// at any point of a first start leaves either nothing or whole migrations, never a "failed" row.
// BEGIN IMMEDIATE takes the file's write lock, so processes that start together apply each
// migration once: the others wait, then find it recorded.
// Rows use Prisma's format (checksum = sha256 hex of the file, RFC 3339 times), so the schema
// engine, and `prisma migrate` read them as their own.
import { createHash, randomUUID } from "node:crypto";
import Database from "better-sqlite3";
import { MigrationFailedError, type CommittedMigration } from "./postgres-migrations.js";

/** How long a start waits for another process's migration (or a running server's write) to finish. */
const LOCK_WAIT_MS = 30_000;

const CREATE_MIGRATIONS_TABLE = `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id"                    TEXT PRIMARY KEY NOT NULL,
    "checksum"              TEXT NOT NULL,
    "finished_at"           DATETIME,
    "migration_name"        TEXT NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        DATETIME,
    "started_at"            DATETIME NOT NULL DEFAULT current_timestamp,
    "applied_steps_count"   INTEGER UNSIGNED NOT NULL DEFAULT 0
)`;

const APPLIED = 'SELECT migration_name FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL';

/** Applies the migrations the database file has not recorded; returns the names applied now. */
export function applySqliteMigrations(file: string, migrations: readonly CommittedMigration[]): string[] {
  const database = new Database(file, { timeout: LOCK_WAIT_MS });
  try {
    // Table redefinitions drop and recreate tables that others reference: foreign keys are checked
    // once, before each commit (PRAGMA foreign_key_check), not enforced statement by statement.
    // The pragma is a no-op inside a transaction, hence here.
    database.pragma("foreign_keys = OFF");
    database.exec(CREATE_MIGRATIONS_TABLE);
    const appliedNow: string[] = [];
    for (const migration of migrations) {
      if (applyOne(database, migration)) appliedNow.push(migration.name);
    }
    return appliedNow;
  } finally {
    database.close();
  }
}

/** Applies one migration unless it is recorded (read inside the write lock); true when applied now. */
function applyOne(database: Database.Database, migration: CommittedMigration): boolean {
  const startedAt = new Date().toISOString();
  database.exec("BEGIN IMMEDIATE");
  try {
    const applied = new Set(database.prepare(APPLIED).pluck().all() as string[]);
    if (applied.has(migration.name)) {
      database.exec("ROLLBACK");
      return false;
    }
    database.exec(migration.sql);
    const violations = database.pragma("foreign_key_check") as unknown[];
    if (violations.length > 0) throw new Error(`the migration leaves ${violations.length} foreign key violation(s): ${JSON.stringify(violations.slice(0, 3))}`);
    database
      .prepare(
        `INSERT INTO "_prisma_migrations" (id, checksum, finished_at, migration_name, logs, rolled_back_at, started_at, applied_steps_count)
         VALUES (?, ?, ?, ?, NULL, NULL, ?, 1)`,
      )
      .run(randomUUID(), createHash("sha256").update(migration.sql).digest("hex"), new Date().toISOString(), migration.name, startedAt);
    database.exec("COMMIT");
    return true;
  } catch (error) {
    if (database.inTransaction) database.exec("ROLLBACK");
    throw new MigrationFailedError(migration.name, error);
  }
}
