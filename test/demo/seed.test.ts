// The demo data set: loaded once into an empty registry, through the same apply path users take.
import { afterAll, beforeAll, expect, it } from "vitest";
import { issueDemoTokens, seedDemo } from "../../src/demo/seed.js";
import { describeEachDatabase, startTestService, type TestService } from "../helpers/service.js";
import { client } from "../helpers/http.js";

describeEachDatabase("demo seed", (provider) => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService(provider);
  });
  afterAll(() => service?.stopAndDrop());

  it("loads two accounts, two environments (one shared as deployer), four releases and four grants", async () => {
    const seed = await seedDemo(service.db);
    expect(seed.seeded).toBe(true);
    const db = service.db;
    expect(await db.account.count({ where: { admin: false } })).toBe(2);
    expect(await db.environment.count()).toBe(2);
    expect(await db.environmentShare.findMany({ select: { role: true }, orderBy: { role: "asc" } })).toEqual([{ role: "deployer" }, { role: "viewer" }]);
    expect(await db.toolRelease.count({ where: { lifecycle: "published" } })).toBe(4);
    expect(await db.grant.count({ where: { lifecycle: "active" } })).toBe(4);
  });

  it("gives working tokens: the deployer lists the shared production environment's grants over REST", async () => {
    const tokens = await issueDemoTokens(service.db);
    const production = await service.db.environment.findFirstOrThrow({ where: { name: "production" } });
    const result = await client(service.url, tokens!.deployer).get(`/v1/envs/${production.id}/tool-middlewares`);
    expect(result.status).toBe(200);
    expect(result.body.values.map((view: { release: { name: string; version: string } }) => `${view.release.name}@${view.release.version}`)).toEqual([
      "git-lite@2.43.0",
      "json-format@1.4.2",
    ]);
  });

  it("never seeds twice, and issues no token when it does not seed", async () => {
    const tokens = await service.db.apiToken.count();
    expect(await seedDemo(service.db)).toEqual({ seeded: false });
    expect(await service.db.account.count({ where: { admin: false } })).toBe(2);
    expect(await service.db.apiToken.count()).toBe(tokens);
  });
});
