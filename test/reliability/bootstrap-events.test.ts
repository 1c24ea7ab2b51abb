// The bootstrap administrator is a committed change like any other: creating it, promoting an
// existing account with its e-mail, and registering its token each record their change event.
import { afterEach, expect, it } from "vitest";
import { openDatabase, type Database } from "../../src/db/client.js";
import { migrateDatabase } from "../../src/db/migrations.js";
import { bootstrapAdmin, createAccount } from "../../src/domain/accounts.js";
import { createScratchDatabase, type ScratchDatabase } from "../../scripts/scratch-database.js";
import { describeEachDatabase, POSTGRES_URL } from "../helpers/service.js";

describeEachDatabase("bootstrap administrator events", (provider) => {
  let scratch: ScratchDatabase | undefined;
  let db: Database | undefined;
  afterEach(async () => {
    await db?.$disconnect();
    await scratch?.drop();
    [db, scratch] = [undefined, undefined];
  });
  const fresh = async () => {
    scratch = await createScratchDatabase(provider, POSTGRES_URL);
    await migrateDatabase(scratch.url);
    db = await openDatabase(scratch.url);
    return db;
  };
  const typesOf = async (database: Database, accountId: string) =>
    (await database.changeEvent.findMany({ where: { accountId }, orderBy: { id: "asc" } })).map((event) => ({ type: event.type, actor: event.actorAccountId }));

  it("records the created administrator and its one-time token; a second start records nothing", async () => {
    const database = await fresh();
    const { admin, generatedSecret } = await bootstrapAdmin(database, undefined);
    expect(generatedSecret).toBeDefined();
    expect(await typesOf(database, admin.id)).toEqual([
      { type: "account-created", actor: null },
      { type: "api-token-issued", actor: null },
    ]);
    const again = await bootstrapAdmin(database, undefined);
    expect(again.generatedSecret).toBeUndefined();
    expect(await typesOf(database, admin.id)).toHaveLength(2);
  });

  it("records the promotion of an existing account with the administrator's e-mail, and the configured token", async () => {
    const database = await fresh();
    const existing = await createAccount(database, "system", { name: "Ops", email: "admin@toolgate.local", plan: "team" });
    const { admin } = await bootstrapAdmin(database, `tg_configured_${"c".repeat(32)}`);
    expect(admin.id).toBe(existing.id);
    expect(admin.admin).toBe(true);
    expect(await typesOf(database, admin.id)).toEqual([
      { type: "account-created", actor: null },
      { type: "account-promoted", actor: null },
      { type: "api-token-issued", actor: null },
    ]);
  });
});
