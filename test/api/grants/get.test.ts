// Operation 4: GET /v1/environment-tool-middleware-grants/{grant_id}, and GraphQL `grant`.
import { afterAll, beforeAll, expect, it } from "vitest";
import { createGrant, deleteGrant } from "../../../src/domain/grants.js";
import { depublishRelease, restoreRelease } from "../../../src/domain/releases.js";
import type { Grant } from "../../../src/db/generated/sqlite/client.js";
import { describeEachDatabase, startTestService, type TestService } from "../../helpers/service.js";
import { createWorld, type Member, type World } from "../../helpers/world.js";
import {
  byId,
  expectGraphQLError,
  expectRestError,
  GET_GRANT,
  grantViewOf,
  itAnswers401WithoutValidCredentials,
  paths,
  supersede,
  uniqueName,
  UNKNOWN_ID,
} from "./support.js";

describeEachDatabase("GET /v1/environment-tool-middleware-grants/{grant_id}: get an active grant", (provider) => {
  let service: TestService;
  let world: World;
  let shown: Grant;
  /** A new active grant in world.environment of a release of world.owner. */
  const activeGrant = async () => {
    const release = await world.publish(world.owner, uniqueName(), "1.0.0");
    return createGrant(service.db, world.owner.account, world.environment.id, { release: byId(release) });
  };

  /** An error row: REST answers `status` and `code`, and GraphQL `grant` carries the same code. */
  async function expectBothRefuse(member: Member | { http: World["admin"] }, grantId: string, status: number, code: string) {
    expectRestError(await member.http.get(paths.grant(grantId)), status, code);
    expectGraphQLError(await member.http.graphql(GET_GRANT, { id: grantId }), "grant", code);
  }

  beforeAll(async () => {
    service = await startTestService(provider);
    world = await createWorld(service);
    shown = await activeGrant();
  });
  afterAll(() => service?.stopAndDrop());

  it("answers the grant view of an active grant (200)", async () => {
    const result = await world.owner.http.get(paths.grant(shown.id));
    expect(result.status).toBe(200);
    expect(result.body).toEqual(await grantViewOf(world, shown.id));
  });

  it("lets the owner, deployers, viewers and admins get it", async () => {
    for (const http of [world.owner.http, world.deployer.http, world.viewer.http, world.admin]) {
      const result = await http.get(paths.grant(shown.id));
      expect(result.status).toBe(200);
      expect(result.body.grant.id).toBe(shown.id);
    }
  });

  it("answers a grant whose release is superseded", async () => {
    const granted = await activeGrant();
    await supersede(world, await service.db.toolRelease.findUniqueOrThrow({ where: { id: granted.releaseId } }));
    expect((await world.owner.http.get(paths.grant(granted.id))).status).toBe(200);
  });

  it("answers 404 ENVIRONMENT_TOOL_MIDDLEWARE_GRANT_NOT_FOUND for a deleted grant", async () => {
    const granted = await activeGrant();
    await deleteGrant(service.db, world.owner.account, granted.id);
    await expectBothRefuse(world.owner, granted.id, 404, "ENVIRONMENT_TOOL_MIDDLEWARE_GRANT_NOT_FOUND");
  });

  it("answers 404 ENVIRONMENT_TOOL_MIDDLEWARE_GRANT_NOT_FOUND while its release is de-published, and the grant again once restored", async () => {
    const granted = await activeGrant();
    await depublishRelease(service.db, world.owner.account, granted.releaseId);
    await expectBothRefuse(world.owner, granted.id, 404, "ENVIRONMENT_TOOL_MIDDLEWARE_GRANT_NOT_FOUND");
    await restoreRelease(service.db, world.owner.account, granted.releaseId);
    const result = await world.owner.http.get(paths.grant(granted.id));
    expect(result.status).toBe(200);
    expect(result.body).toEqual(await grantViewOf(world, granted.id));
  });

  it("answers 404 ENVIRONMENT_TOOL_MIDDLEWARE_GRANT_NOT_FOUND to a caller who cannot see the environment", async () => {
    await expectBothRefuse(world.stranger, shown.id, 404, "ENVIRONMENT_TOOL_MIDDLEWARE_GRANT_NOT_FOUND");
  });

  it("answers 404 ENVIRONMENT_TOOL_MIDDLEWARE_GRANT_NOT_FOUND for an unknown grant", async () => {
    await expectBothRefuse(world.owner, UNKNOWN_ID, 404, "ENVIRONMENT_TOOL_MIDDLEWARE_GRANT_NOT_FOUND");
  });

  it("answers 400 REQUEST_INVALID for a malformed grant UUID in the path", async () => {
    const result = await world.owner.http.get(paths.grant("12345"));
    expectRestError(result, 400, "REQUEST_INVALID");
    expect(result.body.errors).toEqual([expect.stringContaining("12345")]);
  });

  itAnswers401WithoutValidCredentials(
    () => world,
    "GET",
    () => paths.grant(shown.id),
  );

  it("GraphQL grant answers the grant with its release and the release's owner", async () => {
    const result = await world.viewer.http.graphql(GET_GRANT, { id: shown.id });
    expect(result.body.errors).toBeUndefined();
    expect(result.body.data.grant).toMatchObject({
      uuid: shown.id,
      lifecycle: "ACTIVE",
      release: { uuid: shown.releaseId, owner: { email: world.owner.account.email } },
    });
  });
});
