// Operation 2: POST /v1/envs/{environment_id}/tool-middlewares, and GraphQL `createGrant`.
import { afterAll, beforeAll, expect, it } from "vitest";
import { createGrant, deleteGrant, provisionProtectedGrant } from "../../../src/domain/grants.js";
import { depublishRelease } from "../../../src/domain/releases.js";
import type { Environment, ToolRelease } from "../../../src/db/generated/sqlite/client.js";
import { describeEachDatabase, startTestService, type TestService } from "../../helpers/service.js";
import { createWorld, type Member, type World } from "../../helpers/world.js";
import {
  byCoordinates,
  byId,
  CREATE_GRANT,
  creationForGraphQL,
  expectGraphQLError,
  expectRestError,
  grantViewOf,
  itAnswers401WithoutValidCredentials,
  paths,
  sharedEnvironment,
  storedGrant,
  supersede,
  uniqueName,
  UNKNOWN_ID,
} from "./support.js";

describeEachDatabase("POST /v1/envs/{environment_id}/tool-middlewares: create a grant", (provider) => {
  let service: TestService;
  let world: World;
  const release = (options: { immutable?: boolean; owner?: Member } = {}) =>
    world.publish(options.owner ?? world.owner, uniqueName(), "1.0.0", { immutable: options.immutable });
  const rest = (member: Member, environment: Pick<Environment, "id">, body: unknown) => member.http.post(paths.grants(environment.id), body);
  const graphql = (member: Member, environment: Pick<Environment, "id">, input: unknown) =>
    member.http.graphql(CREATE_GRANT, { environmentId: environment.id, input: creationForGraphQL(input) });
  const rowsOf = (environment: Environment, granted: ToolRelease) =>
    service.db.grant.findMany({ where: { environmentId: environment.id, releaseId: granted.id } });

  /** An error row: REST answers `status` and `code`, and GraphQL createGrant carries the same code. */
  async function expectBothRefuse(member: Member, environment: Pick<Environment, "id">, body: unknown, status: number, code: string) {
    const restResult = await rest(member, environment, body);
    expectRestError(restResult, status, code);
    expectGraphQLError(await graphql(member, environment, body), "createGrant", code);
    return restResult;
  }

  beforeAll(async () => {
    service = await startTestService(provider);
    world = await createWorld(service);
  });
  afterAll(() => service?.stopAndDrop());

  it("grants a published release ById and answers its grant view (200)", async () => {
    const granted = await release({ owner: world.stranger });
    const result = await rest(world.deployer, world.environment, { release: byId(granted), automatic: false });
    expect(result.status).toBe(200);
    expect(result.body).toEqual(await grantViewOf(world, result.body.grant.id));
    expect(result.body.grant).toMatchObject({
      environmentId: world.environment.id,
      toolMiddlewareReleaseId: granted.id,
      protected: false,
      automatic: false,
      followCoordinates: false,
      lifecycle: "active",
      createdBy: world.deployer.account.id,
      stateChangedBy: world.deployer.account.id,
    });
    expect(result.body.grant.stateChangedAt).toBe(result.body.grant.createdAt);
    expect(result.body.releaseOwner).toEqual({ id: world.stranger.account.id, name: world.stranger.account.name, email: world.stranger.account.email });
  });

  it("grants a superseded release ById", async () => {
    const granted = await supersede(world, await release());
    const result = await rest(world.owner, world.environment, { release: byId(granted) });
    expect(result.status).toBe(200);
    expect(result.body.grant.toolMiddlewareReleaseId).toBe(granted.id);
  });

  it("grants the current published release ByCoordinates, with followCoordinates true", async () => {
    const name = uniqueName();
    const superseded = await supersede(world, await world.publish(world.stranger, name, "1.0.0"));
    const current = await world.publish(world.stranger, name, "1.0.0");
    const result = await rest(world.owner, world.environment, { release: byCoordinates(world.stranger, superseded) });
    expect(result.status).toBe(200);
    expect(result.body.grant).toMatchObject({ toolMiddlewareReleaseId: current.id, followCoordinates: true });
  });

  it("records automatic: true from the request", async () => {
    const result = await rest(world.owner, world.environment, { release: byId(await release()), automatic: true });
    expect(result.status).toBe(200);
    expect(result.body.grant.automatic).toBe(true);
  });

  it("treats a missing automatic as false", async () => {
    const result = await rest(world.owner, world.environment, { release: byId(await release()) });
    expect(result.body.grant.automatic).toBe(false);
  });

  it("is idempotent: the same request again answers the same grant unchanged, and one row exists", async () => {
    const granted = await release();
    const first = await rest(world.owner, world.environment, { release: byId(granted), automatic: true });
    const again = await rest(world.deployer, world.environment, { release: byId(granted), automatic: true });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect(await rowsOf(world.environment, granted)).toHaveLength(1);
  });

  it("turns an automatic grant manual when a manual request names it (same grant, flags updated)", async () => {
    const granted = await release();
    const automatic = await rest(world.owner, world.environment, { release: byId(granted), automatic: true });
    const manual = await rest(world.deployer, world.environment, { release: byId(granted), automatic: false });
    expect(manual.status).toBe(200);
    expect(manual.body.grant).toEqual({ ...automatic.body.grant, automatic: false });
  });

  it("never lets an automatic request take over a manual grant: the grant is answered unchanged", async () => {
    const granted = await release();
    const manual = await rest(world.owner, world.environment, { release: byId(granted), automatic: false });
    const automatic = await rest(world.owner, world.environment, { release: byCoordinates(world.owner, granted), automatic: true });
    expect(automatic.status).toBe(200);
    expect(automatic.body).toEqual(manual.body);
  });

  it("updates followCoordinates when the same release is named by another selector type", async () => {
    const granted = await release();
    const byIdGrant = await rest(world.owner, world.environment, { release: byId(granted) });
    const byCoordinatesGrant = await rest(world.owner, world.environment, { release: byCoordinates(world.owner, granted) });
    expect(byCoordinatesGrant.body.grant).toEqual({ ...byIdGrant.body.grant, followCoordinates: true });
  });

  it("answers a protected grant unchanged", async () => {
    const granted = await release();
    const provisioned = await provisionProtectedGrant(service.db, {
      environmentId: world.environment.id,
      releaseId: granted.id,
      actorId: world.owner.account.id,
    });
    const result = await rest(world.deployer, world.environment, { release: byCoordinates(world.owner, granted), automatic: false });
    expect(result.status).toBe(200);
    expect(result.body).toEqual(await grantViewOf(world, provisioned.id));
    expect(await storedGrant(world, provisioned.id)).toEqual(provisioned);
  });

  it("restores a deleted grant in place with the new flags, recording who changed its state", async () => {
    const granted = await release();
    const original = await createGrant(service.db, world.owner.account, world.environment.id, { release: byId(granted), automatic: false });
    await deleteGrant(service.db, world.owner.account, original.id);
    const result = await rest(world.deployer, world.environment, { release: byCoordinates(world.owner, granted), automatic: true });
    expect(result.status).toBe(200);
    expect(result.body.grant).toMatchObject({
      id: original.id,
      lifecycle: "active",
      automatic: true,
      followCoordinates: true,
      createdAt: original.createdAt.toISOString(),
      createdBy: world.owner.account.id,
      stateChangedBy: world.deployer.account.id,
    });
    expect(Date.parse(result.body.grant.stateChangedAt)).toBeGreaterThan(original.stateChangedAt.getTime());
    expect(await rowsOf(world.environment, granted)).toHaveLength(1);
  });

  it("grants an immutable release in an environment with versionCheck", async () => {
    const environment = await sharedEnvironment(world, { versionCheck: true });
    const result = await rest(world.deployer, environment, { release: byId(await release({ immutable: true })) });
    expect(result.status).toBe(200);
  });

  it("answers 409 TOOL_RELEASE_IMMUTABLE_CONFLICT for a mutable release in an environment with versionCheck", async () => {
    const environment = await sharedEnvironment(world, { versionCheck: true });
    const mutable = await release({ immutable: false });
    await expectBothRefuse(world.deployer, environment, { release: byId(mutable) }, 409, "TOOL_RELEASE_IMMUTABLE_CONFLICT");
    expect(await rowsOf(environment, mutable)).toEqual([]);
  });

  it("answers 404 REFERENCED_TOOL_RELEASE_NOT_FOUND for an unknown release ById", async () => {
    await expectBothRefuse(world.owner, world.environment, { release: { type: "ById", releaseId: UNKNOWN_ID } }, 404, "REFERENCED_TOOL_RELEASE_NOT_FOUND");
  });

  it("answers 404 REFERENCED_TOOL_RELEASE_NOT_FOUND for a de-published release ById", async () => {
    const depublished = await release();
    await depublishRelease(service.db, world.owner.account, depublished.id);
    await expectBothRefuse(world.owner, world.environment, { release: byId(depublished) }, 404, "REFERENCED_TOOL_RELEASE_NOT_FOUND");
  });

  it("answers 404 REFERENCED_TOOL_RELEASE_NOT_FOUND for unknown coordinates", async () => {
    const known = await release();
    for (const selector of [
      { ...byCoordinates(world.owner, known), account: "nobody@example.test" },
      { ...byCoordinates(world.owner, known), name: uniqueName("unknown") },
      { ...byCoordinates(world.owner, known), version: "9.9.9" },
      byCoordinates(world.stranger, known),
    ]) {
      await expectBothRefuse(world.owner, world.environment, { release: selector }, 404, "REFERENCED_TOOL_RELEASE_NOT_FOUND");
    }
  });

  it("answers 404 REFERENCED_TOOL_RELEASE_NOT_FOUND ByCoordinates when the coordinate's release is de-published or only superseded", async () => {
    const depublished = await release();
    await depublishRelease(service.db, world.owner.account, depublished.id);
    const superseded = await supersede(world, await release());
    for (const gone of [depublished, superseded]) {
      await expectBothRefuse(world.owner, world.environment, { release: byCoordinates(world.owner, gone) }, 404, "REFERENCED_TOOL_RELEASE_NOT_FOUND");
    }
  });

  it("answers 400 REQUEST_INVALID listing every field a ById or ByCoordinates selector lacks or must not have", async () => {
    const byIdResult = await expectBothRefuse(world.owner, world.environment, { release: { type: "ById", name: "x" } }, 400, "REQUEST_INVALID");
    expect(byIdResult.body.errors).toEqual(["release.releaseId: required when type is ById", "release.name: not allowed when type is ById"]);
    const coordinates = await expectBothRefuse(world.owner, world.environment, { release: { type: "ByCoordinates", name: "" } }, 400, "REQUEST_INVALID");
    expect(coordinates.body.errors).toEqual([
      "release.account: required when type is ByCoordinates",
      "release.name: must not be empty",
      "release.version: required when type is ByCoordinates",
    ]);
  });

  it("answers 400 REQUEST_INVALID for an unknown selector type", async () => {
    const result = await expectBothRefuse(world.owner, world.environment, { release: { type: "ByName", name: "x" } }, 400, "REQUEST_INVALID");
    expect(result.body.errors).toEqual([expect.stringMatching(/"ByName".*ReleaseSelectorType/)]);
  });

  it("answers 400 REQUEST_INVALID listing every problem of a body with wrong types and unknown fields", async () => {
    const body = { release: { type: "ById", releaseId: 42 }, automatic: "yes", priority: 1 };
    const result = await expectBothRefuse(world.owner, world.environment, body, 400, "REQUEST_INVALID");
    expect(result.body.errors).toHaveLength(3);
    expect(result.body.errors).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/body\.automatic.*Boolean/),
        expect.stringMatching(/body\.release\.releaseId/),
        expect.stringMatching(/"priority" is not defined/),
      ]),
    );
  });

  it("answers 400 REQUEST_INVALID for a body without release, or no body at all", async () => {
    const withoutRelease = await expectBothRefuse(world.owner, world.environment, { automatic: true }, 400, "REQUEST_INVALID");
    expect(withoutRelease.body.errors).toEqual([expect.stringMatching(/"release".*not provided/)]);
    const noBody = await world.owner.http.post(paths.grants(world.environment.id));
    expectRestError(noBody, 400, "REQUEST_INVALID");
    expect(noBody.body.errors).toEqual([expect.stringMatching(/^body: required/)]);
  });

  it("answers 400 REQUEST_INVALID for malformed JSON", async () => {
    const result = await world.owner.http.post(paths.grants(world.environment.id), '{"release": {"type": "ById",');
    expectRestError(result, 400, "REQUEST_INVALID");
    expect(result.body.errors).toEqual([expect.stringMatching(/^body: malformed JSON/)]);
  });

  it("answers 400 REQUEST_INVALID for a malformed environment UUID in the path, listing body problems too", async () => {
    const result = await world.owner.http.post(paths.grants("not-a-uuid"), { release: { type: "ById", releaseId: UNKNOWN_ID }, automatic: "no" });
    expectRestError(result, 400, "REQUEST_INVALID");
    expect(result.body.errors).toEqual([expect.stringContaining("not-a-uuid"), expect.stringMatching(/body\.automatic/)]);
  });

  it("answers 413 PAYLOAD_TOO_LARGE for a body over 8 MiB", async () => {
    const body = JSON.stringify({ release: { type: "ById", releaseId: UNKNOWN_ID }, padding: "x".repeat(8 * 1024 * 1024) });
    expectRestError(await world.owner.http.post(paths.grants(world.environment.id), body), 413, "PAYLOAD_TOO_LARGE");
  });

  it("answers 403 AUTH_FORBIDDEN to a viewer", async () => {
    const granted = await release();
    await expectBothRefuse(world.viewer, world.environment, { release: byId(granted) }, 403, "AUTH_FORBIDDEN");
    expect(await rowsOf(world.environment, granted)).toEqual([]);
  });

  it("answers 404 ENVIRONMENT_NOT_FOUND for an environment the caller cannot see", async () => {
    await expectBothRefuse(world.stranger, world.environment, { release: byId(await release()) }, 404, "ENVIRONMENT_NOT_FOUND");
  });

  it("answers 404 ENVIRONMENT_NOT_FOUND for an unknown environment", async () => {
    await expectBothRefuse(world.owner, { id: UNKNOWN_ID }, { release: byId(await release()) }, 404, "ENVIRONMENT_NOT_FOUND");
  });

  it("answers 422 LIMIT_EXCEEDED when a new active grant would exceed the environment owner's plan (free: 20)", async () => {
    const freeOwner = await world.member({ plan: "free" });
    const environment = await world.environmentOf(freeOwner);
    const releases = [];
    for (let index = 0; index < 21; index += 1) releases.push(await release());
    for (const granted of releases.slice(0, 20)) await createGrant(service.db, freeOwner.account, environment.id, { release: byId(granted) });
    await expectBothRefuse(freeOwner, environment, { release: byId(releases[20]!) }, 422, "LIMIT_EXCEEDED");
    // Naming an already active grant adds nothing, so it is still answered.
    expect((await rest(freeOwner, environment, { release: byId(releases[0]!) })).status).toBe(200);
    // Deleted grants do not count.
    const [first] = await service.db.grant.findMany({ where: { environmentId: environment.id }, take: 1 });
    await deleteGrant(service.db, freeOwner.account, first!.id);
    expect((await rest(freeOwner, environment, { release: byId(releases[20]!) })).status).toBe(200);
  });

  itAnswers401WithoutValidCredentials(
    () => world,
    "POST",
    () => paths.grants(world.environment.id),
  );

  it("creates one grant for 10 concurrent identical requests, answering all of them with it (200)", async () => {
    const granted = await release();
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, index) => rest(index % 2 ? world.owner : world.deployer, world.environment, { release: byId(granted) })),
    );
    expect(results.map((result) => result.status)).toEqual(Array(10).fill(200));
    const rows = await rowsOf(world.environment, granted);
    expect(rows).toHaveLength(1);
    expect(new Set(results.map((result) => result.body.grant.id))).toEqual(new Set([rows[0]!.id]));
  });

  it("GraphQL createGrant answers the grant with its release and the release's owner", async () => {
    const granted = await release({ owner: world.stranger });
    const result = await graphql(world.deployer, world.environment, { release: byCoordinates(world.stranger, granted), automatic: true });
    expect(result.body.errors).toBeUndefined();
    const stored = await service.db.grant.findFirstOrThrow({ where: { environmentId: world.environment.id, releaseId: granted.id } });
    expect(result.body.data.createGrant).toEqual({
      uuid: stored.id,
      environmentId: world.environment.id,
      releaseId: granted.id,
      protected: false,
      automatic: true,
      followCoordinates: true,
      lifecycle: "ACTIVE",
      stateChangedAt: stored.stateChangedAt.toISOString(),
      stateChangedById: world.deployer.account.id,
      release: { uuid: granted.id, owner: { email: world.stranger.account.email } },
    });
  });
});
