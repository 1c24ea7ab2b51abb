// Two toolgate processes on one PostgreSQL database: events committed through either reach the
// live subscribers of both (LISTEN/NOTIFY), every one, once, in commit order, under concurrent writes;
// a token revoked through one ends its live subscriptions on the other.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ToolRelease } from "../../src/db/generated/sqlite/client.js";
import { issueToken } from "../../src/domain/accounts.js";
import { ENVIRONMENT_EVENTS, nextEvents } from "../api/events/support.js";
import { serveToolgate, type ServingToolgate } from "../helpers/child-process.js";
import { client, type Client } from "../helpers/http.js";
import { POSTGRES_URL, startTestService, type TestService } from "../helpers/service.js";
import { subscribeOverSse } from "../helpers/sse.js";
import { createWorld, type World } from "../helpers/world.js";
import { uniqueName } from "./support.js";

const WORKERS = 12;
const CYCLES = 2;
/** Per cycle: create, delete, restore, delete. */
const EVENTS_PER_CYCLE = 4;

(POSTGRES_URL ? describe : describe.skip)("change events across two processes [postgresql]", () => {
  let service: TestService;
  let replica: ServingToolgate;
  let world: World;
  let releases: ToolRelease[];

  beforeAll(async () => {
    service = await startTestService("postgresql");
    replica = await serveToolgate({ TOOLGATE_DATABASE_URL: service.databaseUrl, TOOLGATE_ADMIN_TOKEN: service.adminToken });
    world = await createWorld(service);
    releases = [];
    for (let index = 0; index < WORKERS; index += 1) releases.push(await world.publish(world.owner, uniqueName(`fanout-${index}`), "1.0.0"));
  }, 120_000);
  afterAll(async () => {
    await replica?.ensureDead();
    await service?.stopAndDrop();
  });

  it("subscribers of each process receive every event committed through either, in order, none lost or duplicated", async () => {
    const environmentId = world.environment.id;
    const marker = (await service.db.changeEvent.findFirstOrThrow({ orderBy: { id: "desc" } })).id;
    const here = await subscribeOverSse(service.url, world.viewer.token, ENVIRONMENT_EVENTS, { environmentId, after: marker });
    const there = await subscribeOverSse(replica.url, world.viewer.token, ENVIRONMENT_EVENTS, { environmentId, after: marker });
    expect([here.status, there.status]).toEqual([200, 200]);

    // Even workers write through this process, odd ones through the replica, all at once.
    const clientOf = (index: number): Client => (index % 2 === 0 ? world.deployer.http : client(replica.url, world.deployer.token));
    await Promise.all(
      releases.map(async (release, index) => {
        const http = clientOf(index);
        for (let cycle = 0; cycle < CYCLES; cycle += 1) {
          const created = await http.post(`/v1/envs/${environmentId}/tool-middlewares`, { release: { type: "ById", releaseId: release.id } });
          expect(created.status, created.text).toBe(200);
          const grantId = created.body.grant.id;
          expect((await http.delete(`/v1/environment-tool-middleware-grants/${grantId}`)).status).toBe(204);
          expect((await http.post(`/v1/environment-tool-middleware-grants/${grantId}/restore`)).status).toBe(200);
          expect((await http.delete(`/v1/environment-tool-middleware-grants/${grantId}`)).status).toBe(204);
        }
      }),
    );

    const committed = (await service.db.changeEvent.findMany({ where: { environmentId, id: { gt: marker } }, orderBy: { id: "asc" } })).map(
      (event) => event.id,
    );
    expect(committed).toHaveLength(WORKERS * CYCLES * EVENTS_PER_CYCLE);
    const [receivedHere, receivedThere] = await Promise.all([nextEvents(here, committed.length), nextEvents(there, committed.length)]);
    expect(receivedHere.map((event) => event.uuid)).toEqual(committed);
    expect(receivedThere.map((event) => event.uuid)).toEqual(committed);

    // Reported, not asserted: how long a change committed here takes to reach the other process's subscriber.
    const latencies: number[] = [];
    for (const release of releases.slice(0, 5)) {
      const started = performance.now();
      const created = await world.deployer.http.post(`/v1/envs/${environmentId}/tool-middlewares`, { release: { type: "ById", releaseId: release.id } });
      expect(created.status).toBe(200);
      await nextEvents(there, 1);
      latencies.push(Math.round(performance.now() - started));
      await nextEvents(here, 1);
    }
    console.log(`change event, write through one process → subscriber of the other: ${latencies.join(", ")} ms (request included)`);
    here.close();
    there.close();
  });

  it("a token revoked through one process ends its subscriptions on the other, without an event of their environment", async () => {
    const { token, secret } = await issueToken(service.db, "system", { accountId: world.viewer.account.id, name: "replica subscriber" });
    const streams = await Promise.all([0, 1, 2].map(() => subscribeOverSse(replica.url, secret, ENVIRONMENT_EVENTS, { environmentId: world.environment.id })));
    expect(streams.map((stream) => stream.status)).toEqual([200, 200, 200]);
    const revoked = await world.admin.graphql(`mutation ($id: UUID!) { revokeApiToken(id: $id) { revokedAt } }`, { id: token.id });
    expect(revoked.body.errors).toBeUndefined();
    for (const stream of streams) {
      const frame = await stream.next();
      expect(frame.data.errors[0].extensions.code).toBe("AUTH_UNAUTHORIZED");
      expect((await stream.next()).event).toBe("complete");
    }
  });
});
