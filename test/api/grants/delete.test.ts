// Operation 5: DELETE /v1/environment-tool-middleware-grants/{grant_id}, and GraphQL `deleteGrant`.
import { afterAll, beforeAll, expect, it } from "vitest";
import { createGrant, deleteGrant, provisionProtectedGrant } from "../../../src/domain/grants.js";
import { depublishRelease } from "../../../src/domain/releases.js";
import { describeEachDatabase, startTestService, type TestService } from "../../helpers/service.js";
import { createWorld, type Member, type World } from "../../helpers/world.js";
import {
  byId,
  DELETE_GRANT,
  expectGraphQLError,
  expectRestError,
  itAnswers401WithoutValidCredentials,
  paths,
  storedGrant,
  uniqueName,
  UNKNOWN_ID,
} from "./support.js";

describeEachDatabase("DELETE /v1/environment-tool-middleware-grants/{grant_id}: delete a grant", (provider) => {
  let service: TestService;
  let world: World;
  /** A new active grant in world.environment, created by world.owner. */
  const activeGrant = async (options: { automatic?: boolean } = {}) => {
    const release = await world.publish(world.owner, uniqueName(), "1.0.0");
    // The grant's row, as storedGrant reads it (createGrant also answers the release it granted).
    const { release: _granted, ...grant } = await createGrant(service.db, world.owner.account, world.environment.id, {
      release: byId(release),
      automatic: options.automatic ?? false,
    });
    return grant;
  };

  /** An error row: REST answers `status` and `code`, GraphQL deleteGrant the same code, and the grant is unchanged. */
  async function expectBothRefuse(member: Member, grantId: string, body: { automatic?: boolean } | undefined, status: number, code: string) {
    const before = await service.db.grant.findUnique({ where: { id: grantId } });
    expectRestError(await member.http.delete(paths.grant(grantId), body), status, code);
    expectGraphQLError(await member.http.graphql(DELETE_GRANT, { id: grantId, automatic: body?.automatic }), "deleteGrant", code);
    expect(await service.db.grant.findUnique({ where: { id: grantId } })).toEqual(before);
  }

  beforeAll(async () => {
    service = await startTestService(provider);
    world = await createWorld(service);
  });
  afterAll(() => service?.stopAndDrop());

  it("deletes an active grant: 204 with no body, lifecycle deleted, stateChangedAt/By describe the change", async () => {
    const granted = await activeGrant();
    const result = await world.deployer.http.delete(paths.grant(granted.id), { automatic: false });
    expect(result.status).toBe(204);
    expect(result.text).toBe("");
    const stored = await storedGrant(world, granted.id);
    expect(stored).toEqual({ ...granted, lifecycle: "deleted", stateChangedAt: expect.any(Date), stateChangedById: world.deployer.account.id });
    expect(stored.stateChangedAt.getTime()).toBeGreaterThan(granted.stateChangedAt.getTime());
  });

  it("removes the grant from list and get", async () => {
    const granted = await activeGrant();
    expect((await world.owner.http.delete(paths.grant(granted.id))).status).toBe(204);
    expect((await world.owner.http.get(paths.grant(granted.id))).status).toBe(404);
    const list = await world.owner.http.get(paths.grants(world.environment.id));
    expect(list.body.values.map((view: { grant: { id: string } }) => view.grant.id)).not.toContain(granted.id);
  });

  it("treats a missing body as automatic: false and deletes a manual grant", async () => {
    const granted = await activeGrant({ automatic: false });
    const result = await world.owner.http.delete(paths.grant(granted.id));
    expect(result.status).toBe(204);
    expect((await storedGrant(world, granted.id)).lifecycle).toBe("deleted");
  });

  it("lets an automatic deletion delete an automatic grant", async () => {
    const granted = await activeGrant({ automatic: true });
    expect((await world.owner.http.delete(paths.grant(granted.id), { automatic: true })).status).toBe(204);
    expect((await storedGrant(world, granted.id)).lifecycle).toBe("deleted");
  });

  it("lets a manual deletion delete an automatic grant", async () => {
    const granted = await activeGrant({ automatic: true });
    expect((await world.owner.http.delete(paths.grant(granted.id), { automatic: false })).status).toBe(204);
    expect((await storedGrant(world, granted.id)).lifecycle).toBe("deleted");
  });

  it("answers 409 ENVIRONMENT_TOOL_MIDDLEWARE_GRANT_CONFLICT for automatic: true on a manual grant", async () => {
    const granted = await activeGrant({ automatic: false });
    await expectBothRefuse(world.deployer, granted.id, { automatic: true }, 409, "ENVIRONMENT_TOOL_MIDDLEWARE_GRANT_CONFLICT");
  });

  it("answers 403 AUTH_FORBIDDEN for a protected grant, even to the owner and admins", async () => {
    const release = await world.publish(world.owner, uniqueName(), "1.0.0");
    const granted = await provisionProtectedGrant(service.db, { environmentId: world.environment.id, releaseId: release.id, actorId: world.owner.account.id });
    await expectBothRefuse(world.owner, granted.id, undefined, 403, "AUTH_FORBIDDEN");
    await expectBothRefuse({ ...world.owner, http: world.admin }, granted.id, { automatic: true }, 403, "AUTH_FORBIDDEN");
  });

  it("answers 403 AUTH_FORBIDDEN to a viewer", async () => {
    await expectBothRefuse(world.viewer, (await activeGrant()).id, undefined, 403, "AUTH_FORBIDDEN");
  });

  it("answers 404 ENVIRONMENT_TOOL_MIDDLEWARE_GRANT_NOT_FOUND for a deleted grant", async () => {
    const granted = await activeGrant();
    await deleteGrant(service.db, world.owner.account, granted.id);
    await expectBothRefuse(world.owner, granted.id, undefined, 404, "ENVIRONMENT_TOOL_MIDDLEWARE_GRANT_NOT_FOUND");
  });

  it("answers 404 ENVIRONMENT_TOOL_MIDDLEWARE_GRANT_NOT_FOUND while the grant's release is de-published", async () => {
    const granted = await activeGrant();
    await depublishRelease(service.db, world.owner.account, granted.releaseId);
    await expectBothRefuse(world.owner, granted.id, undefined, 404, "ENVIRONMENT_TOOL_MIDDLEWARE_GRANT_NOT_FOUND");
  });

  it("answers 404 ENVIRONMENT_TOOL_MIDDLEWARE_GRANT_NOT_FOUND to a caller who cannot see the environment", async () => {
    await expectBothRefuse(world.stranger, (await activeGrant()).id, undefined, 404, "ENVIRONMENT_TOOL_MIDDLEWARE_GRANT_NOT_FOUND");
  });

  it("answers 404 ENVIRONMENT_TOOL_MIDDLEWARE_GRANT_NOT_FOUND for an unknown grant", async () => {
    await expectBothRefuse(world.owner, UNKNOWN_ID, undefined, 404, "ENVIRONMENT_TOOL_MIDDLEWARE_GRANT_NOT_FOUND");
  });

  it("answers 400 REQUEST_INVALID listing every problem of a malformed path and body", async () => {
    const result = await world.owner.http.delete(paths.grant("nope"), { automatic: "yes", reason: "cleanup" });
    expectRestError(result, 400, "REQUEST_INVALID");
    expect(result.body.errors).toEqual([
      'path.grantId: "nope" is not a UUID',
      "body.reason: unknown field; the only field is automatic",
      "body.automatic: expected a boolean",
    ]);
  });

  it("answers 400 REQUEST_INVALID for a body that is not an object", async () => {
    const granted = await activeGrant();
    for (const body of ["[]", "true", '"automatic"']) {
      expectRestError(await world.owner.http.delete(paths.grant(granted.id), body), 400, "REQUEST_INVALID");
    }
    expect((await storedGrant(world, granted.id)).lifecycle).toBe("active");
  });

  it("answers 400 REQUEST_INVALID for malformed JSON", async () => {
    const result = await world.owner.http.delete(paths.grant((await activeGrant()).id), "{automatic");
    expectRestError(result, 400, "REQUEST_INVALID");
    expect(result.body.errors).toEqual([expect.stringMatching(/^body: malformed JSON/)]);
  });

  it("answers 400 REQUEST_INVALID for a malformed grant UUID in the path", async () => {
    const result = await world.owner.http.delete(paths.grant("nope"));
    expectRestError(result, 400, "REQUEST_INVALID");
    expect(result.body.errors).toEqual([expect.stringContaining('"nope"')]);
  });

  itAnswers401WithoutValidCredentials(
    () => world,
    "DELETE",
    () => paths.grant(UNKNOWN_ID),
  );

  it("deletes once under concurrent deletions: one 204, the others 404 as if they came second", async () => {
    const granted = await activeGrant();
    const results = await Promise.all(Array.from({ length: 6 }, () => world.owner.http.delete(paths.grant(granted.id))));
    expect(results.map((result) => result.status).sort()).toEqual([204, 404, 404, 404, 404, 404]);
    expect((await storedGrant(world, granted.id)).lifecycle).toBe("deleted");
  });

  it("GraphQL deleteGrant answers the deleted grant", async () => {
    const granted = await activeGrant({ automatic: true });
    const result = await world.deployer.http.graphql(DELETE_GRANT, { id: granted.id, automatic: true });
    expect(result.body.errors).toBeUndefined();
    const stored = await storedGrant(world, granted.id);
    expect(result.body.data.deleteGrant).toMatchObject({
      uuid: granted.id,
      lifecycle: "DELETED",
      automatic: true,
      stateChangedAt: stored.stateChangedAt.toISOString(),
      stateChangedById: world.deployer.account.id,
    });
  });
});
