// Operation 3: POST /v1/envs/{environment_id}/tool-middlewares/validate, and GraphQL
// `validateToolMiddlewares` (semantics.md "Validate and apply").
import { afterAll, beforeAll, expect, it } from "vitest";
import { createGrant, deleteGrant, provisionProtectedGrant } from "../../../src/domain/grants.js";
import { definitionFor, jsonFormat, largeDefinition } from "../../fixtures/definitions/index.js";
import { describeEachDatabase, startTestService, type TestService } from "../../helpers/service.js";
import { createWorld, type Member, type World } from "../../helpers/world.js";
import {
  body,
  byId,
  environmentFor,
  expectGraphQLError,
  expectRestError,
  itAnswers401WithoutValidCredentials,
  otherContent,
  paths,
  PLAN_ROWS,
  publication,
  REASONS,
  sharedEnvironment,
  snapshotAllTables,
  uniqueName,
  UNKNOWN_ID,
  VALIDATE,
} from "./support.js";

describeEachDatabase("POST /v1/envs/{environment_id}/tool-middlewares/validate: validate tool middlewares", (provider) => {
  let service: TestService;
  let world: World;
  const validate = (member: Member, environmentId: string, request: unknown) => member.http.post(paths.validate(environmentId), request);
  const automaticGrantOf = async (environmentId: string, releaseId: string) =>
    createGrant(service.db, world.owner.account, environmentId, { release: { type: "ById", releaseId }, automatic: true });

  beforeAll(async () => {
    service = await startTestService(provider);
    world = await createWorld(service);
  });
  afterAll(() => service?.stopAndDrop());

  itAnswers401WithoutValidCredentials(
    () => world,
    "POST",
    () => paths.validate(world.environment.id),
  );

  it.each(PLAN_ROWS)("plans $row", async (row) => {
    const name = uniqueName("plan");
    const environment = await environmentFor(world, row);
    await row.arrange(world, name);
    const result = await validate(world.deployer, environment.id, body({ publications: [publication(row.content(name))] }));
    expect(result.status).toBe(200);
    expect(result.body).toEqual({ publicationPlan: [{ action: row.action, name, version: "1.0.0", reason: row.reason }] });
  });

  it("plans one entry per publication, in request order, at the environment owner's coordinates", async () => {
    const [published, fresh] = [uniqueName("order"), uniqueName("order")];
    await world.publish(world.owner, published, "1.0.0");
    // The deployer's own release at the same coordinate does not count: the owner publishes.
    await world.publish(world.deployer, fresh, "1.0.0");
    const result = await validate(
      world.deployer,
      world.environment.id,
      body({
        publications: [
          publication(definitionFor(fresh, "1.0.0")),
          publication(definitionFor(published, "1.0.0")),
          publication(definitionFor(published + "-x", "2.0.0")),
        ],
      }),
    );
    expect(result.status).toBe(200);
    expect(result.body.publicationPlan).toEqual([
      { action: "publish", name: fresh, version: "1.0.0", reason: REASONS.publish },
      { action: "noChange", name: published, version: "1.0.0", reason: REASONS.noChange },
      { action: "publish", name: `${published}-x`, version: "2.0.0", reason: REASONS.publish },
    ]);
  });

  it("answers an empty plan for an empty body", async () => {
    const result = await validate(world.viewer, world.environment.id, body());
    expect(result.status).toBe(200);
    expect(result.body).toEqual({ publicationPlan: [] });
  });

  it("changes nothing: every row of every table is identical after a validate with creations, deletions and publications", async () => {
    const [superseding, granted, deletable] = [uniqueName("still"), uniqueName("still"), uniqueName("still")];
    await world.publish(world.owner, superseding, "1.0.0");
    const grantedRelease = await world.publish(world.stranger, granted, "1.0.0");
    const deletion = await automaticGrantOf(world.environment.id, (await world.publish(world.owner, deletable, "1.0.0")).id);
    const request = body({
      publications: [publication(otherContent(definitionFor(superseding, "1.0.0"))), publication(definitionFor(uniqueName("still"), "1.0.0"))],
      creations: [
        { release: byId(grantedRelease), automatic: true },
        { release: { type: "ByCoordinates", account: world.owner.account.email, name: superseding, version: "1.0.0" }, automatic: true },
      ],
      deletions: [deletion.id],
    });
    const before = await snapshotAllTables(service);
    const result = await validate(world.owner, world.environment.id, request);
    expect(result.status).toBe(200);
    expect(result.body.publicationPlan.map((entry: { action: string }) => entry.action)).toEqual(["supersede", "publish"]);
    expect(await snapshotAllTables(service)).toEqual(before);
  });

  it("lets a viewer validate publications", async () => {
    const result = await validate(world.viewer, world.environment.id, body({ publications: [publication(definitionFor(uniqueName(), "1.0.0"))] }));
    expect(result.status).toBe(200);
    expect(result.body.publicationPlan[0].action).toBe("publish");
  });

  it("answers 403 AUTH_FORBIDDEN when a viewer's body creates grants", async () => {
    const release = await world.publish(world.owner, uniqueName(), "1.0.0");
    expectRestError(
      await validate(world.viewer, world.environment.id, body({ creations: [{ release: byId(release), automatic: true }] })),
      403,
      "AUTH_FORBIDDEN",
    );
  });

  it("answers 403 AUTH_FORBIDDEN when a viewer's body deletes grants", async () => {
    const grant = await automaticGrantOf(world.environment.id, (await world.publish(world.owner, uniqueName(), "1.0.0")).id);
    expectRestError(await validate(world.viewer, world.environment.id, body({ deletions: [grant.id] })), 403, "AUTH_FORBIDDEN");
  });

  it("answers 404 ENVIRONMENT_NOT_FOUND for an environment the caller cannot see", async () => {
    expectRestError(await validate(world.stranger, world.environment.id, body()), 404, "ENVIRONMENT_NOT_FOUND");
  });

  it("answers 404 ENVIRONMENT_NOT_FOUND for an unknown environment", async () => {
    expectRestError(await validate(world.owner, UNKNOWN_ID, body()), 404, "ENVIRONMENT_NOT_FOUND");
  });

  it("answers 400 REQUEST_INVALID for a malformed environment id", async () => {
    expectRestError(await validate(world.owner, "not-a-uuid", body()), 400, "REQUEST_INVALID");
  });

  it("answers 400 REQUEST_INVALID without a body", async () => {
    const result = await world.owner.http.post(paths.validate(world.environment.id));
    expect(result.status).toBe(400);
    expect(result.body).toEqual({ code: "REQUEST_INVALID", errors: [expect.stringMatching(/^body: required/)] });
  });

  it("answers 400 REQUEST_INVALID for a body field GraphQL does not know, and for a publication without a name", async () => {
    const result = await validate(world.owner, world.environment.id, { ...body(), extra: true, publications: [{ definition: jsonFormat() }] });
    expect(result.status).toBe(400);
    expect(result.body.code).toBe("REQUEST_INVALID");
    expect(result.body.errors.join("\n")).toMatch(/extra/);
    expect(result.body.errors.join("\n")).toMatch(/publications\[0\]/);
  });

  it("answers 400 DUPLICATE_TOOL_MIDDLEWARE_PUBLICATION for two publications with one name", async () => {
    const name = uniqueName("twice");
    const result = await validate(
      world.owner,
      world.environment.id,
      body({
        publications: [publication(definitionFor(name, "1.0.0")), publication(jsonFormat()), publication(definitionFor(name, "2.0.0"))],
      }),
    );
    expect(result.status).toBe(400);
    expect(result.body).toEqual({
      code: "DUPLICATE_TOOL_MIDDLEWARE_PUBLICATION",
      errors: [`publications[2].name: "${name}" is already published by publications[0]`],
    });
  });

  it("answers 400 TOOL_MIDDLEWARE_PUBLICATION_NAME_MISMATCH when definition.name is not the publication's name", async () => {
    const result = await validate(
      world.owner,
      world.environment.id,
      body({
        publications: [publication(jsonFormat()), { name: "git-lite-2", definition: definitionFor("git-lite", "1.0.0") }],
      }),
    );
    expect(result.status).toBe(400);
    expect(result.body).toEqual({
      code: "TOOL_MIDDLEWARE_PUBLICATION_NAME_MISMATCH",
      errors: ['publications[1].definition.name: "git-lite" does not match the publication name "git-lite-2"'],
    });
  });

  it("answers 422 LIMIT_EXCEEDED for a definition larger than the environment owner's plan allows", async () => {
    const freeOwner = await world.member({ plan: "free" });
    const environment = await world.environmentOf(freeOwner);
    // ~520 KB of canonical JSON: over the free plan's 256 KiB, within the team plan's 1 MiB.
    const large = largeDefinition({ nodes: 100, name: uniqueName("large") });
    const refused = await validate(freeOwner, environment.id, body({ publications: [publication(large)] }));
    expect(refused.status).toBe(422);
    expect(refused.body).toEqual({ code: "LIMIT_EXCEEDED", error: expect.stringContaining("publications[0].definition") });
    const accepted = await validate(world.owner, world.environment.id, body({ publications: [publication(large)] }));
    expect(accepted.status).toBe(200);
  });

  it("answers 422 LIMIT_EXCEEDED when the publications would exceed the owner's published releases", async () => {
    const freeOwner = await world.member({ plan: "free" });
    const environment = await world.environmentOf(freeOwner);
    for (let index = 0; index < 49; index += 1) await world.publish(freeOwner, `filled-${index}`, "1.0.0");
    const one = await validate(freeOwner, environment.id, body({ publications: [publication(definitionFor("fiftieth", "1.0.0"))] }));
    expect(one.status).toBe(200);
    const two = await validate(
      freeOwner,
      environment.id,
      body({
        publications: [publication(definitionFor("fiftieth", "1.0.0")), publication(definitionFor("fifty-first", "1.0.0"))],
      }),
    );
    expectRestError(two, 422, "LIMIT_EXCEEDED");
    // Re-publishing identical content adds nothing, so it stays within the limit.
    const same = await validate(
      freeOwner,
      environment.id,
      body({ publications: [publication(definitionFor("filled-0", "1.0.0")), publication(definitionFor("fiftieth", "1.0.0"))] }),
    );
    expect(same.status).toBe(200);
  });

  it("resolves a creation ByCoordinates against a release the same body publishes", async () => {
    const name = uniqueName("planned");
    const result = await validate(
      world.deployer,
      world.environment.id,
      body({
        publications: [publication(definitionFor(name, "1.0.0"))],
        creations: [{ release: { type: "ByCoordinates", account: world.owner.account.email.toUpperCase(), name, version: "1.0.0" }, automatic: true }],
      }),
    );
    expect(result.status).toBe(200);
    expect(result.body.publicationPlan).toEqual([{ action: "publish", name, version: "1.0.0", reason: REASONS.publish }]);
  });

  it("answers 404 REFERENCED_TOOL_RELEASE_NOT_FOUND for a creation ByCoordinates that nothing publishes", async () => {
    const creations = [
      { release: { type: "ByCoordinates", account: world.owner.account.email, name: uniqueName("nowhere"), version: "1.0.0" }, automatic: true },
    ];
    expectRestError(await validate(world.deployer, world.environment.id, body({ creations })), 404, "REFERENCED_TOOL_RELEASE_NOT_FOUND");
  });

  it("answers 404 REFERENCED_TOOL_RELEASE_NOT_FOUND for a creation of an unknown release", async () => {
    const creations = [{ release: { type: "ById", releaseId: UNKNOWN_ID }, automatic: true }];
    expectRestError(await validate(world.deployer, world.environment.id, body({ creations })), 404, "REFERENCED_TOOL_RELEASE_NOT_FOUND");
  });

  it("answers 400 REQUEST_INVALID for a malformed selector, located in the creation", async () => {
    const result = await validate(
      world.deployer,
      world.environment.id,
      body({
        creations: [
          { release: byId(await world.publish(world.owner, uniqueName(), "1.0.0")), automatic: true },
          { release: { type: "ById" }, automatic: true },
        ],
      }),
    );
    expect(result.status).toBe(400);
    expect(result.body).toEqual({ code: "REQUEST_INVALID", errors: ["grantReconciliation.creations[1].release.releaseId: required when type is ById"] });
  });

  it("answers 409 TOOL_RELEASE_IMMUTABLE_CONFLICT for a creation of a mutable release in a versionCheck environment", async () => {
    const environment = await sharedEnvironment(world, { versionCheck: true });
    const mutable = await world.publish(world.owner, uniqueName(), "1.0.0");
    expectRestError(
      await validate(world.deployer, environment.id, body({ creations: [{ release: byId(mutable), automatic: true }] })),
      409,
      "TOOL_RELEASE_IMMUTABLE_CONFLICT",
    );
  });

  it("accepts, in a versionCheck environment, a creation of a release the same body publishes (it will be immutable)", async () => {
    const environment = await sharedEnvironment(world, { versionCheck: true });
    const name = uniqueName();
    const result = await validate(
      world.deployer,
      environment.id,
      body({
        publications: [publication(definitionFor(name, "1.0.0"))],
        creations: [{ release: { type: "ByCoordinates", account: world.owner.account.email, name, version: "1.0.0" }, automatic: true }],
      }),
    );
    expect(result.status).toBe(200);
  });

  it("answers 422 LIMIT_EXCEEDED when the creations would exceed the active grants per environment", async () => {
    const freeOwner = await world.member({ plan: "free" });
    const environment = await world.environmentOf(freeOwner);
    for (let index = 0; index < 19; index += 1) {
      const release = await world.publish(freeOwner, `granted-${index}`, "1.0.0");
      await createGrant(service.db, freeOwner.account, environment.id, { release: { type: "ById", releaseId: release.id }, automatic: true });
    }
    const [twentieth, twentyFirst] = [await world.publish(freeOwner, "twentieth", "1.0.0"), await world.publish(freeOwner, "twenty-first", "1.0.0")];
    const within = await validate(freeOwner, environment.id, body({ creations: [{ release: byId(twentieth), automatic: true }] }));
    expect(within.status).toBe(200);
    const over = await validate(
      freeOwner,
      environment.id,
      body({
        creations: [
          { release: byId(twentieth), automatic: true },
          { release: byId(twentyFirst), automatic: true },
        ],
      }),
    );
    expectRestError(over, 422, "LIMIT_EXCEEDED");
  });

  it("answers 404 ENVIRONMENT_TOOL_MIDDLEWARE_GRANT_NOT_FOUND for a deletion of another environment's grant", async () => {
    const other = await sharedEnvironment(world);
    const grant = await automaticGrantOf(other.id, (await world.publish(world.owner, uniqueName(), "1.0.0")).id);
    expectRestError(await validate(world.deployer, world.environment.id, body({ deletions: [grant.id] })), 404, "ENVIRONMENT_TOOL_MIDDLEWARE_GRANT_NOT_FOUND");
  });

  it("answers 404 ENVIRONMENT_TOOL_MIDDLEWARE_GRANT_NOT_FOUND for a deletion of a manual grant", async () => {
    const release = await world.publish(world.owner, uniqueName(), "1.0.0");
    const grant = await createGrant(service.db, world.owner.account, world.environment.id, { release: byId(release), automatic: false });
    expectRestError(await validate(world.deployer, world.environment.id, body({ deletions: [grant.id] })), 404, "ENVIRONMENT_TOOL_MIDDLEWARE_GRANT_NOT_FOUND");
  });

  it("answers 404 ENVIRONMENT_TOOL_MIDDLEWARE_GRANT_NOT_FOUND for a deletion of a deleted grant", async () => {
    const grant = await automaticGrantOf(world.environment.id, (await world.publish(world.owner, uniqueName(), "1.0.0")).id);
    await deleteGrant(service.db, world.owner.account, grant.id, { automatic: true });
    expectRestError(await validate(world.deployer, world.environment.id, body({ deletions: [grant.id] })), 404, "ENVIRONMENT_TOOL_MIDDLEWARE_GRANT_NOT_FOUND");
  });

  it("answers 404 ENVIRONMENT_TOOL_MIDDLEWARE_GRANT_NOT_FOUND for a deletion of an unknown grant", async () => {
    expectRestError(
      await validate(world.deployer, world.environment.id, body({ deletions: [UNKNOWN_ID] })),
      404,
      "ENVIRONMENT_TOOL_MIDDLEWARE_GRANT_NOT_FOUND",
    );
  });

  it("answers 403 AUTH_FORBIDDEN for a deletion of a protected grant", async () => {
    const release = await world.publish(world.owner, uniqueName(), "1.0.0", { origin: "protected-system" });
    const grant = await provisionProtectedGrant(service.db, { environmentId: world.environment.id, releaseId: release.id, actorId: world.owner.account.id });
    expectRestError(await validate(world.deployer, world.environment.id, body({ deletions: [grant.id] })), 403, "AUTH_FORBIDDEN");
  });

  it("answers 400 REQUEST_INVALID for a grant deleted twice in one body", async () => {
    const grant = await automaticGrantOf(world.environment.id, (await world.publish(world.owner, uniqueName(), "1.0.0")).id);
    const result = await validate(world.deployer, world.environment.id, body({ deletions: [grant.id, grant.id] }));
    expect(result.status).toBe(400);
    expect(result.body).toEqual({
      code: "REQUEST_INVALID",
      errors: [`grantReconciliation.deletions[1]: grant ${grant.id} is already deleted by grantReconciliation.deletions[0]`],
    });
  });

  it("answers the same plan through GraphQL validateToolMiddlewares, actions named PUBLISH, NO_CHANGE, SUPERSEDE and CONFLICT (REST: publish, noChange, supersede, conflict)", async () => {
    const [fresh, same, mutable, depublished] = [uniqueName("gql"), uniqueName("gql"), uniqueName("gql"), uniqueName("gql")];
    await world.publish(world.owner, same, "1.0.0");
    await world.publish(world.owner, mutable, "1.0.0");
    await PLAN_ROWS.find((row) => row.reason === REASONS.lifecycleConflict)!.arrange(world, depublished);
    const input = body({
      publications: [
        publication(definitionFor(fresh, "1.0.0")),
        publication(definitionFor(same, "1.0.0")),
        publication(otherContent(definitionFor(mutable, "1.0.0"))),
        publication(definitionFor(depublished, "1.0.0")),
      ],
    });
    const result = await world.viewer.http.graphql(VALIDATE, { environmentId: world.environment.id, input });
    expect(result.body.errors).toBeUndefined();
    const plan = result.body.data.validateToolMiddlewares.publicationPlan;
    expect(plan.map((entry: { action: string }) => entry.action)).toEqual(["PUBLISH", "NO_CHANGE", "SUPERSEDE", "CONFLICT"]);
    const restPlan = (await validate(world.viewer, world.environment.id, input)).body.publicationPlan;
    expect(restPlan.map((entry: { action: string }) => entry.action)).toEqual(["publish", "noChange", "supersede", "conflict"]);
    const withoutAction = ({ action: _action, ...entry }: { action: string }) => entry;
    expect(restPlan.map(withoutAction)).toEqual(plan.map(withoutAction));
  });

  it("answers GraphQL errors with the REST codes in extensions.code", async () => {
    const result = await world.stranger.http.graphql(VALIDATE, { environmentId: world.environment.id, input: body() });
    expectGraphQLError(result, "validateToolMiddlewares", "ENVIRONMENT_NOT_FOUND");
  });
});
