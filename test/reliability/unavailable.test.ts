// isDatabaseUnavailable recognises what Prisma 7 and node-postgres really throw when PostgreSQL is
// refused, black-holed, shut down under a query or missing, and nothing else (a constraint
// violation or a syntax error is not an outage).
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "../../src/db/client.js";
import { migrateDatabase } from "../../src/db/migrations.js";
import { createScratchDatabase, type ScratchDatabase } from "../../scripts/scratch-database.js";
import { isDatabaseUnavailable } from "../../src/db/unavailable.js";
import { POSTGRES_URL } from "../helpers/service.js";
import { hostAndPort, startTcpProxy, type TcpProxy } from "../helpers/tcp-proxy.js";

const failureOf = (work: Promise<unknown>) =>
  work.then(
    () => {
      throw new Error("expected a failure");
    },
    (error: unknown) => error,
  );

(POSTGRES_URL ? describe : describe.skip)("isDatabaseUnavailable [postgresql]", () => {
  let scratch: ScratchDatabase;
  let proxy: TcpProxy;
  let db: Database;

  beforeAll(async () => {
    scratch = await createScratchDatabase("postgresql", POSTGRES_URL);
    await migrateDatabase(scratch.url);
    proxy = await startTcpProxy(hostAndPort(scratch.url));
    db = await openDatabase(proxy.urlFor(scratch.url), { postgres: { connectTimeoutMs: 500, statementTimeoutMs: 500, poolSize: 2, preparedStatements: true } });
  });
  afterAll(async () => {
    await db?.$disconnect();
    await proxy?.close();
    await scratch?.drop();
  });

  it("recognises a refused connection, for model queries, raw queries and transactions", async () => {
    await proxy.setMode("refuse");
    try {
      const attempts = [
        () => db.account.count(),
        () => db.account.count(),
        () => db.$queryRawUnsafe("SELECT 1"),
        () => db.$transaction((tx) => tx.account.count()),
      ];
      for (const attempt of attempts) expect(isDatabaseUnavailable(await failureOf(attempt()))).toBe(true);
    } finally {
      await proxy.setMode("forward");
    }
  });

  it("recognises a network partition (connect and query timeouts)", async () => {
    await proxy.setMode("blackhole");
    try {
      expect(isDatabaseUnavailable(await failureOf(db.account.count()))).toBe(true);
      proxy.dropConnections();
      expect(isDatabaseUnavailable(await failureOf(db.account.count()))).toBe(true);
    } finally {
      await proxy.setMode("forward");
    }
  });

  it("recognises a connection terminated by an administrator under a running query (57P01)", async () => {
    const sleeping = failureOf(db.$queryRawUnsafe("SELECT pg_sleep(0.4)"));
    const admin = new pg.Client({ connectionString: scratch.url });
    await admin.connect();
    try {
      for (let attempt = 0; attempt < 20; attempt += 1) {
        const { rows } = await admin.query(
          "SELECT pg_terminate_backend(pid) AS done FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'SELECT pg_sleep%'",
        );
        if (rows.length > 0) break;
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    } finally {
      await admin.end();
    }
    expect(isDatabaseUnavailable(await sleeping)).toBe(true);
  });

  it("recognises a statement timeout (57014)", async () => {
    expect(isDatabaseUnavailable(await failureOf(db.$queryRawUnsafe("SELECT pg_sleep(2)")))).toBe(true);
  });

  it("recognises a missing database (3D000), from Prisma and from node-postgres", async () => {
    const missing = new URL(scratch.url);
    missing.pathname = "/toolgate_no_such_database";
    const other = await openDatabase(missing.toString());
    try {
      expect(isDatabaseUnavailable(await failureOf(other.account.count()))).toBe(true);
    } finally {
      await other.$disconnect();
    }
    const plain = new pg.Client({ connectionString: missing.toString() });
    expect(isDatabaseUnavailable(await failureOf(plain.connect()))).toBe(true);
  });

  it("does not take a unique violation, a syntax error or a plain error for an outage", async () => {
    const email = `twice-${Date.now()}@example.test`;
    await db.account.create({ data: { name: "Twice", email } });
    expect(isDatabaseUnavailable(await failureOf(db.account.create({ data: { name: "Twice", email } })))).toBe(false);
    expect(isDatabaseUnavailable(await failureOf(db.$queryRawUnsafe("SELEC 1")))).toBe(false);
    expect(isDatabaseUnavailable(new Error("something else"))).toBe(false);
    expect(isDatabaseUnavailable(undefined)).toBe(false);
  });
});
