// Apply deletes the grants it checked in one conditional update. When another request deleted one of
// them in between (grant deletion takes no lock), the update changes fewer rows than were checked:
// the transaction runs again, and its checks answer for the grants as they are now.
import { afterAll, beforeAll, expect, it } from "vitest";
import type { Grant } from "../../../src/db/generated/sqlite/client.js";
import { createGrant, deleteCheckedGrants } from "../../../src/domain/grants.js";
import { writeTransaction } from "../../../src/domain/write-transaction.js";
import { describeEachDatabase, startTestService, type TestService } from "../../helpers/service.js";
import { createWorld, type World } from "../../helpers/world.js";

describeEachDatabase("apply's deletions after a lost race", (provider) => {
  let service: TestService;
  let world: World;
  beforeAll(async () => {
    service = await startTestService(provider);
    world = await createWorld(service);
  }, 60_000);
  afterAll(() => service?.stopAndDrop());

  // SQLite serializes this process's transactions, so no other write can land in between there.
  it.runIf(provider === "postgresql")("re-runs the transaction when a checked grant was deleted before the update", async () => {
    const owner = await world.member();
    const environment = await world.environmentOf(owner);
    const actor = owner.account;
    const grants: Grant[] = [];
    for (const name of ["raced", "kept"]) {
      const release = await world.publish(owner, `lost-race-${name}`, "1.0.0");
      grants.push(await createGrant(service.db, actor, environment.id, { release: { type: "ById", releaseId: release.id }, automatic: true }));
    }
    const [raced, kept] = grants as [Grant, Grant];
    let attempts = 0;
    await writeTransaction(service.db, [], async (tx) => {
      attempts += 1;
      const checked = await tx.grant.findMany({ where: { id: { in: [raced.id, kept.id] }, lifecycle: "active" }, orderBy: { id: "asc" } });
      // The first attempt's check saw both; another connection deletes one before the update.
      if (attempts === 1) await service.db.grant.update({ where: { id: raced.id }, data: { lifecycle: "deleted" } });
      await deleteCheckedGrants(tx, actor, environment, checked);
    });
    expect(attempts).toBe(2);
    const events = await service.db.changeEvent.findMany({ where: { environmentId: environment.id, type: "grant-deleted" } });
    expect(events.map((event) => JSON.parse(event.state).id)).toEqual([kept.id]);
    expect((await service.db.grant.findUniqueOrThrow({ where: { id: kept.id } })).lifecycle).toBe("deleted");
  });
});
