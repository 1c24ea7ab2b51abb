// Replicas starting together on one fresh PostgreSQL database: migrations are applied once under
// an advisory lock, the bootstrap admin is created once, and every replica starts. And a process
// killed in the middle of a migration leaves nothing behind: the next start applies it whole.
import pg from "pg";
import { afterEach, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config.js";
import { listMigrations } from "../../src/db/migrations.js";
import { MIGRATION_LOCK_KEY } from "../../src/db/postgres-migrations.js";
import { createScratchDatabase, type ScratchDatabase } from "../../scripts/scratch-database.js";
import { startService, type Service } from "../../src/service.js";
import { runToolgate, serveToolgate } from "../helpers/child-process.js";
import { client } from "../helpers/http.js";
import { POSTGRES_URL } from "../helpers/service.js";

const REPLICAS = 16;
/** Child processes are heavier (each compiles the TypeScript sources at start); 8 still race. */
const PROCESSES = 8;
const MIGRATION_NAMES = listMigrations("postgresql").migrationDirectories.map((directory) => directory.path);

async function withClient<T>(databaseUrl: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const connection = new pg.Client({ connectionString: databaseUrl });
  await connection.connect();
  try {
    return await work(connection);
  } finally {
    await connection.end();
  }
}

const migrationRows = (databaseUrl: string) =>
  withClient(databaseUrl, async (connection) => {
    const exists = (await connection.query(`SELECT to_regclass('"_prisma_migrations"') AS name`)).rows[0].name;
    if (!exists) return [];
    return (
      await connection.query(`SELECT migration_name, finished_at IS NOT NULL AS finished, rolled_back_at FROM "_prisma_migrations" ORDER BY migration_name`)
    ).rows;
  });

(POSTGRES_URL ? describe : describe.skip)("concurrent first starts and interrupted migrations [postgresql]", () => {
  let scratch: ScratchDatabase | undefined;
  afterEach(async () => {
    await scratch?.drop();
    scratch = undefined;
  });

  it(`starts ${REPLICAS} replicas together on one fresh database with one TOOLGATE_ADMIN_TOKEN`, async () => {
    scratch = await createScratchDatabase("postgresql", POSTGRES_URL);
    const adminToken = `tg_shared_admin_${"s".repeat(32)}`;
    const config = loadConfig(
      {},
      {
        databaseUrl: scratch.url,
        port: 0,
        logLevel: "silent",
        adminToken,
        postgres: { connectTimeoutMs: 10_000, statementTimeoutMs: 15_000, poolSize: 1, preparedStatements: true },
      },
    );
    const outcomes = await Promise.allSettled(Array.from({ length: REPLICAS }, () => startService(config)));
    const services = outcomes.flatMap((outcome) => (outcome.status === "fulfilled" ? [outcome.value] : []));
    try {
      expect(outcomes.filter((outcome) => outcome.status === "rejected").map((outcome) => String((outcome as PromiseRejectedResult).reason))).toEqual([]);
      for (const service of services) expect((await client(service.url, adminToken).graphql("{ me { admin } }")).body.data).toEqual({ me: { admin: true } });
      expect(await migrationRows(scratch.url)).toEqual(MIGRATION_NAMES.map((name) => ({ migration_name: name, finished: true, rolled_back_at: null })));
      const counts = await withClient(
        scratch.url,
        async (connection) =>
          (await connection.query(`SELECT (SELECT count(*) FROM "Account" WHERE admin)::int AS admins, (SELECT count(*) FROM "ApiToken")::int AS tokens`))
            .rows[0],
      );
      expect(counts).toEqual({ admins: 1, tokens: 1 });
    } finally {
      await Promise.all(services.map((service: Service) => service.stop()));
    }
  });

  it(`starts ${REPLICAS} replicas together without TOOLGATE_ADMIN_TOKEN: one admin, one one-time token, shown by one replica`, async () => {
    scratch = await createScratchDatabase("postgresql", POSTGRES_URL);
    const config = loadConfig(
      {},
      {
        databaseUrl: scratch.url,
        port: 0,
        logLevel: "silent",
        adminToken: undefined,
        postgres: { connectTimeoutMs: 10_000, statementTimeoutMs: 15_000, poolSize: 1, preparedStatements: true },
      },
    );
    const outcomes = await Promise.allSettled(Array.from({ length: REPLICAS }, () => startService(config)));
    const services = outcomes.flatMap((outcome) => (outcome.status === "fulfilled" ? [outcome.value] : []));
    try {
      expect(outcomes.filter((outcome) => outcome.status === "rejected").map((outcome) => String((outcome as PromiseRejectedResult).reason))).toEqual([]);
      const shown = services.flatMap((service) => (service.adminToken ? [service.adminToken] : []));
      expect(shown).toHaveLength(1);
      expect((await client(services[0]!.url, shown[0]).graphql("{ me { admin } }")).body.data).toEqual({ me: { admin: true } });
      const counts = await withClient(
        scratch.url,
        async (connection) =>
          (await connection.query(`SELECT (SELECT count(*) FROM "Account" WHERE admin)::int AS admins, (SELECT count(*) FROM "ApiToken")::int AS tokens`))
            .rows[0],
      );
      expect(counts).toEqual({ admins: 1, tokens: 1 });
    } finally {
      await Promise.all(services.map((service: Service) => service.stop()));
    }
  });

  it(`starts ${PROCESSES} \`toolgate serve\` processes together on one fresh database`, { timeout: 120_000 }, async () => {
    scratch = await createScratchDatabase("postgresql", POSTGRES_URL);
    const env = { TOOLGATE_DATABASE_URL: scratch.url, TOOLGATE_ADMIN_TOKEN: `tg_processes_admin_${"p".repeat(32)}`, TOOLGATE_DB_POOL_SIZE: "2" };
    const outcomes = await Promise.allSettled(Array.from({ length: PROCESSES }, () => serveToolgate(env, 90_000)));
    const serving = outcomes.flatMap((outcome) => (outcome.status === "fulfilled" ? [outcome.value] : []));
    try {
      expect(outcomes.filter((outcome) => outcome.status === "rejected").map((outcome) => String((outcome as PromiseRejectedResult).reason))).toEqual([]);
      for (const replica of serving)
        expect((await client(replica.url, env.TOOLGATE_ADMIN_TOKEN).graphql("{ me { admin } }")).body.data).toEqual({ me: { admin: true } });
      expect(await migrationRows(scratch.url)).toEqual(MIGRATION_NAMES.map((name) => ({ migration_name: name, finished: true, rolled_back_at: null })));
    } finally {
      for (const replica of serving) replica.child.kill("SIGTERM");
      expect((await Promise.all(serving.map((replica) => replica.exited))).map((exit) => exit.code)).toEqual(serving.map(() => 0));
    }
  });

  it("leaves nothing half-applied when the process is SIGKILLed in the middle of a migration; the next start applies it", async () => {
    scratch = await createScratchDatabase("postgresql", POSTGRES_URL);
    const url = scratch.url;
    // Hold the process inside the migration's transaction: its DDL is done, but recording the
    // migration waits for our lock on _prisma_migrations (SHARE blocks INSERT, not SELECT).
    const blocker = new pg.Client({ connectionString: url });
    await blocker.connect();
    // A second session watches: pg_stat_activity is a snapshot for the length of a transaction.
    const observer = new pg.Client({ connectionString: url });
    await observer.connect();
    const migrate = runToolgate(["migrate"], { TOOLGATE_DATABASE_URL: url });
    try {
      await blocker.query(
        `CREATE TABLE "_prisma_migrations" ("id" VARCHAR(36) PRIMARY KEY NOT NULL, "checksum" VARCHAR(64) NOT NULL, "finished_at" TIMESTAMPTZ, "migration_name" VARCHAR(255) NOT NULL, "logs" TEXT, "rolled_back_at" TIMESTAMPTZ, "started_at" TIMESTAMPTZ NOT NULL DEFAULT now(), "applied_steps_count" INTEGER NOT NULL DEFAULT 0)`,
      );
      await blocker.query(`BEGIN; LOCK TABLE "_prisma_migrations" IN SHARE MODE`);
      const waitingPid = await pollUntil(async () => {
        const { rows } = await observer.query(
          `SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE 'INSERT INTO "_prisma_migrations"%'`,
        );
        return rows[0]?.pid as number | undefined;
      }, 30_000);
      expect((await blocker.query(`SELECT to_regclass('"Account"') AS name`)).rows[0].name).toBeNull(); // not visible: uncommitted
      migrate.child.kill("SIGKILL");
      expect((await migrate.exited).signal).toBe("SIGKILL");
      await blocker.query("COMMIT");
      // The orphaned backend finds its client gone at the next command and rolls back.
      await pollUntil(
        async () => ((await observer.query(`SELECT 1 FROM pg_stat_activity WHERE pid = $1`, [waitingPid])).rowCount === 0 ? true : undefined),
        30_000,
      );
      expect((await blocker.query(`SELECT to_regclass('"Account"') AS name`)).rows[0].name).toBeNull();
      expect((await blocker.query(`SELECT count(*)::int AS rows FROM "_prisma_migrations"`)).rows[0].rows).toBe(0);
    } finally {
      await migrate.ensureDead();
      await blocker.end();
      await observer.end();
    }

    const serving = await serveToolgate({ TOOLGATE_DATABASE_URL: url, TOOLGATE_ADMIN_TOKEN: `tg_after_kill_${"k".repeat(32)}` });
    try {
      expect((await client(serving.url).get("/readyz")).body).toEqual({ status: "ready" });
      expect(await migrationRows(url)).toEqual(MIGRATION_NAMES.map((name) => ({ migration_name: name, finished: true, rolled_back_at: null })));
    } finally {
      serving.child.kill("SIGTERM");
      expect((await serving.exited).code).toBe(0);
    }
  });

  it("survives SIGKILLs at arbitrary moments of first starts: the next start succeeds", async () => {
    scratch = await createScratchDatabase("postgresql", POSTGRES_URL);
    const env = { TOOLGATE_DATABASE_URL: scratch.url, TOOLGATE_ADMIN_TOKEN: `tg_random_kill_${"q".repeat(32)}` };
    // Kill each attempt at a staggered delay after it takes the migration lock (or, once migrations
    // are done, after it is up): inside migrations, inside the bootstrap, or serving.
    for (const delayMs of [0, 5, 20, 50]) {
      const attempt = runToolgate(["serve", "--port", "0"], env);
      await pollUntil(
        async () => (await lockHolder(scratch!.url)) ?? (attempt.stdout().includes("listening on") || attempt.child.exitCode !== null ? -1 : undefined),
        30_000,
      );
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      attempt.child.kill("SIGKILL");
      await attempt.exited;
    }
    const serving = await serveToolgate(env);
    try {
      expect((await client(serving.url, env.TOOLGATE_ADMIN_TOKEN).graphql("{ me { admin } }")).body.data).toEqual({ me: { admin: true } });
      expect(await migrationRows(scratch.url)).toEqual(MIGRATION_NAMES.map((name) => ({ migration_name: name, finished: true, rolled_back_at: null })));
    } finally {
      serving.child.kill("SIGTERM");
      expect((await serving.exited).code).toBe(0);
    }
  });
});

/** The backend holding toolgate's migration lock, if any. */
async function lockHolder(databaseUrl: string): Promise<number | undefined> {
  return withClient(databaseUrl, async (connection) => {
    const { rows } = await connection.query(`SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND objid = $1 AND granted`, [MIGRATION_LOCK_KEY]);
    return rows[0]?.pid as number | undefined;
  });
}

async function pollUntil<T>(probe: () => Promise<T | undefined>, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error("condition not reached in time");
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
