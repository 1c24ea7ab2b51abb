// The floor's writes (`npm run bench -- --scenario writes`) against toolgate's on a tiny data set:
// the same kind of change made once by each — a grant of a release by a deployer the environment is
// shared with, then its deletion — answers the same statuses and JSON shape (same keys, same types;
// ids and times differ), stores the grant row and the change event in the same format, with the
// same columns filled, and moves the heads of the same streams (the owner's, the environment's,
// the actor's, every sharer's) to the event's id. An apply of a grant reconciliation (the spare
// granted, a seeded grant deleted, and back) answers and stores the same. No timing is measured.
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sqliteFilePath } from "../../src/db/connection.js";
import { createFloorServer, openFloorStore } from "../../bench/floor/app.js";
import type { FloorStore } from "../../bench/floor/store.js";
import { seedTenants, type TenantsSeed } from "../../bench/tenants-dataset.js";
import { writeLoops, writeTargets } from "../../bench/writes.js";
import { startTestService, type TestService } from "../helpers/service.js";

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;

/** A value's shape: its type, and for objects every key's shape in order; strings with ids and digits blanked. */
function shapeOf(value: unknown): unknown {
  if (value === null) return null;
  if (Array.isArray(value)) return value.map(shapeOf);
  if (typeof value === "object") return Object.entries(value as object).map(([key, member]) => [key, shapeOf(member)]);
  if (typeof value === "string") return value.replace(UUID, "<uuid>").replace(/\d/g, "0");
  return typeof value;
}

describe("benchmark writes: the floor writes what toolgate writes [sqlite]", () => {
  let service: TestService;
  let store: FloorStore;
  let floor: Server;
  let floorUrl: string;
  let seed: TenantsSeed;
  let raw: Database.Database;

  beforeAll(async () => {
    service = await startTestService("sqlite");
    seed = await seedTenants(service.db, { accounts: 3, environmentsPerAccount: 2, releasesPerAccount: 2, grantsPerEnvironment: 1 });
    // Account 0's environments are shared with account 1 (deployer, the actor) and account 2 (viewer): both are audience.
    const at = new Date();
    await service.db.environmentShare.createMany({
      data: seed.accounts[0]!.environmentIds.flatMap((environmentId) => [
        { environmentId, accountId: seed.accounts[1]!.id, role: "deployer", createdAt: at, acceptedAt: at },
        { environmentId, accountId: seed.accounts[2]!.id, role: "viewer", createdAt: at, acceptedAt: at },
      ]),
    });
    store = openFloorStore(service.databaseUrl);
    floor = createFloorServer(store);
    await new Promise<void>((resolve) => floor.listen(0, "127.0.0.1", resolve));
    floorUrl = `http://127.0.0.1:${(floor.address() as AddressInfo).port}`;
    raw = new Database(sqliteFilePath(service.databaseUrl), { readonly: true });
  });

  afterAll(async () => {
    raw.close();
    floor.closeAllConnections();
    await new Promise<void>((resolve) => floor.close(() => resolve()));
    await store.close();
    await service.stopAndDrop();
  });

  const heads = () =>
    new Map((raw.prepare(`SELECT "stream", "head" FROM "StreamHead"`).all() as Array<{ stream: string; head: string }>).map((row) => [row.stream, row.head]));
  const newestEvent = () => raw.prepare(`SELECT * FROM "ChangeEvent" ORDER BY "id" DESC LIMIT 1`).get() as Record<string, unknown>;
  const grantRow = (id: string) => raw.prepare(`SELECT * FROM "Grant" WHERE "id" = ?`).get(id) as Record<string, unknown>;

  /** One write: its status and body, the event it stored, and the streams whose heads moved (environment ids as `E`). */
  async function write(url: string, method: "POST" | "DELETE", path: string, body?: unknown) {
    const before = heads();
    const response = await fetch(url + path, {
      method,
      headers: { authorization: `Bearer ${seed.accounts[1]!.token}`, ...(body ? { "content-type": "application/json" } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    const text = await response.text();
    const event = newestEvent();
    const moved = [...heads()].filter(([stream, head]) => before.get(stream) !== head);
    for (const [, head] of moved) expect(head).toBe(event.id);
    const streams = moved.map(([stream]) => stream.replace(event.environmentId as string, "E")).sort();
    return { status: response.status, json: text === "" ? undefined : (JSON.parse(text) as { grant: { id: string } }), event, streams };
  }

  /** The event row's shape: the same columns filled, the same formats, the state with the same members. */
  const eventShape = (event: Record<string, unknown>) => shapeOf({ ...event, state: JSON.parse(event.state as string) });

  it("creates and deletes a grant as toolgate does", async () => {
    const [first, second] = seed.accounts[0]!.environmentIds;
    const release = { type: "ById", releaseId: seed.accounts[0]!.spareReleaseId };
    const created = {
      toolgate: await write(service.url, "POST", `/v1/envs/${first}/tool-middlewares`, { release }),
      floor: await write(floorUrl, "POST", `/v1/envs/${second}/tool-middlewares`, { release }),
    };
    expect(created.toolgate.status).toBe(200);
    expect(created.floor.status).toBe(200);
    expect(shapeOf(created.floor.json)).toEqual(shapeOf(created.toolgate.json));
    expect(created.floor.event.type).toBe("grant-created");
    expect(eventShape(created.floor.event)).toEqual(eventShape(created.toolgate.event));
    expect(created.toolgate.streams).toEqual(
      ["account:" + seed.accounts[0]!.id, "account:" + seed.accounts[1]!.id, "account:" + seed.accounts[2]!.id, "environment:E"].sort(),
    );
    expect(created.floor.streams).toEqual(created.toolgate.streams);
    const grants = { toolgate: created.toolgate.json!.grant.id, floor: created.floor.json!.grant.id };
    expect(shapeOf(grantRow(grants.floor))).toEqual(shapeOf(grantRow(grants.toolgate)));
    // The floor's grant is toolgate's to read.
    const read = await fetch(`${service.url}/v1/environment-tool-middleware-grants/${grants.floor}`, {
      headers: { authorization: `Bearer ${seed.accounts[1]!.token}` },
    });
    expect(await read.json()).toEqual(created.floor.json);

    const deleted = {
      toolgate: await write(service.url, "DELETE", `/v1/environment-tool-middleware-grants/${grants.toolgate}`),
      floor: await write(floorUrl, "DELETE", `/v1/environment-tool-middleware-grants/${grants.floor}`),
    };
    expect([deleted.toolgate.status, deleted.floor.status]).toEqual([204, 204]);
    expect(deleted.floor.event.type).toBe("grant-deleted");
    expect(eventShape(deleted.floor.event)).toEqual(eventShape(deleted.toolgate.event));
    expect(deleted.floor.streams).toEqual(deleted.toolgate.streams);
    expect(shapeOf(grantRow(grants.floor))).toEqual(shapeOf(grantRow(grants.toolgate)));

    // Granting again restores the deleted row, as toolgate does: the same id, a grant-created event.
    const again = await write(floorUrl, "POST", `/v1/envs/${second}/tool-middlewares`, { release });
    expect(again.status).toBe(200);
    expect(again.json!.grant.id).toBe(grants.floor);
    expect(again.event.type).toBe("grant-created");
    expect(again.streams).toEqual(created.toolgate.streams);
    expect(
      (
        await fetch(`${floorUrl}/v1/environment-tool-middleware-grants/${grants.floor}`, {
          method: "DELETE",
          headers: { authorization: `Bearer ${seed.accounts[1]!.token}` },
        })
      ).status,
    ).toBe(204);
  });

  it("refuses as toolgate does: a viewer 403, another account's environment 404", async () => {
    const environmentId = seed.accounts[0]!.environmentIds[0]!;
    const body = JSON.stringify({ release: { type: "ById", releaseId: seed.accounts[0]!.spareReleaseId } });
    for (const [account, status] of [
      [2, 403],
      [1, 200],
    ] as const) {
      const ask = (url: string) =>
        fetch(`${url}/v1/envs/${environmentId}/tool-middlewares`, {
          method: "POST",
          headers: { authorization: `Bearer ${seed.accounts[account]!.token}`, "content-type": "application/json" },
          body,
        });
      expect((await ask(floorUrl)).status).toBe(status);
    }
    const other = seed.accounts[2]!.environmentIds[0]!;
    const response = await fetch(`${floorUrl}/v1/envs/${other}/tool-middlewares`, {
      method: "POST",
      headers: { authorization: `Bearer ${seed.accounts[1]!.token}`, "content-type": "application/json" },
      body,
    });
    expect(response.status).toBe(404);
  });

  it("applies a grant reconciliation as toolgate does: the same answer, one event per change, the same rows", async () => {
    // Account 1 applies in its own two environments, each holding one seeded grant: the spare granted, the seeded grant deleted.
    const [first, second] = seed.accounts[1]!.environmentIds as [string, string];
    // A reconciliation deletes only automatic grants: the seed makes the first of each environment automatic.
    const seededIn = (environmentId: string) => seed.keys.grants.find((grant) => grant.environmentId === environmentId && grant.automatic)!;
    const apply = async (url: string, environmentId: string, creations: string[], deletions: string[]) => {
      const eventsBefore = (raw.prepare(`SELECT COUNT(*) AS "count" FROM "ChangeEvent"`).get() as { count: number }).count;
      const response = await fetch(`${url}/v1/envs/${environmentId}/tool-middlewares/apply`, {
        method: "POST",
        headers: { authorization: `Bearer ${seed.accounts[1]!.token}`, "content-type": "application/json" },
        body: JSON.stringify({
          grantReconciliation: { creations: creations.map((releaseId) => ({ release: { type: "ById", releaseId }, automatic: true })), deletions },
          publications: [],
        }),
      });
      const events = raw.prepare(`SELECT * FROM "ChangeEvent" ORDER BY "id" LIMIT -1 OFFSET ?`).all(eventsBefore) as Array<Record<string, unknown>>;
      return { status: response.status, json: (await response.json()) as { grants: Array<{ grant: { id: string } }>; deletedGrantIds: string[] }, events };
    };
    const spare = seed.accounts[1]!.spareReleaseId;
    const applied = {
      toolgate: await apply(service.url, first, [spare], [seededIn(first).id]),
      floor: await apply(floorUrl, second, [spare], [seededIn(second).id]),
    };
    expect([applied.toolgate.status, applied.floor.status]).toEqual([200, 200]);
    expect(shapeOf(applied.floor.json)).toEqual(shapeOf(applied.toolgate.json));
    expect(applied.floor.json.deletedGrantIds).toEqual([seededIn(second).id]);
    const byType = (events: Array<Record<string, unknown>>) => [...events].sort((a, b) => String(a.type).localeCompare(String(b.type))).map(eventShape);
    expect(byType(applied.floor.events)).toEqual(byType(applied.toolgate.events));
    for (const side of ["toolgate", "floor"] as const) {
      expect(applied[side].events.map((event) => event.type).sort()).toEqual(["grant-created", "grant-deleted"]);
    }
    const created = { toolgate: applied.toolgate.json.grants[0]!.grant.id, floor: applied.floor.json.grants[0]!.grant.id };
    expect(shapeOf(grantRow(created.floor))).toEqual(shapeOf(grantRow(created.toolgate)));
    expect(shapeOf(grantRow(seededIn(second).id))).toEqual(shapeOf(grantRow(seededIn(first).id)));

    // And back, as the benchmark's apply loop does: the seeded grant restored (same id), the spare's deleted.
    const restored = await apply(floorUrl, second, [seededIn(second).releaseId], [created.floor]);
    expect(restored.status).toBe(200);
    expect(restored.json.grants[0]!.grant.id).toBe(seededIn(second).id);
    const back = await apply(service.url, first, [seededIn(first).releaseId], [created.toolgate]);
    expect(back.status, JSON.stringify(back.json)).toBe(200);
    expect(back.json.grants[0]!.grant.id).toBe(seededIn(first).id);
  });

  it("drives create+delete loops against both without errors, leaving no spare release granted", async () => {
    for (const variant of ["distinct", "oneEnvironment", "apply"] as const) {
      for (const url of [floorUrl, service.url]) {
        const tally = { writes: 0, errors: 0, firstErrors: [] as string[], latenciesMs: [] as number[] };
        await writeLoops(url, writeTargets(seed, variant, 3), new Promise((resolve) => setTimeout(resolve, 300)), tally);
        expect(tally.errors, tally.firstErrors.join("\n")).toBe(0);
        expect(tally.writes).toBeGreaterThanOrEqual(6);
        expect(tally.writes % 2).toBe(0);
      }
    }
    // The refusal test's grant of account 0's spare included: the loops' first create answered it, and they deleted it.
    const spares = seed.accounts.map((account) => account.spareReleaseId);
    expect(await service.db.grant.count({ where: { releaseId: { in: spares }, lifecycle: "active" } })).toBe(0);
  });
});
