// Nested fields do not leak: an account, a release or an environment reached through another
// object shows only what its own query would show the viewer.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Environment, Grant, ToolRelease } from "../../src/db/generated/sqlite/client.js";
import { describeEachDatabase, startTestService, type TestService } from "../helpers/service.js";
import { createWorld, type World } from "../helpers/world.js";
import { dataOf, expectGraphQLError, grant, uniqueName } from "./support.js";

const THROUGH_A_GRANT = /* GraphQL */ `
  query ($environmentId: UUID!) {
    environment(id: $environmentId) {
      grants {
        edges {
          node {
            uuid
            release {
              uuid
              grants { edges { node { uuid environment { uuid } } } }
              owner {
                uuid
                name
                environments { edges { node { uuid } } }
                toolReleases { edges { node { uuid } } }
              }
            }
          }
        }
      }
    }
  }
`;

const THROUGH_THE_OWNER = /* GraphQL */ `
  query ($environmentId: UUID!) {
    environment(id: $environmentId) {
      owner { uuid environments { edges { node { uuid } } } toolReleases { edges { node { uuid } } } }
    }
  }
`;

describeEachDatabase("nested authorization", (provider) => {
  let service: TestService;
  let world: World;
  /** The stranger's release, granted in world.environment (which the stranger cannot see) and in the stranger's own environment. */
  let strangersRelease: ToolRelease;
  let strangersEnvironment: Environment;
  let grantInWorld: Grant;
  let grantInStrangers: Grant;

  beforeAll(async () => {
    service = await startTestService(provider);
    world = await createWorld(service);
    strangersRelease = await world.publish(world.stranger, uniqueName("strangers"), "1.0.0");
    strangersEnvironment = await world.environmentOf(world.stranger);
    grantInStrangers = await grant(world, strangersEnvironment, strangersRelease, world.stranger);
    grantInWorld = await grant(world, world.environment, strangersRelease);
    await world.publish(world.owner, uniqueName("owners"), "1.0.0");
  });
  afterAll(() => service?.stopAndDrop());

  const grantedRelease = (data: any) => data.environment.grants.edges.map((edge: any) => edge.node).find((node: any) => node.uuid === grantInWorld.id).release;

  describe("Account reached as a release's owner", () => {
    it("shows the owner's id and name, with empty environments and toolReleases connections", async () => {
      for (const member of [world.owner, world.deployer, world.viewer]) {
        const release = grantedRelease(dataOf(await member.http.graphql(THROUGH_A_GRANT, { environmentId: world.environment.id })));
        expect(release.owner).toEqual({
          uuid: world.stranger.account.id,
          name: world.stranger.account.name,
          environments: { edges: [] },
          toolReleases: { edges: [] },
        });
      }
    });

    it("shows others the owner's id, name and e-mail only: plan, admin flag and creation time are null", async () => {
      const query = `query ($id: UUID!) { grant(id: $id) { release { owner { uuid name email plan admin createdAt } } } }`;
      for (const member of [world.owner, world.deployer, world.viewer]) {
        const { grant: seen } = dataOf(await member.http.graphql(query, { id: grantInWorld.id }));
        expect(seen.release.owner).toEqual({
          uuid: world.stranger.account.id,
          name: world.stranger.account.name,
          email: world.stranger.account.email,
          plan: null,
          admin: null,
          createdAt: null,
        });
      }
      for (const viewer of [world.stranger.http, world.admin]) {
        const { grant: seen } = dataOf(await viewer.graphql(query, { id: grantInStrangers.id }));
        expect(seen.release.owner).toMatchObject({
          uuid: world.stranger.account.id,
          plan: expect.stringMatching(/^[A-Z]+$/),
          admin: false,
          createdAt: expect.any(String),
        });
      }
    });

    it("shows a stranger who grants a release by its coordinates no more of its owner", async () => {
      const ownersRelease = await world.publish(world.owner, uniqueName("by-coordinates"), "1.0.0");
      const created = dataOf(
        await world.stranger.http.graphql(
          `mutation ($environmentId: UUID!, $account: String!, $name: String!) {
            createGrant(environmentId: $environmentId, input: { release: { type: BY_COORDINATES, account: $account, name: $name, version: "1.0.0" } }) {
              release { owner { uuid email plan admin createdAt } }
            }
          }`,
          { environmentId: strangersEnvironment.id, account: world.owner.account.email, name: ownersRelease.name },
        ),
      );
      expect(created.createGrant.release.owner).toEqual({
        uuid: world.owner.account.id,
        email: world.owner.account.email,
        plan: null,
        admin: null,
        createdAt: null,
      });
    });

    it("shows administrators the owner's environments and releases", async () => {
      const release = grantedRelease(dataOf(await world.admin.graphql(THROUGH_A_GRANT, { environmentId: world.environment.id })));
      // world.publish also gave the stranger an environment to publish from.
      expect(release.owner.environments.edges.map((edge: any) => edge.node.uuid)).toContain(strangersEnvironment.id);
      expect(release.owner.toolReleases.edges.map((edge: any) => edge.node.uuid)).toEqual([strangersRelease.id]);
    });

    it("answers toolReleaseList of another account with ACCOUNT_NOT_FOUND (404)", async () => {
      const result = await world.viewer.http.graphql(`query ($id: UUID!) { grant(id: $id) { release { owner { toolReleaseList { uuid } } } } }`, {
        id: grantInWorld.id,
      });
      expectGraphQLError(result, "ACCOUNT_NOT_FOUND", 404);
      expect(result.body.data).toEqual({ grant: null });
    });
  });

  describe("Account reached as an environment's owner", () => {
    it("shows deployers and viewers empty environments and toolReleases connections", async () => {
      for (const member of [world.deployer, world.viewer]) {
        const { environment } = dataOf(await member.http.graphql(THROUGH_THE_OWNER, { environmentId: world.environment.id }));
        expect(environment.owner).toEqual({ uuid: world.owner.account.id, environments: { edges: [] }, toolReleases: { edges: [] } });
      }
    });

    it("shows the owner their own lists", async () => {
      const { environment } = dataOf(await world.owner.http.graphql(THROUGH_THE_OWNER, { environmentId: world.environment.id }));
      expect(environment.owner.environments.edges.map((edge: any) => edge.node.uuid)).toContain(world.environment.id);
      expect(environment.owner.toolReleases.edges.length).toBeGreaterThan(0);
    });
  });

  describe("ToolRelease reached through a grant", () => {
    it("has an empty grants connection for everyone but the release's owner", async () => {
      for (const member of [world.owner, world.deployer, world.viewer]) {
        const release = grantedRelease(dataOf(await member.http.graphql(THROUGH_A_GRANT, { environmentId: world.environment.id })));
        expect(release.grants).toEqual({ edges: [] });
      }
    });
  });

  describe("ToolRelease.grants for the release's owner", () => {
    it("never reaches an environment the owner cannot see", async () => {
      const { me } = dataOf(
        await world.stranger.http.graphql(`{ me { toolReleases { edges { node { grants { edges { node { uuid environment { uuid name } } } } } } } } }`),
      );
      const grants = me.toolReleases.edges.flatMap((edge: any) => edge.node.grants.edges.map((grantEdge: any) => grantEdge.node));
      expect(grants).toEqual([{ uuid: grantInStrangers.id, environment: { uuid: strangersEnvironment.id, name: strangersEnvironment.name } }]);
    });
  });

  describe("Grant.environment", () => {
    it("is reachable only from grants in environments you can see", async () => {
      const asStranger = await world.stranger.http.graphql(`query ($id: UUID!) { grant(id: $id) { environment { uuid name } } }`, { id: grantInWorld.id });
      expectGraphQLError(asStranger, "ENVIRONMENT_TOOL_MIDDLEWARE_GRANT_NOT_FOUND", 404);
      const asViewer = await world.viewer.http.graphql(`query ($id: UUID!) { grant(id: $id) { environment { uuid name } } }`, { id: grantInWorld.id });
      expect(dataOf(asViewer).grant.environment).toEqual({ uuid: world.environment.id, name: world.environment.name });
    });
  });

  describe("EnvironmentShare.environment", () => {
    const SHARE = /* GraphQL */ `
      mutation ($input: ShareEnvironmentInput!) { shareEnvironment(input: $input) { role environment { uuid name } } }
    `;

    it("is returned to the environment's owner only: deployers get AUTH_FORBIDDEN (403), strangers ENVIRONMENT_NOT_FOUND (404)", async () => {
      const input = { environmentId: world.environment.id, accountId: world.stranger.account.id, role: "VIEWER" };
      const asDeployer = await world.deployer.http.graphql(SHARE, { input });
      expectGraphQLError(asDeployer, "AUTH_FORBIDDEN", 403);
      expect(asDeployer.body.data).toBeNull();
      const asStranger = await world.stranger.http.graphql(SHARE, { input: { ...input, accountId: world.viewer.account.id } });
      expectGraphQLError(asStranger, "ENVIRONMENT_NOT_FOUND", 404);
      expect(asStranger.body.data).toBeNull();
    });
  });
});
