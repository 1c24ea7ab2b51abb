// Fifty clients at once on every write operation: no 5xx, every loser a documented 4xx, and every
// plan limit (environments, published releases, active grants) holds, restore and apply included.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, expect, it } from "vitest";
import { definitionFor } from "../fixtures/definitions/index.js";
import { describeEachDatabase, startTestService, type TestService } from "../helpers/service.js";
import { createWorld, type World } from "../helpers/world.js";
import {
  CLIENTS,
  QUEUE_TOLERANT_POSTGRES,
  depublishAll,
  expectOnly,
  graphQLOutcomeOf,
  outcomeOf,
  publishMany,
  race,
  successes,
  tally,
  uniqueName,
} from "./support.js";

const CREATE_ENVIRONMENT = /* GraphQL */ `
  mutation ($input: CreateEnvironmentInput!) { createEnvironment(input: $input) { id } }`;
const SHARE_ENVIRONMENT = /* GraphQL */ `
  mutation ($input: ShareEnvironmentInput!) { shareEnvironment(input: $input) { role } }`;
const CREATE_TOKEN = /* GraphQL */ `
  mutation ($input: CreateApiTokenInput!) { createApiToken(input: $input) { token { uuid } } }`;
const CREATE_ACCOUNT = /* GraphQL */ `
  mutation ($input: CreateAccountInput!) { createAccount(input: $input) { id } }`;
const REVOKE_TOKEN = /* GraphQL */ `
  mutation ($id: UUID!) { revokeApiToken(id: $id) { revokedAt } }`;

const grantsPath = (environmentId: string) => `/v1/envs/${environmentId}/tool-middlewares`;
const grantPath = (grantId: string) => `/v1/environment-tool-middleware-grants/${grantId}`;
const applyPath = (environmentId: string) => `/v1/envs/${environmentId}/tool-middlewares/apply`;
const releasePath = (releaseId: string) => `/v1/tool-releases/${releaseId}`;

describeEachDatabase(`${CLIENTS} concurrent clients on every write operation`, (provider) => {
  let service: TestService;
  let world: World;

  beforeAll(async () => {
    service = await startTestService(provider, { postgres: QUEUE_TOLERANT_POSTGRES });
    world = await createWorld(service);
  });
  afterAll(() => service?.stopAndDrop());

  const db = () => service.db;

  it("createEnvironment: a FREE account (limit 3) ends with 3 environments; the others get 422 LIMIT_EXCEEDED", async () => {
    const owner = await world.member({ plan: "free" });
    const results = await race(CLIENTS, (index) => owner.http.graphql(CREATE_ENVIRONMENT, { input: { accountId: owner.account.id, name: `env-${index}` } }));
    const outcomes = results.map(graphQLOutcomeOf);
    expectOnly(outcomes, ["422 LIMIT_EXCEEDED", "409 CONCURRENT_UPDATE"]);
    expect(successes(outcomes)).toBe(3);
    expect(await db().environment.count({ where: { ownerAccountId: owner.account.id } })).toBe(3);
  });

  it("createEnvironment with one name: one environment; the others get 409 ENVIRONMENT_CONFLICT", async () => {
    const owner = await world.member({ plan: "team" });
    const results = await race(CLIENTS, () => owner.http.graphql(CREATE_ENVIRONMENT, { input: { accountId: owner.account.id, name: "same" } }));
    const outcomes = results.map(graphQLOutcomeOf);
    expectOnly(outcomes, ["409 ENVIRONMENT_CONFLICT", "409 CONCURRENT_UPDATE"]);
    expect(successes(outcomes)).toBe(1);
    expect(await db().environment.count({ where: { ownerAccountId: owner.account.id } })).toBe(1);
  });

  it("createGrant of distinct releases: a FREE environment (limit 20) ends with 20 active grants; the others get 422", async () => {
    const freeOwner = await world.member({ plan: "free" });
    const environment = await world.environmentOf(freeOwner);
    const releases = await publishMany(world, freeOwner, environment.id, CLIENTS);
    const results = await race(CLIENTS, (index) =>
      freeOwner.http.post(grantsPath(environment.id), { release: { type: "ById", releaseId: releases[index]!.id } }),
    );
    const outcomes = results.map(outcomeOf);
    expectOnly(outcomes, ["422 LIMIT_EXCEEDED", "409 CONCURRENT_UPDATE"]);
    expect(successes(outcomes)).toBe(20);
    expect(await db().grant.count({ where: { environmentId: environment.id, lifecycle: "active" } })).toBe(20);
  });

  it("createGrant of distinct releases within the limit: every request succeeds and every grant is stored once", async () => {
    const environment = await world.environmentOf(world.owner);
    const releases = await publishMany(world, world.owner, environment.id, CLIENTS);
    const results = await race(CLIENTS, (index) =>
      world.owner.http.post(grantsPath(environment.id), { release: { type: "ById", releaseId: releases[index]!.id } }),
    );
    const outcomes = results.map(outcomeOf);
    expect(tally(outcomes)).toEqual({ "200": CLIENTS });
    const stored = await db().grant.findMany({ where: { environmentId: environment.id, lifecycle: "active" }, select: { id: true } });
    expect(new Set(stored.map((grant) => grant.id))).toEqual(new Set(results.map((result) => result.body.grant.id)));
  });

  it("createGrant of one release: one grant row; every request answers it (create is idempotent)", async () => {
    const environment = await world.environmentOf(world.owner);
    const [release] = await publishMany(world, world.owner, environment.id, 1);
    const results = await race(CLIENTS, () => world.owner.http.post(grantsPath(environment.id), { release: { type: "ById", releaseId: release!.id } }));
    const outcomes = results.map(outcomeOf);
    expectOnly(outcomes, ["409 CONCURRENT_UPDATE"]);
    expect(await db().grant.count({ where: { environmentId: environment.id } })).toBe(1);
  });

  it("deleteGrant and restoreGrant of one grant: one of each wins; the others get 404 or 409", async () => {
    const environment = await world.environmentOf(world.owner);
    const [release] = await publishMany(world, world.owner, environment.id, 1);
    const created = await world.owner.http.post(grantsPath(environment.id), { release: { type: "ById", releaseId: release!.id } });
    const deletions = (await race(CLIENTS, () => world.owner.http.delete(grantPath(created.body.grant.id)))).map(outcomeOf);
    expectOnly(deletions, ["404 ENVIRONMENT_TOOL_MIDDLEWARE_GRANT_NOT_FOUND", "409 CONCURRENT_UPDATE"]);
    expect(successes(deletions)).toBe(1);
    const restores = (await race(CLIENTS, () => world.owner.http.post(`${grantPath(created.body.grant.id)}/restore`))).map(outcomeOf);
    expectOnly(restores, ["409 ENVIRONMENT_TOOL_MIDDLEWARE_GRANT_CONFLICT", "409 CONCURRENT_UPDATE"]);
    expect(successes(restores)).toBe(1);
    expect(await db().grant.findUniqueOrThrow({ where: { id: created.body.grant.id } })).toMatchObject({ lifecycle: "active" });
  });

  it("restoreGrant of distinct grants in a FREE environment at 19/20: one restore wins; the others get 422", async () => {
    const owner = await world.member({ plan: "free" });
    const environment = await world.environmentOf(owner);
    const releases = await publishMany(world, owner, environment.id, 19 + 10);
    const grantOf = async (releaseId: string) =>
      (await owner.http.post(grantsPath(environment.id), { release: { type: "ById", releaseId } })).body.grant.id as string;
    for (const release of releases.slice(0, 19)) await grantOf(release.id);
    const deleted: string[] = [];
    for (const release of releases.slice(19)) {
      const grantId = await grantOf(release.id);
      expect((await owner.http.delete(grantPath(grantId))).status).toBe(204);
      deleted.push(grantId);
    }
    const outcomes = (await race(deleted.length, (index) => owner.http.post(`${grantPath(deleted[index]!)}/restore`))).map(outcomeOf);
    expectOnly(outcomes, ["422 LIMIT_EXCEEDED", "409 CONCURRENT_UPDATE"]);
    expect(successes(outcomes)).toBe(1);
    expect(await db().grant.count({ where: { environmentId: environment.id, lifecycle: "active" } })).toBe(20);
  });

  it("apply publishing distinct releases at 45/50 published (FREE): 5 applies win; the others get 422", async () => {
    const owner = await world.member({ plan: "free" });
    const environment = await world.environmentOf(owner);
    await publishMany(world, owner, environment.id, 45);
    const results = await race(CLIENTS, (index) => {
      const name = uniqueName(`apply-${index}`);
      return owner.http.post(applyPath(environment.id), {
        grantReconciliation: { creations: [], deletions: [] },
        publications: [
          {
            name,
            definition: definitionFor(name, "1.0.0"),
            source: { kind: "component", componentId: randomUUID(), componentRevision: 1, componentName: name },
          },
        ],
      });
    });
    const outcomes = results.map(outcomeOf);
    expectOnly(outcomes, ["422 LIMIT_EXCEEDED", "409 CONCURRENT_UPDATE"]);
    expect(successes(outcomes)).toBe(5);
    expect(await db().toolRelease.count({ where: { ownerAccountId: owner.account.id, lifecycle: "published" } })).toBe(50);
  });

  it("apply creating grants of distinct releases in a FREE environment: the environment ends with 20 active grants", async () => {
    const owner = await world.member({ plan: "free" });
    const pipeline = await world.environmentOf(owner);
    const environment = await world.environmentOf(owner);
    const releases = await publishMany(world, owner, pipeline.id, CLIENTS);
    const results = await race(CLIENTS, (index) =>
      owner.http.post(applyPath(environment.id), {
        grantReconciliation: { creations: [{ release: { type: "ById", releaseId: releases[index]!.id } }], deletions: [] },
        publications: [],
      }),
    );
    const outcomes = results.map(outcomeOf);
    expectOnly(outcomes, ["422 LIMIT_EXCEEDED", "409 CONCURRENT_UPDATE"]);
    expect(successes(outcomes)).toBe(20);
    expect(await db().grant.count({ where: { environmentId: environment.id, lifecycle: "active" } })).toBe(20);
  });

  it("restoreToolRelease of distinct releases at 49/50 published (FREE): one restore wins; the others get 422", async () => {
    const owner = await world.member({ plan: "free" });
    const environment = await world.environmentOf(owner);
    const depublished = await publishMany(world, owner, environment.id, CLIENTS);
    await depublishAll(world, owner, depublished);
    await publishMany(world, owner, environment.id, 49);
    const outcomes = (await race(CLIENTS, (index) => owner.http.post(`${releasePath(depublished[index]!.id)}/restore`))).map(outcomeOf);
    expectOnly(outcomes, ["422 LIMIT_EXCEEDED", "409 CONCURRENT_UPDATE"]);
    expect(successes(outcomes)).toBe(1);
    expect(await db().toolRelease.count({ where: { ownerAccountId: owner.account.id, lifecycle: "published" } })).toBe(50);
  });

  it("depublishToolRelease of one release: one wins; the others get 409 TOOL_RELEASE_LIFECYCLE_CONFLICT", async () => {
    const environment = await world.environmentOf(world.owner);
    const [release] = await publishMany(world, world.owner, environment.id, 1);
    const outcomes = (await race(CLIENTS, () => world.owner.http.delete(releasePath(release!.id)))).map(outcomeOf);
    expectOnly(outcomes, ["409 TOOL_RELEASE_LIFECYCLE_CONFLICT", "409 CONCURRENT_UPDATE"]);
    expect(successes(outcomes)).toBe(1);
  });

  it("shareEnvironment of one environment with one account: every request succeeds and one share row remains", async () => {
    const environment = await world.environmentOf(world.owner);
    const results = await race(CLIENTS, (index) =>
      world.owner.http.graphql(SHARE_ENVIRONMENT, {
        input: { environmentId: environment.id, accountId: world.stranger.account.id, role: index % 2 ? "VIEWER" : "DEPLOYER" },
      }),
    );
    expect(tally(results.map(graphQLOutcomeOf))).toEqual({ "200": CLIENTS });
    expect(await db().environmentShare.count({ where: { environmentId: environment.id } })).toBe(1);
  });

  it("createAccount with one e-mail: one account; the others get 409 ACCOUNT_CONFLICT", async () => {
    const email = `${uniqueName("same")}@example.test`;
    const outcomes = (await race(CLIENTS, (index) => world.admin.graphql(CREATE_ACCOUNT, { input: { name: `racer ${index}`, email } }))).map(graphQLOutcomeOf);
    expectOnly(outcomes, ["409 ACCOUNT_CONFLICT", "409 CONCURRENT_UPDATE"]);
    expect(successes(outcomes)).toBe(1);
    expect(await db().account.count({ where: { email } })).toBe(1);
  });

  it("createApiToken and revokeApiToken: every request succeeds; revocation is idempotent", async () => {
    const created = await race(CLIENTS, (index) =>
      world.stranger.http.graphql(CREATE_TOKEN, { input: { accountId: world.stranger.account.id, name: `token-${index}` } }),
    );
    expect(tally(created.map(graphQLOutcomeOf))).toEqual({ "200": CLIENTS });
    const tokenId = created[0]!.body.data.createApiToken.token.uuid as string;
    const revoked = await race(CLIENTS, () => world.stranger.http.graphql(REVOKE_TOKEN, { id: tokenId }));
    expect(tally(revoked.map(graphQLOutcomeOf))).toEqual({ "200": CLIENTS });
    expect(new Set(revoked.map((result) => result.body.data.revokeApiToken.revokedAt)).size).toBe(1);
  });
});
