// Grant lifecycle: active → deleted → active, with stateChangedAt moving forward and stateChangedBy naming the actor.
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeEachDatabase, startTestService, type TestService } from "../../helpers/service.js";
import { createWorld, type World } from "../../helpers/world.js";

describeEachDatabase("grant transitions", (provider) => {
  let service: TestService;
  let world: World;
  beforeAll(async () => {
    service = await startTestService(provider);
    world = await createWorld(service);
  });
  afterAll(() => service?.stopAndDrop());

  it("active → deleted → active: each step records when and who", async () => {
    const release = await world.publish(world.owner, "transition-tool", "1.0.0");
    const created = await world.owner.http.post(`/v1/envs/${world.environment.id}/tool-middlewares`, {
      release: { type: "ById", releaseId: release.id },
      automatic: false,
    });
    expect(created.status).toBe(200);
    const grant = created.body.grant;
    expect(grant).toMatchObject({ lifecycle: "active", createdBy: world.owner.account.id, stateChangedBy: world.owner.account.id });

    const deleted = await world.deployer.http.delete(`/v1/environment-tool-middleware-grants/${grant.id}`, { automatic: false });
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe("");
    const stored = await service.db.grant.findUniqueOrThrow({ where: { id: grant.id } });
    expect(stored.lifecycle).toBe("deleted");
    expect(stored.stateChangedById).toBe(world.deployer.account.id);
    expect(stored.stateChangedAt.getTime()).toBeGreaterThan(Date.parse(grant.stateChangedAt));
    expect((await world.owner.http.get(`/v1/environment-tool-middleware-grants/${grant.id}`)).status).toBe(404);

    const restored = await world.admin.post(`/v1/environment-tool-middleware-grants/${grant.id}/restore`);
    expect(restored.status).toBe(200);
    expect(restored.body.grant).toMatchObject({ id: grant.id, lifecycle: "active", automatic: false });
    const admin = await service.db.account.findFirstOrThrow({ where: { admin: true } });
    expect(restored.body.grant.stateChangedBy).toBe(admin.id);
    expect(Date.parse(restored.body.grant.stateChangedAt)).toBeGreaterThan(stored.stateChangedAt.getTime());
    expect(restored.body.grant.createdAt).toBe(grant.createdAt);
    expect(restored.body.grant.createdBy).toBe(world.owner.account.id);
  });
});
