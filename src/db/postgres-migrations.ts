// Applies the committed PostgreSQL migrations over a plain connection rather than through the
// schema engine, for two guarantees the engine does not give:
// - each migration runs in one transaction with its `_prisma_migrations` row (PostgreSQL DDL is
//   transactional), so a process killed mid-migration leaves nothing half-applied or "failed";
// - a session advisory lock serialises replicas that start together: one applies, the others wait
//   and then find nothing pending.
// Rows use Prisma's format (checksum = sha256 hex of the file), so the schema engine and `prisma migrate`
// read them as their own.
import { createHash, randomUUID } from "node:crypto";
import pg from "pg";
import { DEFAULT_POSTGRES_SETTINGS, postgresClientConfig, type PostgresSettings } from "./connection.js";

/** Prisma migrate's own lock key, so toolgate and `prisma migrate deploy` also exclude each other. */
export const MIGRATION_LOCK_KEY = 72707369;

export interface CommittedMigration {
  name: string;
  sql: string;
}

export class MigrationFailedError extends Error {
  constructor(
    readonly migration: string,
    cause: unknown,
  ) {
    super(`migration ${migration} failed and was rolled back: ${(cause as Error).message}`, { cause });
    this.name = "MigrationFailedError";
  }
}

const CREATE_MIGRATIONS_TABLE = `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id"                    VARCHAR(36) PRIMARY KEY NOT NULL,
    "checksum"              VARCHAR(64) NOT NULL,
    "finished_at"           TIMESTAMPTZ,
    "migration_name"        VARCHAR(255) NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        TIMESTAMPTZ,
    "started_at"            TIMESTAMPTZ NOT NULL DEFAULT now(),
    "applied_steps_count"   INTEGER NOT NULL DEFAULT 0
)`;

/** Applies the migrations the database has not recorded; returns the names applied now. */
export async function applyPostgresMigrations(
  databaseUrl: string,
  migrations: readonly CommittedMigration[],
  settings: PostgresSettings = DEFAULT_POSTGRES_SETTINGS,
): Promise<string[]> {
  // No statement timeout: a migration may legitimately be slow, and waiting for the lock is the point.
  const { statement_timeout: _statement, ...config } = postgresClientConfig(databaseUrl, settings);
  const client = new pg.Client(config);
  client.on("error", () => {}); // a dropped connection fails the pending query, which reports it
  await client.connect();
  try {
    await client.query("SELECT pg_advisory_lock($1)", [MIGRATION_LOCK_KEY]);
    await client.query(CREATE_MIGRATIONS_TABLE);
    const { rows } = await client.query<{ migration_name: string }>(
      'SELECT migration_name FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL',
    );
    const applied = new Set(rows.map((row) => row.migration_name));
    const appliedNow: string[] = [];
    for (const migration of migrations) {
      if (applied.has(migration.name)) continue;
      await applyOne(client, migration);
      appliedNow.push(migration.name);
    }
    return appliedNow;
  } finally {
    // Ending the session releases the advisory lock too.
    await client.end().catch(() => {});
  }
}

async function applyOne(client: pg.Client, migration: CommittedMigration): Promise<void> {
  const startedAt = new Date();
  await client.query("BEGIN");
  try {
    await client.query(migration.sql);
    await client.query(
      `INSERT INTO "_prisma_migrations" (id, checksum, finished_at, migration_name, logs, rolled_back_at, started_at, applied_steps_count)
       VALUES ($1, $2, now(), $3, NULL, NULL, $4, 1)`,
      [randomUUID(), createHash("sha256").update(migration.sql).digest("hex"), migration.name, startedAt],
    );
    await client.query("COMMIT");
  } catch (error) {
    await client.query("ROLLBACK").catch(() => {});
    throw new MigrationFailedError(migration.name, error);
  }
}
