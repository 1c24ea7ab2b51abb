// The database itself refuses values outside every string enum of the schema (PostgreSQL CHECK
// constraints, SQLite triggers; prisma/migrations/*/…_enum_checks), whoever writes: raw SQL here.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../src/db/client.js";
import { createWorld, type World } from "../helpers/world.js";
import { describeEachDatabase, startTestService, type TestService } from "../helpers/service.js";

interface EnumColumn {
  table: string;
  column: string;
  valid: string;
  /** A raw INSERT of a new, otherwise valid row whose `column` is `value`. */
  insert(value: string): string;
  /** A raw UPDATE setting `column` of an existing row to `value`. */
  update(value: string): string;
}

const sql = (value: string) => `'${value.replace(/'/g, "''")}'`;

function enumColumns(world: World, release: { id: string; ownerAccountId: string }, freshEnvironmentId: string): EnumColumn[] {
  const owner = world.owner.account.id;
  const releaseInsert = (column: string) => (value: string) => {
    const values: Record<string, string> = {
      sourceKind: "component",
      lifecycle: "published",
      origin: "ordinary",
      systemAvailability: "grantable",
      [column]: value,
    };
    return `INSERT INTO "ToolRelease" ("id", "ownerAccountId", "name", "version", "sourceKind", "componentId", "componentRevision", "componentName",
        "definition", "metadataVersion", "metadataDigest", "sourceDigest", "immutable", "lifecycle", "origin", "systemAvailability",
        "currentCoordinate", "createdById", "stateChangedById")
      VALUES (${sql(randomUUID())}, ${sql(owner)}, 'raw-release', ${sql(randomUUID())}, ${sql(values.sourceKind!)}, ${sql(randomUUID())}, 1, 'raw',
        '{}', '0.1.0', 'sha256:0', 'sha256:0', false, ${sql(values.lifecycle!)}, ${sql(values.origin!)}, ${sql(values.systemAvailability!)},
        NULL, ${sql(owner)}, ${sql(owner)})`;
  };
  const releaseUpdate = (column: string) => (value: string) => `UPDATE "ToolRelease" SET "${column}" = ${sql(value)} WHERE "id" = ${sql(release.id)}`;
  return [
    {
      table: "Account",
      column: "plan",
      valid: "team",
      insert: (value) => {
        const id = randomUUID();
        return `INSERT INTO "Account" ("id", "name", "email", "plan") VALUES (${sql(id)}, 'Raw', ${sql(`${id}@example.test`)}, ${sql(value)})`;
      },
      update: (value) => `UPDATE "Account" SET "plan" = ${sql(value)} WHERE "id" = ${sql(world.stranger.account.id)}`,
    },
    {
      table: "EnvironmentShare",
      column: "role",
      valid: "viewer",
      insert: (value) =>
        `INSERT INTO "EnvironmentShare" ("environmentId", "accountId", "role") VALUES (${sql(freshEnvironmentId)}, ${sql(world.stranger.account.id)}, ${sql(value)})`,
      update: (value) =>
        `UPDATE "EnvironmentShare" SET "role" = ${sql(value)} WHERE "environmentId" = ${sql(world.environment.id)} AND "accountId" = ${sql(world.viewer.account.id)}`,
    },
    { table: "ToolRelease", column: "lifecycle", valid: "de-published", insert: releaseInsert("lifecycle"), update: releaseUpdate("lifecycle") },
    { table: "ToolRelease", column: "origin", valid: "protected-system", insert: releaseInsert("origin"), update: releaseUpdate("origin") },
    {
      table: "ToolRelease",
      column: "systemAvailability",
      valid: "ambient",
      insert: releaseInsert("systemAvailability"),
      update: releaseUpdate("systemAvailability"),
    },
    { table: "ToolRelease", column: "sourceKind", valid: "component", insert: releaseInsert("sourceKind"), update: releaseUpdate("sourceKind") },
    {
      table: "Grant",
      column: "lifecycle",
      valid: "deleted",
      insert: (value) =>
        `INSERT INTO "Grant" ("id", "environmentId", "releaseId", "lifecycle", "createdById", "stateChangedById")
          VALUES (${sql(randomUUID())}, ${sql(freshEnvironmentId)}, ${sql(release.id)}, ${sql(value)}, ${sql(owner)}, ${sql(owner)})`,
      update: (value) => `UPDATE "Grant" SET "lifecycle" = ${sql(value)} WHERE "releaseId" = ${sql(release.id)}`,
    },
  ];
}

/** PostgreSQL names the CHECK constraint; the SQLite trigger says which column and what it accepts. */
const rejectionOf = ({ table, column }: EnumColumn) => new RegExp(`${table}_${column}_check|${table}\\.${column} must be one of`);

async function expectRejected(db: Database, statement: string, column: EnumColumn): Promise<void> {
  await expect(db.$executeRawUnsafe(statement)).rejects.toThrow(rejectionOf(column));
}

describeEachDatabase("enum values in the database", (provider) => {
  let service: TestService;
  let world: World;
  let columns: EnumColumn[];
  beforeAll(async () => {
    service = await startTestService(provider);
    world = await createWorld(service);
    const release = await world.publish(world.owner, "enum-probe", "1.0.0");
    const grantEnvironment = await world.environmentOf(world.owner);
    await service.db.grant.create({
      data: { environmentId: grantEnvironment.id, releaseId: release.id, createdById: world.owner.account.id, stateChangedById: world.owner.account.id },
    });
    columns = enumColumns(world, release, (await world.environmentOf(world.owner)).id);
  });
  afterAll(() => service?.stopAndDrop());

  const names = [
    "Account.plan",
    "EnvironmentShare.role",
    "ToolRelease.lifecycle",
    "ToolRelease.origin",
    "ToolRelease.systemAvailability",
    "ToolRelease.sourceKind",
    "Grant.lifecycle",
  ];
  for (const [index, name] of names.entries()) {
    describe(name, () => {
      it("rejects an INSERT of a value outside the enum, and accepts the same row with an allowed value", async () => {
        const column = columns[index]!;
        expect(`${column.table}.${column.column}`).toBe(name);
        for (const bad of ["gold", "", "PUBLISHED", `${column.valid} `]) await expectRejected(service.db, column.insert(bad), column);
        expect(await service.db.$executeRawUnsafe(column.insert(column.valid))).toBe(1);
      });

      it("rejects an UPDATE to a value outside the enum, and accepts an allowed one", async () => {
        const column = columns[index]!;
        await expectRejected(service.db, column.update("gold"), column);
        expect(await service.db.$executeRawUnsafe(column.update(column.valid))).toBeGreaterThan(0);
      });
    });
  }
});
