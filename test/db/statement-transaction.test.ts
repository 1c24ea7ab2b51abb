// Write transactions below Prisma's engine (src/db/statement-transaction.ts, src/db/planned-writes.ts)
// store and answer what Prisma's would: the rows they create and update read back through Prisma as
// they answered them, their reads see their own writes, a failure leaves nothing behind, calls they
// do not translate are refused, and a transaction that cannot start in time gives up without
// keeping the connection or the gate. Both databases.
import { afterAll, beforeAll, expect, it } from "vitest";
import { seedTenants, type TenantsSeed } from "../../bench/tenants-dataset.js";
import { beginStatementTransactionOn, findFirstPlanned, openDatabase, type Database, type Db } from "../../src/db/client.js";
import { DEFAULT_POSTGRES_SETTINGS } from "../../src/db/connection.js";
import { isDatabaseUnavailable } from "../../src/db/unavailable.js";
import { TransactionWaitTimeout } from "../../src/db/statement-transaction.js";
import { GRANT_COLUMNS } from "../../src/domain/grants.js";
import { writeTransaction } from "../../src/domain/write-transaction.js";
import { createMigratedDatabase, describeEachDatabase } from "../helpers/service.js";

describeEachDatabase("write transactions below Prisma's engine", (provider) => {
  let db: Database;
  let drop: () => Promise<void>;
  let seed: TenantsSeed;
  let databaseUrl: string;
  const statements: string[] = [];

  beforeAll(async () => {
    const scratch = await createMigratedDatabase(provider);
    drop = scratch.drop;
    databaseUrl = scratch.url;
    db = await openDatabase(scratch.url, { onQuery: (sql) => statements.push(sql) });
    seed = await seedTenants(db, { accounts: 2, environmentsPerAccount: 1, releasesPerAccount: 8, grantsPerEnvironment: 1 });
  }, 60_000);

  afterAll(async () => {
    await db?.$disconnect();
    await drop?.();
  });

  const below = <T>(work: (tx: Db) => Promise<T>) => writeTransaction(db, [], work, "below-engine");
  const account = () => seed.accounts[0]!;
  /** A release of account 0 not granted in its environment yet (read before a transaction: on SQLite it holds the one connection). */
  const ungranted = async () => {
    const environmentId = account().environmentIds[0]!;
    const granted = new Set((await db.grant.findMany({ where: { environmentId }, select: { releaseId: true } })).map((grant) => grant.releaseId));
    const release = await db.toolRelease.findFirstOrThrow({ where: { ownerAccountId: account().id, id: { notIn: [...granted] } } });
    return { environmentId, releaseId: release.id };
  };
  const newGrant = async () => {
    const at = new Date(Math.floor(Date.now() / 1000) * 1000 + 123);
    return {
      ...(await ungranted()),
      protected: false,
      automatic: false,
      followCoordinates: true,
      lifecycle: "active",
      createdAt: at,
      createdById: account().id,
      stateChangedAt: at,
      stateChangedById: account().id,
    };
  };

  it("creates and updates grants that Prisma reads back as they were answered", async () => {
    const data = await newGrant();
    const created = await below((tx) => tx.grant.create({ data }));
    expect(created.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(await db.grant.findUnique({ where: { id: created.id } })).toEqual(created);
    // The columns in the model's order, as Prisma's rows have them (event states are their JSON).
    expect(Object.keys(created)).toEqual(Object.keys(GRANT_COLUMNS));

    const updated = await below((tx) => tx.grant.update({ where: { id: created.id }, data: { automatic: true, followCoordinates: false } }));
    expect(updated).toEqual({ ...created, automatic: true, followCoordinates: false });
    expect(await db.grant.findUnique({ where: { id: created.id } })).toEqual(updated);

    const deleted = { lifecycle: "deleted", stateChangedAt: new Date(), stateChangedById: seed.accounts[1]!.id };
    const where = { id: created.id, lifecycle: "active", protected: false, automatic: true };
    expect(await below((tx) => tx.grant.updateMany({ where, data: deleted }))).toEqual({ count: 1 });
    expect(await below((tx) => tx.grant.updateMany({ where, data: deleted }))).toEqual({ count: 0 });
    expect(await db.grant.findUnique({ where: { id: created.id } })).toEqual({ ...updated, ...deleted });
  });

  it("reads its own writes with planned reads, and sends no statement through Prisma's engine", async () => {
    const data = await newGrant();
    statements.length = 0;
    const seen = await below(async (tx) => {
      const grant = await tx.grant.create({ data });
      return findFirstPlanned(tx, "grant", { where: { id: grant.id }, select: { id: true, releaseId: true, createdAt: true } });
    });
    expect(seen).toEqual({ id: expect.any(String), releaseId: data.releaseId, createdAt: data.createdAt });
    // The insert, the read and COMMIT: one statement each, none of Prisma's own (backticked, schema-qualified) text.
    expect(statements.map((sql) => sql.split(" ", 1)[0])).toEqual(["INSERT", "SELECT", "COMMIT"]);
    expect(statements.some((sql) => /`main`|"public"\./.test(sql))).toBe(false);
  });

  it("leaves nothing behind when the unit of work fails, and the next transaction runs", async () => {
    const data = await newGrant();
    await expect(
      below(async (tx) => {
        await tx.grant.create({ data });
        throw new Error("the unit of work failed");
      }),
    ).rejects.toThrow("the unit of work failed");
    expect(await db.grant.findFirst({ where: { environmentId: data.environmentId, releaseId: data.releaseId } })).toBeNull();
    const created = await below((tx) => tx.grant.create({ data }));
    expect(await db.grant.findUnique({ where: { id: created.id } })).toEqual(created);
  });

  it("refuses the calls it does not translate, before sending anything", async () => {
    const before = await db.grant.count();
    await expect(below((tx) => tx.grant.findMany())).rejects.toThrow(/findMany is not available in a write transaction below Prisma's engine/);
    await expect(below((tx) => tx.environment.update({ where: { id: "x" }, data: { name: "y" } }))).rejects.toThrow(/environment is not available/);
    await expect(below((tx) => tx.grant.create({ data: { environmentId: "x" } as never }))).rejects.toThrow(/releaseId must be given/);
    await expect(below((tx) => tx.grant.updateMany({ where: { release: { name: "x" } }, data: { automatic: true } }))).rejects.toThrow(/to-one relation/);
    expect(await db.grant.count()).toBe(before);
  });

  it.runIf(provider === "postgresql")("names its statements as Prisma's are, and sends them unnamed when prepared statements are off (PgBouncer)", async () => {
    const preparedOn = async (database: Database) => {
      const data = await newGrant();
      return writeTransaction(
        database,
        [],
        async (tx) => {
          await tx.grant.create({ data });
          const [row] = await tx.$queryRawUnsafe<Array<{ named: number }>>(
            `SELECT count(*)::int AS "named" FROM pg_prepared_statements WHERE "name" LIKE 'toolgate\\_%'`,
          );
          throw Object.assign(new Error("rolled back on purpose"), { named: row!.named });
        },
        "below-engine",
      ).catch((error: { named?: number }) => error.named);
    };
    expect(await preparedOn(db)).toBeGreaterThan(0);
    const unprepared = await openDatabase(databaseUrl, {
      postgres: { ...DEFAULT_POSTGRES_SETTINGS, preparedStatements: false },
    });
    try {
      expect(await preparedOn(unprepared)).toBe(0);
    } finally {
      await unprepared.$disconnect();
    }
  });

  it.runIf(provider === "sqlite")("gives up waiting for the gate after its wait, as a 503, and ends the transaction it was given late", async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const holder = writeTransaction(db, [], () => held);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const waited = beginStatementTransactionOn(db, 100);
    await expect(waited).rejects.toBeInstanceOf(TransactionWaitTimeout);
    expect(isDatabaseUnavailable(await waited.catch((error: unknown) => error))).toBe(true);
    release();
    await holder;
    // The late transaction was rolled back and the gate opened again: writes go on.
    const data = await newGrant();
    const created = await below((tx) => tx.grant.create({ data }));
    expect(await db.grant.findUnique({ where: { id: created.id } })).toEqual(created);
  });
});
