// shareEnvironment takes any account's UUID. Its answer must not turn that UUID into the account's
// e-mail, name, plan or admin flag, nor say whether it names an account at all: the owner sees the
// id they sent; administrators see the account. An owner's share is an offer that gives nothing
// until the account accepts it. (No /v1 route shares environments; GraphQL is the only surface.)
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWorld, type World } from "../helpers/world.js";
import { describeEachDatabase, startTestService, type TestService } from "../helpers/service.js";

const SHARE = /* GraphQL */ `
  mutation Share($environmentId: UUID!, $accountId: UUID!) {
    shareEnvironment(input: { environmentId: $environmentId, accountId: $accountId, role: VIEWER }) {
      environmentId
      accountId
      role
      acceptedAt
      account { uuid name email plan admin }
    }
  }
`;

describeEachDatabase("shareEnvironment answer", (provider) => {
  let service: TestService;
  let world: World;
  beforeAll(async () => {
    service = await startTestService(provider);
    world = await createWorld(service);
  });
  afterAll(() => service?.stopAndDrop());

  describe("an owner sharing with another account", () => {
    it("sees the account's id, not its e-mail, name, plan or admin flag", async () => {
      const owner = await world.member();
      const environment = await world.environmentOf(owner);
      const target = await world.member({ name: "share-target" });
      const result = await owner.http.graphql(SHARE, { environmentId: environment.id, accountId: target.account.id });
      expect(result.status).toBe(200);
      expect(result.body).toEqual({
        data: { shareEnvironment: { environmentId: environment.id, accountId: target.account.id, role: "VIEWER", acceptedAt: null, account: null } },
      });
      expect(result.text).not.toContain(target.account.email);
    });

    it("learns nothing of an administrator it shares with", async () => {
      const owner = await world.member();
      const environment = await world.environmentOf(owner);
      const admin = await service.db.account.findFirstOrThrow({ where: { admin: true } });
      const result = await owner.http.graphql(SHARE, { environmentId: environment.id, accountId: admin.id });
      expect(result.body.data.shareEnvironment.account).toBeNull();
      expect(result.text).not.toContain(admin.email);
      expect(result.text).not.toMatch(/"admin"/);
    });
  });

  describe("an owner's share is an offer", () => {
    const ENVIRONMENT = `query ($id: UUID!) { environment(id: $id) { uuid name } }`;
    const OFFERS = `{ me { environmentShareOffers { environmentId role acceptedAt environment { uuid } } } environments { nodes { uuid } } }`;
    const ACCEPT = `mutation ($id: UUID!) { acceptEnvironmentShare(environmentId: $id) { role acceptedAt environment { uuid name } } }`;

    it("is answered alike whether or not the id names an account, storing nothing for one that does not", async () => {
      const owner = await world.member();
      const environment = await world.environmentOf(owner);
      const target = await world.member();
      const unknownId = randomUUID();
      const known = await owner.http.graphql(SHARE, { environmentId: environment.id, accountId: target.account.id });
      const unknown = await owner.http.graphql(SHARE, { environmentId: environment.id, accountId: unknownId });
      expect(unknown.status).toBe(known.status);
      expect(unknown.body).toEqual({ data: { shareEnvironment: { ...known.body.data.shareEnvironment, accountId: unknownId } } });
      expect(await service.db.environmentShare.count({ where: { accountId: unknownId } })).toBe(0);
      // Nor do the environment's events (which its members read) tell the two apart: neither is there.
      expect((await owner.http.get(`/v1/envs/${environment.id}/events`)).body.values.map((event: { type: string }) => event.type)).toEqual([
        "environment-created",
      ]);
    });

    it("gives nothing until accepted; the account sees it among its offers; accepting gives the role once", async () => {
      const owner = await world.member();
      const environment = await world.environmentOf(owner);
      const target = await world.member();
      await owner.http.graphql(SHARE, { environmentId: environment.id, accountId: target.account.id });

      expect((await target.http.graphql(ENVIRONMENT, { id: environment.id })).body.errors?.[0].extensions.code).toBe("ENVIRONMENT_NOT_FOUND");
      expect((await target.http.get(`/v1/envs/${environment.id}/tool-middlewares`)).status).toBe(404);
      const before = (await target.http.graphql(OFFERS)).body.data;
      expect(before.me.environmentShareOffers).toEqual([{ environmentId: environment.id, role: "VIEWER", acceptedAt: null, environment: null }]);
      expect(before.environments.nodes).toEqual([]);

      // Racing accepts: all answer the share, one records it.
      const accepts = await Promise.all(Array.from({ length: 12 }, () => target.http.graphql(ACCEPT, { id: environment.id })));
      for (const accepted of accepts)
        expect(accepted.body.data.acceptEnvironmentShare).toEqual({
          role: "VIEWER",
          acceptedAt: expect.any(String),
          environment: { uuid: environment.id, name: environment.name },
        });
      expect(await service.db.changeEvent.count({ where: { environmentId: environment.id, type: "environment-shared" } })).toBe(1);

      expect((await target.http.graphql(ENVIRONMENT, { id: environment.id })).body.data.environment).toEqual({ uuid: environment.id, name: environment.name });
      const after = (await target.http.graphql(OFFERS)).body.data;
      expect(after.me.environmentShareOffers).toEqual([]);
      expect(after.environments.nodes).toEqual([{ uuid: environment.id }]);
    });

    it("cannot be accepted by anyone it was not offered to (ENVIRONMENT_NOT_FOUND)", async () => {
      const owner = await world.member();
      const environment = await world.environmentOf(owner);
      const target = await world.member();
      await owner.http.graphql(SHARE, { environmentId: environment.id, accountId: target.account.id });
      const result = await world.stranger.http.graphql(ACCEPT, { id: environment.id });
      expect(result.body.errors?.[0].extensions.code).toBe("ENVIRONMENT_NOT_FOUND");
      expect((await world.stranger.http.graphql(ENVIRONMENT, { id: environment.id })).body.errors?.[0].extensions.code).toBe("ENVIRONMENT_NOT_FOUND");
    });
  });

  it("an administrator sharing sees the whole account, and the share gives access at once", async () => {
    const owner = await world.member();
    const environment = await world.environmentOf(owner);
    const target = await world.member();
    const result = await world.admin.graphql(SHARE, { environmentId: environment.id, accountId: target.account.id });
    expect(result.body.data.shareEnvironment.account).toEqual({
      uuid: target.account.id,
      name: target.account.name,
      email: target.account.email,
      plan: "TEAM",
      admin: false,
    });
    expect(result.body.data.shareEnvironment.acceptedAt).toEqual(expect.any(String));
    expect((await target.http.graphql(`query ($id: UUID!) { environment(id: $id) { uuid } }`, { id: environment.id })).body.data.environment).toEqual({
      uuid: environment.id,
    });
    const unknown = await world.admin.graphql(SHARE, { environmentId: environment.id, accountId: randomUUID() });
    expect(unknown.body.errors?.[0].extensions.code).toBe("ACCOUNT_NOT_FOUND");
  });

  it("a deployer may not share, and learns nothing either (403)", async () => {
    const target = await world.member();
    const result = await world.deployer.http.graphql(SHARE, { environmentId: world.environment.id, accountId: target.account.id });
    expect(result.body.errors?.[0].extensions.code).toBe("AUTH_FORBIDDEN");
    expect(result.text).not.toContain(target.account.email);
  });
});
