// Tool release lifecycle: published ⇄ de-published, one change at a time.
import { afterAll, beforeAll, expect, it } from "vitest";
import { depublishRelease } from "../../../src/domain/releases.js";
import { describeEachDatabase, startTestService, type TestService } from "../../helpers/service.js";
import { createWorld, type World } from "../../helpers/world.js";

describeEachDatabase("Tool release lifecycle transitions", (provider) => {
  let service: TestService;
  let world: World;
  beforeAll(async () => {
    service = await startTestService(provider);
    world = await createWorld(service);
  });
  afterAll(() => service?.stopAndDrop());

  it("published → de-published → published: each step returns the new lifecycle, a later stateChangedAt and its actor", async () => {
    const release = await world.publish(world.owner, "round-trip", "1.0.0");
    const adminId = (await world.admin.graphql("{ me { uuid } }")).body.data.me.uuid;
    const depublished = await world.owner.http.delete(`/v1/tool-releases/${release.id}`);
    const restored = await world.admin.post(`/v1/tool-releases/${release.id}/restore`);
    const fetched = await world.owner.http.get(`/v1/tool-releases/${release.id}`);

    expect([depublished.status, restored.status, fetched.status]).toEqual([200, 200, 200]);
    expect([depublished.body.lifecycle, restored.body.lifecycle]).toEqual(["de-published", "published"]);
    expect([depublished.body.stateChangedBy, restored.body.stateChangedBy]).toEqual([world.owner.account.id, adminId]);
    const changedAt = [release.stateChangedAt.getTime(), Date.parse(depublished.body.stateChangedAt), Date.parse(restored.body.stateChangedAt)];
    expect(changedAt[1]).toBeGreaterThan(changedAt[0]!);
    expect(changedAt[2]).toBeGreaterThan(changedAt[1]!);
    expect(fetched.body).toEqual(restored.body);
    expect(fetched.body.createdAt).toBe(release.createdAt.toISOString());
  });

  it("stateChangedAt never moves backwards, even when the previous change was stamped by a clock that runs ahead", async () => {
    const release = await world.publish(world.owner, "skewed-clock", "1.0.0");
    // Another server whose clock is an hour ahead de-published it; this server's clock is behind that stamp.
    const aheadStamp = new Date(Date.now() + 3_600_000);
    await service.db.toolRelease.update({ where: { id: release.id }, data: { lifecycle: "de-published", stateChangedAt: aheadStamp } });
    const restored = await world.owner.http.post(`/v1/tool-releases/${release.id}/restore`);
    expect(restored.status).toBe(200);
    expect(Date.parse(restored.body.stateChangedAt)).toBeGreaterThan(aheadStamp.getTime());
  });

  it("8 parallel de-publications of one release: exactly one 200, the other 7 are 409 TOOL_RELEASE_LIFECYCLE_CONFLICT", async () => {
    const release = await world.publish(world.owner, "contended", "1.0.0");
    const results = await Promise.all(Array.from({ length: 8 }, () => world.owner.http.delete(`/v1/tool-releases/${release.id}`)));
    expect(results.map((result) => result.status).sort()).toEqual([200, 409, 409, 409, 409, 409, 409, 409]);
    for (const result of results.filter((candidate) => candidate.status === 409)) {
      expect(result.body).toEqual({ code: "TOOL_RELEASE_LIFECYCLE_CONFLICT", error: expect.any(String) });
    }
    const stored = await service.db.toolRelease.findUniqueOrThrow({ where: { id: release.id } });
    expect(stored.lifecycle).toBe("de-published");
    expect(stored.stateChangedAt.toISOString()).toBe(results.find((result) => result.status === 200)!.body.stateChangedAt);
  });

  it("8 parallel restores of one release: exactly one 200, the other 7 are 409 TOOL_RELEASE_LIFECYCLE_CONFLICT", async () => {
    const release = await world.publish(world.owner, "contended-restore", "1.0.0");
    await depublishRelease(service.db, world.owner.account, release.id);
    const results = await Promise.all(Array.from({ length: 8 }, () => world.owner.http.post(`/v1/tool-releases/${release.id}/restore`)));
    expect(results.map((result) => result.status).sort()).toEqual([200, 409, 409, 409, 409, 409, 409, 409]);
    expect((await service.db.toolRelease.findUniqueOrThrow({ where: { id: release.id } })).lifecycle).toBe("published");
  });
});
