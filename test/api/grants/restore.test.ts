// Operation 6: POST /v1/environment-tool-middleware-grants/{grant_id}/restore, and GraphQL `restoreGrant`.
import { afterAll, beforeAll, expect, it } from "vitest";
import { createGrant, deleteGrant, provisionProtectedGrant } from "../../../src/domain/grants.js";
import { depublishRelease } from "../../../src/domain/releases.js";
import type { Environment } from "../../../src/db/generated/sqlite/client.js";
import { describeEachDatabase, startTestService, type TestService } from "../../helpers/service.js";
import { createWorld, type Member, type World } from "../../helpers/world.js";
import {
  byCoordinates,
  byId,
  expectGraphQLError,
  expectRestError,
  grantViewOf,
  itAnswers401WithoutValidCredentials,
  paths,
  RESTORE_GRANT,
  storedGrant,
  supersede,
  uniqueName,
  UNKNOWN_ID,
} from "./support.js";

describeEachDatabase("POST /v1/environment-tool-middleware-grants/{grant_id}/restore: restore a grant", (provider) => {
  let service: TestService;
  let world: World;
  /** A grant of a new release of world.owner, created (automatic unless told otherwise) and then deleted by world.owner. */
  const deletedGrant = async (options: { environment?: Environment; by?: Member } = {}) => {
    const by = options.by ?? world.owner;
    const release = await world.publish(world.owner, uniqueName(), "1.0.0");
    const environmentId = (options.environment ?? world.environment).id;
    const granted = await createGrant(service.db, by.account, environmentId, { release: byCoordinates(world.owner, release), automatic: true });
    return deleteGrant(service.db, by.account, granted.id);
  };

  /** An error row: REST answers `status` and `code`, GraphQL restoreGrant the same code, and the grant is unchanged. */
  async function expectBothRefuse(member: Member, grantId: string, status: number, code: string) {
    const before = await service.db.grant.findUnique({ where: { id: grantId } });
    expectRestError(await member.http.post(paths.restore(grantId)), status, code);
    expectGraphQLError(await member.http.graphql(RESTORE_GRANT, { id: grantId }), "restoreGrant", code);
    expect(await service.db.grant.findUnique({ where: { id: grantId } })).toEqual(before);
  }

  beforeAll(async () => {
    service = await startTestService(provider);
    world = await createWorld(service);
  });
  afterAll(() => service?.stopAndDrop());

  it("restores a deleted grant and answers its grant view: lifecycle active, automatic false (200)", async () => {
    const deleted = await deletedGrant();
    const result = await world.deployer.http.post(paths.restore(deleted.id));
    expect(result.status).toBe(200);
    expect(result.body).toEqual(await grantViewOf(world, deleted.id));
    expect(result.body.grant).toMatchObject({
      id: deleted.id,
      lifecycle: "active",
      automatic: false,
      followCoordinates: true,
      protected: false,
      createdAt: deleted.createdAt.toISOString(),
      createdBy: world.owner.account.id,
      stateChangedBy: world.deployer.account.id,
    });
    expect(Date.parse(result.body.grant.stateChangedAt)).toBeGreaterThan(deleted.stateChangedAt.getTime());
  });

  it("puts the restored grant back in list and get", async () => {
    const deleted = await deletedGrant();
    expect((await world.owner.http.post(paths.restore(deleted.id))).status).toBe(200);
    expect((await world.viewer.http.get(paths.grant(deleted.id))).status).toBe(200);
    const list = await world.viewer.http.get(paths.grants(world.environment.id));
    expect(list.body.values.map((view: { grant: { id: string } }) => view.grant.id)).toContain(deleted.id);
  });

  it("restores a grant whose release is superseded", async () => {
    const deleted = await deletedGrant();
    await supersede(world, await service.db.toolRelease.findUniqueOrThrow({ where: { id: deleted.releaseId } }));
    expect((await world.owner.http.post(paths.restore(deleted.id))).status).toBe(200);
  });

  it("answers 409 ENVIRONMENT_TOOL_MIDDLEWARE_GRANT_CONFLICT for a grant that is not deleted", async () => {
    const release = await world.publish(world.owner, uniqueName(), "1.0.0");
    const active = await createGrant(service.db, world.owner.account, world.environment.id, { release: byId(release) });
    await expectBothRefuse(world.owner, active.id, 409, "ENVIRONMENT_TOOL_MIDDLEWARE_GRANT_CONFLICT");
  });

  it("answers 404 REFERENCED_TOOL_RELEASE_NOT_FOUND when the grant's release is de-published", async () => {
    const deleted = await deletedGrant();
    await depublishRelease(service.db, world.owner.account, deleted.releaseId);
    await expectBothRefuse(world.owner, deleted.id, 404, "REFERENCED_TOOL_RELEASE_NOT_FOUND");
  });

  it("answers 403 AUTH_FORBIDDEN for a protected grant, even to admins", async () => {
    const release = await world.publish(world.owner, uniqueName(), "1.0.0");
    const granted = await provisionProtectedGrant(service.db, { environmentId: world.environment.id, releaseId: release.id, actorId: world.owner.account.id });
    await expectBothRefuse(world.owner, granted.id, 403, "AUTH_FORBIDDEN");
    await expectBothRefuse({ ...world.owner, http: world.admin }, granted.id, 403, "AUTH_FORBIDDEN");
  });

  it("answers 403 AUTH_FORBIDDEN to a viewer", async () => {
    await expectBothRefuse(world.viewer, (await deletedGrant()).id, 403, "AUTH_FORBIDDEN");
  });

  it("answers 404 ENVIRONMENT_TOOL_MIDDLEWARE_GRANT_NOT_FOUND to a caller who cannot see the environment", async () => {
    await expectBothRefuse(world.stranger, (await deletedGrant()).id, 404, "ENVIRONMENT_TOOL_MIDDLEWARE_GRANT_NOT_FOUND");
  });

  it("answers 404 ENVIRONMENT_TOOL_MIDDLEWARE_GRANT_NOT_FOUND for an unknown grant", async () => {
    await expectBothRefuse(world.owner, UNKNOWN_ID, 404, "ENVIRONMENT_TOOL_MIDDLEWARE_GRANT_NOT_FOUND");
  });

  it("answers 422 LIMIT_EXCEEDED when restoring would exceed the environment owner's plan (free: 20 active grants)", async () => {
    const freeOwner = await world.member({ plan: "free" });
    const environment = await world.environmentOf(freeOwner);
    const deleted = await deletedGrant({ environment, by: freeOwner });
    for (let index = 0; index < 20; index += 1) {
      const release = await world.publish(world.owner, uniqueName(), "1.0.0");
      await createGrant(service.db, freeOwner.account, environment.id, { release: byId(release) });
    }
    await expectBothRefuse(freeOwner, deleted.id, 422, "LIMIT_EXCEEDED");
  });

  it("answers 400 REQUEST_INVALID for a malformed grant UUID in the path", async () => {
    const result = await world.owner.http.post(paths.restore("xyz"));
    expectRestError(result, 400, "REQUEST_INVALID");
    expect(result.body.errors).toEqual([expect.stringContaining('"xyz"')]);
  });

  itAnswers401WithoutValidCredentials(
    () => world,
    "POST",
    () => paths.restore(UNKNOWN_ID),
  );

  it("restores once under concurrent restores: one 200, the others 409 as if they came second", async () => {
    const deleted = await deletedGrant();
    const results = await Promise.all(Array.from({ length: 6 }, () => world.owner.http.post(paths.restore(deleted.id))));
    expect(results.map((result) => result.status).sort()).toEqual([200, 409, 409, 409, 409, 409]);
    expect((await storedGrant(world, deleted.id)).lifecycle).toBe("active");
  });

  it("GraphQL restoreGrant answers the restored grant", async () => {
    const deleted = await deletedGrant();
    const result = await world.deployer.http.graphql(RESTORE_GRANT, { id: deleted.id });
    expect(result.body.errors).toBeUndefined();
    expect(result.body.data.restoreGrant).toMatchObject({
      uuid: deleted.id,
      lifecycle: "ACTIVE",
      automatic: false,
      stateChangedById: world.deployer.account.id,
    });
  });
});
