// Two toolgate processes on one database, clients spread over both: the plan limits hold across
// replicas, because the database (locks, constraints, serializable transactions) enforces them.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, expect, it } from "vitest";
import { definitionFor } from "../fixtures/definitions/index.js";
import { serveToolgate, type ServingToolgate } from "../helpers/child-process.js";
import { client, type Client } from "../helpers/http.js";
import { describeEachDatabase, startTestService, type TestService } from "../helpers/service.js";
import { createWorld, type Member, type World } from "../helpers/world.js";
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
  uniqueName,
} from "./support.js";

const CREATE_ENVIRONMENT = /* GraphQL */ `mutation ($input: CreateEnvironmentInput!) { createEnvironment(input: $input) { id } }`;

describeEachDatabase("two processes on one database", (provider) => {
  let service: TestService;
  let replica: ServingToolgate;
  let world: World;

  beforeAll(async () => {
    service = await startTestService(provider, { postgres: QUEUE_TOLERANT_POSTGRES });
    replica = await serveToolgate({
      TOOLGATE_DATABASE_URL: service.databaseUrl,
      TOOLGATE_ADMIN_TOKEN: service.adminToken,
      TOOLGATE_DB_CONNECT_TIMEOUT_MS: String(QUEUE_TOLERANT_POSTGRES.connectTimeoutMs),
    });
    world = await createWorld(service);
  }, 120_000);
  afterAll(async () => {
    await replica?.ensureDead();
    await service?.stopAndDrop();
  });

  /** Even clients talk to this process, odd ones to the replica. */
  const spread = (member: Member, index: number): Client => (index % 2 === 0 ? member.http : client(replica.url, member.token));

  it("createEnvironment: a FREE account (limit 3) ends with 3 environments", async () => {
    const owner = await world.member({ plan: "free" });
    const outcomes = (
      await race(CLIENTS, (index) => spread(owner, index).graphql(CREATE_ENVIRONMENT, { input: { accountId: owner.account.id, name: `env-${index}` } }))
    ).map(graphQLOutcomeOf);
    expectOnly(outcomes, ["422 LIMIT_EXCEEDED", "409 CONCURRENT_UPDATE"]);
    expect(successes(outcomes)).toBe(3);
    expect(await service.db.environment.count({ where: { ownerAccountId: owner.account.id } })).toBe(3);
  });

  it("createGrant: a FREE environment (limit 20) ends with 20 active grants", async () => {
    const owner = await world.member({ plan: "free" });
    const environment = await world.environmentOf(owner);
    const releases = await publishMany(world, owner, environment.id, CLIENTS);
    const outcomes = (
      await race(CLIENTS, (index) =>
        spread(owner, index).post(`/v1/envs/${environment.id}/tool-middlewares`, { release: { type: "ById", releaseId: releases[index]!.id } }),
      )
    ).map(outcomeOf);
    expectOnly(outcomes, ["422 LIMIT_EXCEEDED", "409 CONCURRENT_UPDATE"]);
    expect(successes(outcomes)).toBe(20);
    expect(await service.db.grant.count({ where: { environmentId: environment.id, lifecycle: "active" } })).toBe(20);
  });

  it("apply: a FREE account at 45/50 published ends with 50", async () => {
    const owner = await world.member({ plan: "free" });
    const environment = await world.environmentOf(owner);
    await publishMany(world, owner, environment.id, 45);
    const outcomes = (
      await race(CLIENTS, (index) => {
        const name = uniqueName(`replica-${index}`);
        return spread(owner, index).post(`/v1/envs/${environment.id}/tool-middlewares/apply`, {
          grantReconciliation: { creations: [], deletions: [] },
          publications: [
            {
              name,
              definition: definitionFor(name, "1.0.0"),
              source: { kind: "component", componentId: randomUUID(), componentRevision: 1, componentName: name },
            },
          ],
        });
      })
    ).map(outcomeOf);
    expectOnly(outcomes, ["422 LIMIT_EXCEEDED", "409 CONCURRENT_UPDATE"]);
    expect(successes(outcomes)).toBe(5);
    expect(await service.db.toolRelease.count({ where: { ownerAccountId: owner.account.id, lifecycle: "published" } })).toBe(50);
  });

  it("restoreToolRelease: a FREE account at 49/50 published ends with 50", async () => {
    const owner = await world.member({ plan: "free" });
    const environment = await world.environmentOf(owner);
    const depublished = await publishMany(world, owner, environment.id, CLIENTS);
    await depublishAll(world, owner, depublished);
    await publishMany(world, owner, environment.id, 49);
    const outcomes = (await race(CLIENTS, (index) => spread(owner, index).post(`/v1/tool-releases/${depublished[index]!.id}/restore`))).map(outcomeOf);
    expectOnly(outcomes, ["422 LIMIT_EXCEEDED", "409 CONCURRENT_UPDATE"]);
    expect(successes(outcomes)).toBe(1);
    expect(await service.db.toolRelease.count({ where: { ownerAccountId: owner.account.id, lifecycle: "published" } })).toBe(50);
  });
});
