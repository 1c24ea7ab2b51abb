// Relay object identification: `node(id:)` and `nodes(ids:)` answer exactly what each type's own
// query answers (account, environment, toolRelease, grant, and an API token to its account);
// anything else is null, never a leak.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Environment, Grant, ToolRelease } from "../../src/db/generated/sqlite/client.js";
import { issueToken, revokeToken } from "../../src/domain/accounts.js";
import { deleteGrant } from "../../src/domain/grants.js";
import { depublishRelease } from "../../src/domain/releases.js";
import type { Client } from "../helpers/http.js";
import { describeEachDatabase, startTestService, type TestService } from "../helpers/service.js";
import { createWorld, type World } from "../helpers/world.js";
import { dataOf, expectGraphQLError, globalId, grant, uniqueName } from "./support.js";

const NODE = /* GraphQL */ `
  query ($id: ID!) {
    node(id: $id) {
      __typename
      id
      ... on Account { uuid email }
      ... on Environment { uuid name }
      ... on ToolRelease { uuid name }
      ... on Grant { uuid releaseId }
      ... on ApiToken { uuid name accountId revokedAt }
    }
  }
`;

const NODES = /* GraphQL */ `
  query ($ids: [ID!]!) {
    nodes(ids: $ids) {
      __typename
      id
      ... on Account { uuid }
      ... on Environment { uuid }
      ... on ToolRelease { uuid }
      ... on Grant { uuid }
      ... on ApiToken { uuid }
    }
  }
`;

const UNKNOWN_ID = "0190f5c2-0000-7000-8000-000000000000";

describeEachDatabase("Relay node lookups", (provider) => {
  let service: TestService;
  let world: World;
  let release: ToolRelease;
  let granted: Grant;
  let strangersEnvironment: Environment;

  beforeAll(async () => {
    service = await startTestService(provider);
    world = await createWorld(service);
    release = await world.publish(world.owner, uniqueName(), "1.0.0");
    granted = await grant(world, world.environment, release);
    strangersEnvironment = await world.environmentOf(world.stranger);
  });
  afterAll(() => service?.stopAndDrop());

  const lookUp = async (asker: Client, typename: string, id: string) => dataOf(await asker.graphql(NODE, { id: globalId(typename, id) })).node;

  describe("node(id:)", () => {
    it("finds your own account; another account is null; administrators find any", async () => {
      const own = await lookUp(world.owner.http, "Account", world.owner.account.id);
      expect(own).toEqual({
        __typename: "Account",
        id: globalId("Account", world.owner.account.id),
        uuid: world.owner.account.id,
        email: world.owner.account.email,
      });
      expect(await lookUp(world.stranger.http, "Account", world.owner.account.id)).toBeNull();
      expect(await lookUp(world.admin, "Account", world.owner.account.id)).toMatchObject({ uuid: world.owner.account.id });
    });

    it("finds an environment for its owner, deployers and viewers; a stranger gets null; administrators find any", async () => {
      for (const member of [world.owner, world.deployer, world.viewer]) {
        expect(await lookUp(member.http, "Environment", world.environment.id)).toEqual({
          __typename: "Environment",
          id: globalId("Environment", world.environment.id),
          uuid: world.environment.id,
          name: world.environment.name,
        });
      }
      expect(await lookUp(world.stranger.http, "Environment", world.environment.id)).toBeNull();
      expect(await lookUp(world.owner.http, "Environment", strangersEnvironment.id)).toBeNull();
      expect(await lookUp(world.admin, "Environment", strangersEnvironment.id)).toMatchObject({ uuid: strangersEnvironment.id });
    });

    it("finds a tool release for its owner only, like toolRelease(id); administrators find any", async () => {
      expect(await lookUp(world.owner.http, "ToolRelease", release.id)).toMatchObject({ __typename: "ToolRelease", uuid: release.id, name: release.name });
      expect(await lookUp(world.viewer.http, "ToolRelease", release.id)).toBeNull();
      expect(await lookUp(world.stranger.http, "ToolRelease", release.id)).toBeNull();
      expect(await lookUp(world.admin, "ToolRelease", release.id)).toMatchObject({ uuid: release.id });
    });

    it("finds an active grant for members of its environment; a stranger gets null; administrators find any", async () => {
      for (const member of [world.owner, world.deployer, world.viewer]) {
        expect(await lookUp(member.http, "Grant", granted.id)).toEqual({
          __typename: "Grant",
          id: globalId("Grant", granted.id),
          uuid: granted.id,
          releaseId: release.id,
        });
      }
      expect(await lookUp(world.stranger.http, "Grant", granted.id)).toBeNull();
      expect(await lookUp(world.admin, "Grant", granted.id)).toMatchObject({ uuid: granted.id });
    });

    it("is null for a deleted grant and for a grant of a de-published release, like grant(id)", async () => {
      const deleted = await grant(world, world.environment, await world.publish(world.owner, uniqueName(), "1.0.0"));
      await deleteGrant(service.db, world.owner.account, deleted.id);
      expect(await lookUp(world.owner.http, "Grant", deleted.id)).toBeNull();
      const hiddenRelease = await world.publish(world.owner, uniqueName(), "1.0.0");
      const hidden = await grant(world, world.environment, hiddenRelease);
      await depublishRelease(service.db, world.owner.account, hiddenRelease.id);
      expect(await lookUp(world.owner.http, "Grant", hidden.id)).toBeNull();
    });

    it("finds an API token for its own account, revoked or not; another account's is null; administrators find any", async () => {
      const { token } = await issueToken(service.db, "system", { accountId: world.deployer.account.id, name: "ci" });
      expect(await lookUp(world.deployer.http, "ApiToken", token.id)).toEqual({
        __typename: "ApiToken",
        id: globalId("ApiToken", token.id),
        uuid: token.id,
        name: "ci",
        accountId: world.deployer.account.id,
        revokedAt: null,
      });
      for (const other of [world.owner, world.viewer, world.stranger]) expect(await lookUp(other.http, "ApiToken", token.id)).toBeNull();
      expect(await lookUp(world.admin, "ApiToken", token.id)).toMatchObject({ uuid: token.id });
      const revoked = await revokeToken(service.db, "system", token.id);
      expect(await lookUp(world.deployer.http, "ApiToken", token.id)).toMatchObject({ uuid: token.id, revokedAt: revoked.revokedAt!.toISOString() });
    });

    it("takes the id createApiToken returned, which is the token's global id", async () => {
      const created = dataOf(
        await world.viewer.http.graphql(`mutation ($input: CreateApiTokenInput!) { createApiToken(input: $input) { secret token { id uuid } } }`, {
          input: { accountId: world.viewer.account.id, name: "apollo" },
        }),
      ).createApiToken;
      expect(created.token.id).toBe(globalId("ApiToken", created.token.uuid));
      expect(await lookUp(world.viewer.http, "ApiToken", created.token.uuid)).toMatchObject({ uuid: created.token.uuid, name: "apollo" });
      // The secret is shown by createApiToken only: a token has no field that holds it.
      const secret = await world.viewer.http.graphql(`query ($id: ID!) { node(id: $id) { ... on ApiToken { secret } } }`, { id: created.token.id });
      expectGraphQLError(secret, "REQUEST_INVALID", 400);
      expect(secret.body.errors?.[0].message).toBe('Cannot query field "secret" on type "ApiToken".');
    });

    it("is null for an unknown id of every type", async () => {
      for (const typename of ["Account", "Environment", "ToolRelease", "Grant", "ApiToken"]) {
        expect(await lookUp(world.admin, typename, UNKNOWN_ID)).toBeNull();
      }
    });

    it("is null for a type that is not a node", async () => {
      expect(await lookUp(world.admin, "Query", "x")).toBeNull();
      expect(await lookUp(world.admin, "IssuedApiToken", UNKNOWN_ID)).toBeNull();
    });

    it("answers a global id that is not one with REQUEST_INVALID (400) at its own field; data stays", async () => {
      const result = await world.owner.http.graphql(NODE, { id: "not a global id" });
      expectGraphQLError(result, "REQUEST_INVALID", 400);
      expect(result.body.data).toEqual({ node: null });
      expect(result.body.errors?.[0].path).toEqual(["node"]);
    });

    it("answers without valid credentials with AUTH_UNAUTHORIZED (401)", async () => {
      expectGraphQLError(await world.anonymous.graphql(NODE, { id: globalId("Environment", world.environment.id) }), "AUTH_UNAUTHORIZED", 401);
    });

    it("takes the id a query returned", async () => {
      const { environment } = dataOf(await world.owner.http.graphql(`query ($id: UUID!) { environment(id: $id) { id } }`, { id: world.environment.id }));
      expect(dataOf(await world.owner.http.graphql(NODE, { id: environment.id })).node).toMatchObject({ uuid: world.environment.id });
    });
  });

  describe("nodes(ids:)", () => {
    it("answers every id in order, null in place of each one you may not see", async () => {
      const ids = [
        globalId("Environment", world.environment.id),
        globalId("Environment", strangersEnvironment.id),
        globalId("Grant", granted.id),
        globalId("ToolRelease", release.id),
        globalId("Account", world.viewer.account.id),
        globalId("Account", world.owner.account.id),
        globalId("Grant", UNKNOWN_ID),
      ];
      const { nodes } = dataOf(await world.viewer.http.graphql(NODES, { ids }));
      expect(nodes.map((node: { uuid?: string } | null) => node?.uuid ?? null)).toEqual([
        world.environment.id,
        null,
        granted.id,
        null,
        world.viewer.account.id,
        null,
        null,
      ]);
    });

    it("answers API tokens among other ids: yours, null for another account's", async () => {
      const [own, others] = await Promise.all([
        issueToken(service.db, "system", { accountId: world.viewer.account.id, name: "own" }),
        issueToken(service.db, "system", { accountId: world.owner.account.id, name: "others" }),
      ]);
      const ids = [globalId("ApiToken", others.token.id), globalId("Environment", world.environment.id), globalId("ApiToken", own.token.id)];
      const { nodes } = dataOf(await world.viewer.http.graphql(NODES, { ids }));
      expect(nodes.map((node: { __typename: string; uuid: string } | null) => node && [node.__typename, node.uuid])).toEqual([
        null,
        ["Environment", world.environment.id],
        ["ApiToken", own.token.id],
      ]);
    });

    it("answers every id for administrators", async () => {
      const ids = [globalId("Environment", strangersEnvironment.id), globalId("ToolRelease", release.id), globalId("Account", world.owner.account.id)];
      const { nodes } = dataOf(await world.admin.graphql(NODES, { ids }));
      expect(nodes.map((node: { __typename: string; uuid: string }) => [node.__typename, node.uuid])).toEqual([
        ["Environment", strangersEnvironment.id],
        ["ToolRelease", release.id],
        ["Account", world.owner.account.id],
      ]);
    });

    it("answers the same id twice", async () => {
      const id = globalId("Grant", granted.id);
      const { nodes } = dataOf(await world.owner.http.graphql(NODES, { ids: [id, id] }));
      expect(nodes.map((node: { uuid: string }) => node.uuid)).toEqual([granted.id, granted.id]);
    });
  });
});
