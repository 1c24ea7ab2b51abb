// shareEnvironment takes any account's UUID. Its answer must not turn that UUID into the account's
// e-mail, name, plan or admin flag: the owner sees the id they sent; administrators see the account.
// (No /v1 route shares environments; GraphQL is the only surface.)
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWorld, type World } from "../helpers/world.js";
import { describeEachDatabase, startTestService, type TestService } from "../helpers/service.js";

const SHARE = /* GraphQL */ `
  mutation Share($environmentId: UUID!, $accountId: UUID!) {
    shareEnvironment(input: { environmentId: $environmentId, accountId: $accountId, role: VIEWER }) {
      environmentId
      accountId
      role
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
        data: { shareEnvironment: { environmentId: environment.id, accountId: target.account.id, role: "VIEWER", account: null } },
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

  it("an administrator sharing sees the whole account", async () => {
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
  });

  it("a deployer may not share, and learns nothing either (403)", async () => {
    const target = await world.member();
    const result = await world.deployer.http.graphql(SHARE, { environmentId: world.environment.id, accountId: target.account.id });
    expect(result.body.errors?.[0].extensions.code).toBe("AUTH_FORBIDDEN");
    expect(result.text).not.toContain(target.account.email);
  });
});
