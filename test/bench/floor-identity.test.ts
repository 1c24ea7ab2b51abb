// The benchmark's floor (bench/floor/) must answer every scenario byte for byte as toolgate does,
// or `npm run bench` compares toolgate with something else. This runs the harness's own seeding and
// identity check on a tiny data set, so a change to toolgate's JSON that the floor does not follow
// fails here, not in the middle of a benchmark run. No timing is measured.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, expect, it } from "vitest";
import { seedDataset, type DatasetShape, type Subject } from "../../bench/dataset.js";
import { createFloorServer, openFloorStore } from "../../bench/floor/app.js";
import type { FloorStore } from "../../bench/floor/store.js";
import { IdentityError, verifyByteIdentity } from "../../bench/identity.js";
import { SCENARIOS } from "../../bench/scenarios.js";
import { describeEachDatabase, startTestService, type TestService } from "../helpers/service.js";

const TINY: DatasetShape = { accounts: 2, environmentsPerAccount: 2, releasesPerAccount: 4, grants: { min: 3, max: 4 } };

async function listening(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const closed = (server: Server) => new Promise<void>((resolve) => server.close(() => resolve()));

describeEachDatabase("benchmark floor", (provider) => {
  let service: TestService;
  let store: FloorStore;
  let floor: Server;
  let floorUrl: string;
  let subject: Subject;

  beforeAll(async () => {
    service = await startTestService(provider);
    ({ subject } = await seedDataset(service.db, TINY));
    store = openFloorStore(service.databaseUrl);
    floor = createFloorServer(store);
    floorUrl = await listening(floor);
  });

  afterAll(async () => {
    floor.closeAllConnections();
    await closed(floor);
    await store.close();
    await service.stopAndDrop();
  });

  it("answers every request of every scenario with toolgate's bytes", async () => {
    expect(subject.grantIds).toHaveLength(TINY.grants.min);
    const { requests } = await verifyByteIdentity(floorUrl, service.url, SCENARIOS, subject);
    // healthz, one per grant, one per release of the account, the list, the GraphQL read
    expect(requests).toBe(1 + TINY.grants.min + TINY.releasesPerAccount + 1 + 1);
  });

  it("refuses a yardstick that differs by one byte", async () => {
    const spaced = createServer((_request, response) => {
      response.writeHead(200, { "content-type": "application/json" });
      response.end('{"status": "ok"}');
    });
    const spacedUrl = await listening(spaced);
    try {
      const healthz = SCENARIOS.filter((scenario) => scenario.id === "healthz");
      const check = verifyByteIdentity(spacedUrl, service.url, healthz, subject);
      await expect(check).rejects.toThrow(IdentityError);
      await expect(check).rejects.toThrow(/first difference at byte 10/);
    } finally {
      spaced.closeAllConnections();
      await closed(spaced);
    }
  });
});
