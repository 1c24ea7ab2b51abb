// The apply extension: POST /v1/envs/{environment_id}/tool-middlewares/apply, and GraphQL
// `applyToolMiddlewares` (semantics.md "Validate and apply").
import { afterAll, beforeAll, expect, it } from "vitest";
import { createGrant, deleteGrant } from "../../../src/domain/grants.js";
import { definitionFor, jsonFormat, largeDefinition } from "../../fixtures/definitions/index.js";
import { describeEachDatabase, startTestService, type TestService } from "../../helpers/service.js";
import { createWorld, type Member, type World } from "../../helpers/world.js";
import {
  allReleasesAt,
  APPLY,
  body,
  byId,
  changesForGraphQL,
  currentReleasesAt,
  environmentFor,
  expectGraphQLError,
  expectRestError,
  grantViewOf,
  itAnswers401WithoutValidCredentials,
  otherContent,
  paths,
  PLAN_ROWS,
  publication,
  REASONS,
  restReleaseOf,
  reversedKeys,
  sharedEnvironment,
  snapshotAllTables,
  sourceFor,
  uniqueName,
  UNKNOWN_ID,
} from "./support.js";

describeEachDatabase("POST /v1/envs/{environment_id}/tool-middlewares/apply: apply tool middlewares", (provider) => {
  let service: TestService;
  let world: World;
  const apply = (member: Member, environmentId: string, request: unknown) => member.http.post(paths.apply(environmentId), request);
  const validate = (member: Member, environmentId: string, request: unknown) => member.http.post(paths.validate(environmentId), request);
  const coordinatesOf = (name: string, version = "1.0.0") => ({ type: "ByCoordinates", account: world.owner.account.email, name, version });
  const grantOf = (member: Member, environmentId: string, selector: unknown, automatic = true) =>
    createGrant(service.db, member.account, environmentId, { release: selector as never, automatic });

  beforeAll(async () => {
    service = await startTestService(provider);
    world = await createWorld(service);
  });
  afterAll(() => service?.stopAndDrop());

  itAnswers401WithoutValidCredentials(
    () => world,
    "POST",
    () => paths.apply(world.environment.id),
  );

  it.each(PLAN_ROWS)("does what validate planned: $row", async (row) => {
    const name = uniqueName("row");
    const environment = await environmentFor(world, row);
    const existing = await row.arrange(world, name);
    const request = body({ publications: [publication(row.content(name))] });
    const planned = await validate(world.deployer, environment.id, request);
    expect(planned.status).toBe(200);
    const before = await snapshotAllTables(service);

    const applied = await apply(world.deployer, environment.id, request);

    if (row.action === "conflict") {
      expectRestError(applied, 409, row.conflictCode!);
      expect(await snapshotAllTables(service)).toEqual(before);
      return;
    }
    expect(applied.status).toBe(200);
    expect(applied.body.publicationPlan).toEqual(planned.body.publicationPlan);
    const releases = await allReleasesAt(service, world.owner, name, "1.0.0");
    const current = await currentReleasesAt(service, world.owner, name, "1.0.0");
    expect(current).toHaveLength(1);
    if (row.action === "noChange") {
      expect(applied.body.releases).toEqual([]);
      expect(current[0]!.id).toBe(existing!.id);
      expect(await snapshotAllTables(service)).toEqual(before);
      return;
    }
    expect(applied.body.releases.map((release: { id: string }) => release.id)).toEqual([current[0]!.id]);
    expect(current[0]).toMatchObject({ lifecycle: "published", immutable: row.versionCheck, createdById: world.deployer.account.id });
    expect(releases).toHaveLength(existing ? 2 : 1);
    if (row.action === "supersede") {
      const superseded = releases.find((release) => release.id === existing!.id)!;
      expect(superseded).toMatchObject({ lifecycle: "superseded", currentCoordinate: null, stateChangedById: world.deployer.account.id });
      expect(superseded.stateChangedAt.getTime()).toBeGreaterThan(existing!.stateChangedAt.getTime());
    }
  });

  it("answers the plan, releases in the tool release shape (2.4), grant views (2.2) and deleted grant ids", async () => {
    const [name, old] = [uniqueName("shape"), uniqueName("shape")];
    const deletable = await grantOf(world.owner, world.environment.id, byId(await world.publish(world.owner, old, "1.0.0")));
    const result = await apply(
      world.deployer,
      world.environment.id,
      body({
        publications: [publication(definitionFor(name, "1.0.0"))],
        creations: [{ release: coordinatesOf(name), automatic: true }],
        deletions: [deletable.id],
      }),
    );
    expect(result.status).toBe(200);
    const [release] = await allReleasesAt(service, world.owner, name, "1.0.0");
    const grant = await service.db.grant.findFirstOrThrow({ where: { environmentId: world.environment.id, releaseId: release!.id } });
    expect(result.body).toEqual({
      publicationPlan: [{ action: "publish", name, version: "1.0.0", reason: REASONS.publish }],
      releases: [restReleaseOf(release!)],
      grants: [await grantViewOf(world, grant.id)],
      deletedGrantIds: [deletable.id],
    });
    expect(result.body.grants[0].grant).toMatchObject({ automatic: true, followCoordinates: true, lifecycle: "active", createdBy: world.deployer.account.id });
    expect((await world.owner.http.get(`/v1/environment-tool-middleware-grants/${deletable.id}`)).status).toBe(404);
  });

  it("publishes under the environment owner's account, recording the caller, immutable when the environment has versionCheck", async () => {
    const environment = await sharedEnvironment(world, { versionCheck: true });
    const name = uniqueName("owned");
    const source = sourceFor(name);
    const result = await apply(world.deployer, environment.id, body({ publications: [{ name, definition: definitionFor(name, "2.0.0"), source }] }));
    expect(result.status).toBe(200);
    expect(result.body.releases[0]).toMatchObject({
      ownerAccountId: world.owner.account.id,
      name,
      version: "2.0.0",
      source,
      immutable: true,
      lifecycle: "published",
      origin: "ordinary",
      systemAvailability: "grantable",
      createdBy: world.deployer.account.id,
      stateChangedBy: world.deployer.account.id,
    });
  });

  it("answers 403 AUTH_FORBIDDEN to a viewer, even for a body validate accepts", async () => {
    const request = body({ publications: [publication(definitionFor(uniqueName(), "1.0.0"))] });
    expect((await validate(world.viewer, world.environment.id, request)).status).toBe(200);
    expectRestError(await apply(world.viewer, world.environment.id, request), 403, "AUTH_FORBIDDEN");
  });

  it("answers 404 ENVIRONMENT_NOT_FOUND for an environment the caller cannot see", async () => {
    expectRestError(await apply(world.stranger, world.environment.id, body()), 404, "ENVIRONMENT_NOT_FOUND");
  });

  it("answers 400 REQUEST_INVALID when a publication that publishes or supersedes has no source", async () => {
    const [fresh, same] = [uniqueName("sourceless"), uniqueName("sourceless")];
    await world.publish(world.owner, same, "1.0.0");
    const result = await apply(
      world.owner,
      world.environment.id,
      body({
        publications: [publication(definitionFor(same, "1.0.0"), null), publication(definitionFor(fresh, "1.0.0"), null)],
      }),
    );
    expect(result.status).toBe(400);
    // The noChange publication needs no source; only the one that publishes is listed.
    expect(result.body).toEqual({ code: "REQUEST_INVALID", errors: [`publications[1].source: required to publish ${fresh} 1.0.0`] });
    expect(await allReleasesAt(service, world.owner, fresh, "1.0.0")).toEqual([]);
  });

  it("supersede moves the active grants that follow coordinates, in every environment, and leaves pinned and deleted grants", async () => {
    const name = uniqueName("follow");
    const old = await world.publish(world.owner, name, "1.0.0");
    const [pinnedHere, elsewhere, deletedElsewhere] = [
      await sharedEnvironment(world),
      await world.environmentOf(world.stranger),
      await sharedEnvironment(world),
    ];
    const following = await grantOf(world.owner, world.environment.id, coordinatesOf(name));
    const pinned = await grantOf(world.owner, pinnedHere.id, byId(old));
    const strangersFollowing = await grantOf(world.stranger, elsewhere.id, coordinatesOf(name), false);
    const deletedFollowing = await grantOf(world.owner, deletedElsewhere.id, coordinatesOf(name));
    await deleteGrant(service.db, world.owner.account, deletedFollowing.id, { automatic: true });

    const changed = otherContent(definitionFor(name, "1.0.0"));
    const result = await apply(world.deployer, world.environment.id, body({ publications: [publication(changed)] }));

    expect(result.status).toBe(200);
    expect(result.body.publicationPlan[0].action).toBe("supersede");
    const successor = result.body.releases[0].id;
    const stored = async (id: string) => service.db.grant.findUniqueOrThrow({ where: { id } });
    expect(await stored(following.id)).toMatchObject({ releaseId: successor, lifecycle: "active", followCoordinates: true });
    expect(await stored(strangersFollowing.id)).toMatchObject({ releaseId: successor, lifecycle: "active" });
    expect(await stored(pinned.id)).toMatchObject({ releaseId: old.id, lifecycle: "active", followCoordinates: false });
    expect(await stored(deletedFollowing.id)).toMatchObject({ releaseId: old.id, lifecycle: "deleted" });
    // The answer lists the grants of this environment only.
    expect(result.body.grants.map((view: { grant: unknown }) => view.grant)).toEqual([
      { ...((await grantViewOf(world, following.id)).grant as object), toolMiddlewareReleaseId: successor },
    ]);
    expect(result.body.grants[0].release).toMatchObject({ id: successor, definition: changed });
  });

  it("plans noChange for the same content with its keys in another order (the digest is of canonical JSON)", async () => {
    const name = uniqueName("keys");
    const first = await apply(world.owner, world.environment.id, body({ publications: [publication(definitionFor(name, "1.0.0"))] }));
    expect(first.body.publicationPlan[0].action).toBe("publish");
    const reordered = reversedKeys(definitionFor(name, "1.0.0"));
    expect(JSON.stringify(reordered)).not.toBe(JSON.stringify(definitionFor(name, "1.0.0")));
    const again = await apply(world.owner, world.environment.id, body({ publications: [publication(reordered)] }));
    expect(again.status).toBe(200);
    expect(again.body.publicationPlan).toEqual([{ action: "noChange", name, version: "1.0.0", reason: REASONS.noChange }]);
    expect(again.body.releases).toEqual([]);
    expect(await allReleasesAt(service, world.owner, name, "1.0.0")).toHaveLength(1);
  });

  it("is atomic: a failing creation rolls back the publication before it", async () => {
    const name = uniqueName("atomic");
    const before = await snapshotAllTables(service);
    const result = await apply(
      world.owner,
      world.environment.id,
      body({
        publications: [publication(definitionFor(name, "1.0.0"))],
        creations: [
          { release: coordinatesOf(name), automatic: true },
          { release: { type: "ById", releaseId: UNKNOWN_ID }, automatic: true },
        ],
      }),
    );
    expectRestError(result, 404, "REFERENCED_TOOL_RELEASE_NOT_FOUND");
    expect(await snapshotAllTables(service)).toEqual(before);
  });

  it("is atomic: a failing deletion rolls back the publications and creations before it", async () => {
    const name = uniqueName("atomic");
    const manual = await grantOf(world.owner, world.environment.id, byId(await world.publish(world.owner, uniqueName(), "1.0.0")), false);
    const before = await snapshotAllTables(service);
    const result = await apply(
      world.owner,
      world.environment.id,
      body({
        publications: [publication(definitionFor(name, "1.0.0"))],
        creations: [{ release: coordinatesOf(name), automatic: true }],
        deletions: [manual.id],
      }),
    );
    expectRestError(result, 404, "ENVIRONMENT_TOOL_MIDDLEWARE_GRANT_NOT_FOUND");
    expect(await snapshotAllTables(service)).toEqual(before);
  });

  it("answers 409 TOOL_RELEASE_IMMUTABLE_CONFLICT and changes nothing when one of several publications conflicts", async () => {
    const [fresh, immutable] = [uniqueName("conflict"), uniqueName("conflict")];
    await world.publish(world.owner, immutable, "1.0.0", { immutable: true });
    const before = await snapshotAllTables(service);
    const result = await apply(
      world.owner,
      world.environment.id,
      body({
        publications: [publication(definitionFor(fresh, "1.0.0")), publication(otherContent(definitionFor(immutable, "1.0.0")))],
      }),
    );
    expectRestError(result, 409, "TOOL_RELEASE_IMMUTABLE_CONFLICT");
    expect(await snapshotAllTables(service)).toEqual(before);
  });

  it("answers 409 TOOL_RELEASE_IMMUTABLE_CONFLICT for a creation of a mutable release in a versionCheck environment", async () => {
    const environment = await sharedEnvironment(world, { versionCheck: true });
    const mutable = await world.publish(world.owner, uniqueName(), "1.0.0");
    expectRestError(
      await apply(world.deployer, environment.id, body({ creations: [{ release: byId(mutable), automatic: true }] })),
      409,
      "TOOL_RELEASE_IMMUTABLE_CONFLICT",
    );
  });

  it("answers 422 LIMIT_EXCEEDED for a definition larger than the owner's plan allows", async () => {
    const freeOwner = await world.member({ plan: "free" });
    const environment = await world.environmentOf(freeOwner);
    const large = largeDefinition({ nodes: 100, name: uniqueName("large") });
    expectRestError(await apply(freeOwner, environment.id, body({ publications: [publication(large)] })), 422, "LIMIT_EXCEEDED");
    expect(await allReleasesAt(service, freeOwner, large.name, large.version)).toEqual([]);
    const accepted = await apply(world.owner, world.environment.id, body({ publications: [publication(large)] }));
    expect(accepted.status).toBe(200);
  });

  it("answers 422 LIMIT_EXCEEDED when the publications would exceed the owner's published releases", async () => {
    const freeOwner = await world.member({ plan: "free" });
    const environment = await world.environmentOf(freeOwner);
    for (let index = 0; index < 49; index += 1) await world.publish(freeOwner, `filled-${index}`, "1.0.0");
    const request = body({ publications: [publication(definitionFor("fiftieth", "1.0.0")), publication(definitionFor("fifty-first", "1.0.0"))] });
    expectRestError(await apply(freeOwner, environment.id, request), 422, "LIMIT_EXCEEDED");
    expect(await service.db.toolRelease.count({ where: { ownerAccountId: freeOwner.account.id } })).toBe(49);
    const fiftieth = await apply(freeOwner, environment.id, body({ publications: [publication(definitionFor("fiftieth", "1.0.0"))] }));
    expect(fiftieth.status).toBe(200);
    // Superseding replaces a published release, so it is allowed at the limit.
    const superseding = await apply(freeOwner, environment.id, body({ publications: [publication(otherContent(definitionFor("fiftieth", "1.0.0")))] }));
    expect(superseding.status).toBe(200);
    expect(superseding.body.publicationPlan[0].action).toBe("supersede");
  });

  it("answers 400 DUPLICATE_TOOL_MIDDLEWARE_PUBLICATION for two publications with one name", async () => {
    const result = await apply(world.owner, world.environment.id, body({ publications: [publication(jsonFormat()), publication(jsonFormat())] }));
    expectRestError(result, 400, "DUPLICATE_TOOL_MIDDLEWARE_PUBLICATION");
  });

  it("answers 400 TOOL_MIDDLEWARE_PUBLICATION_NAME_MISMATCH when definition.name is not the publication's name", async () => {
    const result = await apply(world.owner, world.environment.id, body({ publications: [{ ...publication(jsonFormat()), name: "json-formatter" }] }));
    expectRestError(result, 400, "TOOL_MIDDLEWARE_PUBLICATION_NAME_MISMATCH");
  });

  it("creates grants idempotently: an automatic creation leaves a manual grant as it is", async () => {
    const release = await world.publish(world.owner, uniqueName("manual"), "1.0.0");
    const manual = await grantOf(world.owner, world.environment.id, byId(release), false);
    const result = await apply(world.deployer, world.environment.id, body({ creations: [{ release: byId(release), automatic: true }] }));
    expect(result.status).toBe(200);
    expect(result.body.grants).toEqual([await grantViewOf(world, manual.id)]);
    expect(result.body.grants[0].grant.automatic).toBe(false);
  });

  it("answers the same through GraphQL applyToolMiddlewares", async () => {
    const name = uniqueName("gql");
    const input = body({ publications: [publication(definitionFor(name, "1.0.0"))], creations: [{ release: coordinatesOf(name), automatic: true }] });
    const result = await world.deployer.http.graphql(APPLY, { environmentId: world.environment.id, input: changesForGraphQL(input) });
    expect(result.body.errors).toBeUndefined();
    const applied = result.body.data.applyToolMiddlewares;
    expect(applied.publicationPlan).toEqual([{ action: "PUBLISH", name, version: "1.0.0", reason: REASONS.publish }]);
    expect(applied.releases).toEqual([{ uuid: expect.any(String), name, version: "1.0.0", lifecycle: "PUBLISHED", immutable: false }]);
    expect(applied.grants).toEqual([
      { uuid: expect.any(String), releaseId: applied.releases[0].uuid, followCoordinates: true, automatic: true, lifecycle: "ACTIVE" },
    ]);
    expect(applied.deletedGrantIds).toEqual([]);
  });

  it("answers GraphQL errors with the REST codes in extensions.code", async () => {
    const result = await world.viewer.http.graphql(APPLY, { environmentId: world.environment.id, input: body() });
    expectGraphQLError(result, "applyToolMiddlewares", "AUTH_FORBIDDEN");
  });
});
