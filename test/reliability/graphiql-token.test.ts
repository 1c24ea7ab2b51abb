// GraphiQL's page is public: it may be pre-filled with a demo account's token in demo mode, and
// never with the admin's, whatever the database holds and wherever the admin token came from.
import { afterEach, expect, it } from "vitest";
import type { Config } from "../../src/config.js";
import { createAccount } from "../../src/domain/accounts.js";
import { seedDemo } from "../../src/demo/seed.js";
import type { ServiceHooks } from "../../src/service.js";
import { client } from "../helpers/http.js";
import { describeEachDatabase, startTestService, type TestService } from "../helpers/service.js";

/** What `serve --demo` runs after bootstrap (src/cli/main.ts), optionally over a database that already has a user. */
const demoSeed = (options: { existingUser: boolean }): ServiceHooks => ({
  afterBootstrap: async (db) => {
    if (options.existingUser) await createAccount(db, "system", { name: "Existing user", email: "existing@example.test" });
    return { demoTokens: (await seedDemo(db)).tokens };
  },
});

/** Every `Bearer tg_…` in the page (the pre-filled headers are JSON inside the page's script). */
const bearerTokensIn = (page: string) => [...new Set([...page.matchAll(/Bearer (tg_[\w-]+)/g)].map((match) => match[1]))];

describeEachDatabase("GraphiQL page token", (provider) => {
  let service: TestService | undefined;
  afterEach(async () => {
    await service?.stopAndDrop();
    service = undefined;
  });

  async function graphiqlPage(config: Partial<Config>, hooks: ServiceHooks = {}): Promise<string> {
    service = await startTestService(provider, config, hooks);
    const page = await client(service.url).request("GET", "/graphql", undefined, { accept: "text/html" });
    expect(page.status).toBe(200);
    expect(page.text).toContain("graphiql");
    return page.text;
  }

  it("demo mode with the demo accounts: pre-filled with alice's token, not the admin's", async () => {
    const page = await graphiqlPage({ demo: true }, demoSeed({ existingUser: false }));
    expect(service!.demoTokens).toBeDefined();
    expect(bearerTokensIn(page)).toEqual([service!.demoTokens!.owner]);
    expect(page.includes(service!.adminToken), "the admin token is in the page").toBe(false);
  });

  it("demo mode over a database without the demo accounts (configured admin token): no token at all", async () => {
    const page = await graphiqlPage({ demo: true }, demoSeed({ existingUser: true }));
    expect(service!.demoTokens).toBeUndefined();
    expect(page.includes(service!.adminToken), "the admin token is in the page").toBe(false);
    expect(bearerTokensIn(page)).toEqual([]);
  });

  it("demo mode over a database without the demo accounts (admin token generated at start): no token at all", async () => {
    const page = await graphiqlPage({ demo: true, adminToken: undefined }, demoSeed({ existingUser: true }));
    expect(service!.adminToken).toMatch(/^tg_/);
    expect(page.includes(service!.adminToken), "the admin token is in the page").toBe(false);
    expect(bearerTokensIn(page)).toEqual([]);
  });

  it("without demo mode: no token at all", async () => {
    const page = await graphiqlPage({ demo: false, adminToken: undefined });
    expect(service!.adminToken).toMatch(/^tg_/);
    expect(page.includes(service!.adminToken), "the admin token is in the page").toBe(false);
    expect(bearerTokensIn(page)).toEqual([]);
  });
});
