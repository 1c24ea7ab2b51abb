// The many-tenant scenario (`npm run bench -- --scenario tenants`) on a tiny version of its data set:
// the bulk-seeded rows are what toolgate reads (every generated request answers 200 with its
// owner's token, and only with it), the floor answers the same bytes, and the harness's writes
// succeed and leave the read keys as they were. No timing is measured.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFloorServer, openFloorStore } from "../../bench/floor/app.js";
import type { FloorStore } from "../../bench/floor/store.js";
import { verifyTenantIdentity } from "../../bench/tenants.js";
import { seedTenants, type TenantsSeed, type TenantsShape } from "../../bench/tenants-dataset.js";
import { distinctNestedReads, tenantRequests, TENANT_READ_MIX } from "../../bench/tenants-requests.js";
import { startWrites } from "../../bench/tenants-writes.js";
import { startTestService, type TestService } from "../helpers/service.js";

const TINY: TenantsShape = { accounts: 2, environmentsPerAccount: 3, releasesPerAccount: 4, grantsPerEnvironment: 4 };

async function listening(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

// SQLite only, to stay fast: the rows are the same on PostgreSQL (createMany), and the bench checks
// identity on both before it measures.
describe("benchmark many-tenant scenario [sqlite]", () => {
  let service: TestService;
  let store: FloorStore;
  let floor: Server;
  let floorUrl: string;
  let seed: TenantsSeed;

  beforeAll(async () => {
    service = await startTestService("sqlite");
    seed = await seedTenants(service.db, TINY);
    store = openFloorStore(service.databaseUrl);
    floor = createFloorServer(store);
    floorUrl = await listening(floor);
  });

  afterAll(async () => {
    floor.closeAllConnections();
    await new Promise<void>((resolve) => floor.close(() => resolve()));
    await store.close();
    await service.stopAndDrop();
  });

  it("seeds the shape: one spare release per account, every other one granted in every environment", () => {
    expect(seed.counts).toMatchObject({ accounts: 2, environments: 6, releases: 10, grants: 24, tokens: 2 });
    expect(seed.keys.releases).toHaveLength(8);
    // account, token, environments, releases (with the spare), grants: one event each
    expect(seed.counts.events).toBe(2 + 2 + 6 + 10 + 24);
  });

  it("answers every generated request 200 with its owner's token, and the floor the same bytes", async () => {
    const requests = [...tenantRequests(seed, 120), ...distinctNestedReads(seed)];
    for (const { kind } of TENANT_READ_MIX) expect(requests.some((request) => request.kind === kind)).toBe(true);
    await verifyTenantIdentity(floorUrl, service.url, requests, TINY.grantsPerEnvironment);
  });

  it("refuses a key to another account's token", async () => {
    const grant = seed.keys.grants.find((key) => key.account === 0)!;
    const response = await fetch(`${service.url}/v1/environment-tool-middleware-grants/${grant.id}`, {
      headers: { authorization: `Bearer ${seed.accounts[1]!.token}` },
    });
    expect(response.status).toBe(404);
  });

  it("writes without errors and leaves the read keys as seeded", async () => {
    const writes = startWrites(service.url, seed, 40);
    await new Promise((resolve) => setTimeout(resolve, 400));
    const counts = await writes.stop();
    expect(counts.errors, counts.firstErrors.join("\n")).toBe(0);
    expect(counts.writes).toBeGreaterThan(4);
    await verifyTenantIdentity(floorUrl, service.url, distinctNestedReads(seed), TINY.grantsPerEnvironment);
  });

  it("is checked for byte identity: a floor answering other bytes fails", async () => {
    const other = createServer((_request, response) => response.end("{}"));
    const otherUrl = await listening(other);
    try {
      await expect(verifyTenantIdentity(otherUrl, service.url, tenantRequests(seed, 1), TINY.grantsPerEnvironment)).rejects.toThrow(/first difference/);
    } finally {
      other.closeAllConnections();
      await new Promise<void>((resolve) => other.close(() => resolve()));
    }
  });
});
