// Transactions are isolated by construction, even when they yield to the event loop: another
// request's statements neither see their uncommitted rows nor join (and roll back with) them. And a
// database locked by another process slows writes down without freezing the server.
import Database from "better-sqlite3";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, expect, it } from "vitest";
import { writeTransaction } from "../../src/domain/write-transaction.js";
import { client } from "../helpers/http.js";
import { describeEachDatabase, startTestService, type TestService } from "../helpers/service.js";
import { createWorld, type World } from "../helpers/world.js";

const CREATE_ENVIRONMENT = /* GraphQL */ `mutation ($input: CreateEnvironmentInput!) { createEnvironment(input: $input) { id name } }`;

class RolledBack extends Error {}

describeEachDatabase("transaction isolation", (provider) => {
  let service: TestService;
  let world: World;

  beforeAll(async () => {
    service = await startTestService(provider);
    world = await createWorld(service);
  });
  afterAll(() => service?.stopAndDrop());

  it("a transaction that awaits I/O is invisible to, and untouched by, concurrent statements; its rollback takes only its own rows", async () => {
    const db = service.db;
    let inside!: () => void;
    const started = new Promise<void>((resolve) => (inside = resolve));
    const transaction = writeTransaction(db, [], async (tx) => {
      await tx.account.create({ data: { name: "uncommitted", email: "uncommitted@example.test" } });
      inside();
      await sleep(200); // yields to the event loop with the transaction open
      throw new RolledBack();
    }).catch((error: unknown) => error);

    await started;
    const [seen, written] = await Promise.all([
      db.account.findUnique({ where: { email: "uncommitted@example.test" } }),
      db.account.create({ data: { name: "concurrent", email: "concurrent@example.test" } }),
    ]);
    expect(await transaction).toBeInstanceOf(RolledBack);
    expect(seen).toBeNull();
    expect(await db.account.findUnique({ where: { email: "uncommitted@example.test" } })).toBeNull();
    expect(await db.account.findUnique({ where: { id: written.id } })).toMatchObject({ name: "concurrent" });
  });

  if (provider !== "sqlite") return;

  it("SQLite locked by another process: /healthz keeps answering, and the write waits and succeeds once the lock is released", async () => {
    const other = new Database(service.databaseUrl.slice("file:".length));
    try {
      other.exec("BEGIN IMMEDIATE");
      other.prepare("UPDATE Account SET name = name").run();
      let writeDone = false;
      const write = world.owner.http
        .graphql(CREATE_ENVIRONMENT, { input: { accountId: world.owner.account.id, name: "after-the-lock" } })
        .finally(() => (writeDone = true));
      const health = client(service.url);
      let answeredDuringLock = 0;
      for (let round = 0; round < 10; round += 1) {
        expect((await health.get("/healthz")).status).toBe(200);
        if (!writeDone) answeredDuringLock += 1;
        await sleep(50);
      }
      expect(writeDone).toBe(false);
      expect(answeredDuringLock).toBe(10);
      other.exec("COMMIT");
      const result = await write;
      expect(result.status).toBe(200);
      expect(result.body.data.createEnvironment.name).toBe("after-the-lock");
    } finally {
      if (other.inTransaction) other.exec("ROLLBACK");
      other.close();
    }
  });
});
