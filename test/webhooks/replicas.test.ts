// Webhooks sent by several replicas of the shipped build on one database (PostgreSQL, or one SQLite
// file shared by processes on one machine): a delivery is
// in flight from one replica at a time, and one killed mid-request leaves it to another, which sends
// it again with the same webhook-id.
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, expect, it } from "vitest";
import { serveToolgate, type ServingToolgate } from "../helpers/child-process.js";
import { describeEachDatabase, startTestService, type TestService } from "../helpers/service.js";
import { createWorld, type World } from "../helpers/world.js";
import { startReceiver, type Receiver } from "./receiver.js";

const REPLICA_SETTINGS = {
  TOOLGATE_WEBHOOK_ALLOWED_HOSTS: "127.0.0.1",
  TOOLGATE_WEBHOOK_TIMEOUT_MS: "2000",
  TOOLGATE_WEBHOOK_FIRST_RETRY_MS: "200",
  TOOLGATE_WEBHOOK_POLL_MS: "100",
};

describeEachDatabase("webhooks across replicas", (provider) => {
  let service: TestService;
  let world: World;
  const replicas: ServingToolgate[] = [];
  const receivers: Receiver[] = [];

  const startReplica = async () => {
    const replica = await serveToolgate({ TOOLGATE_DATABASE_URL: service.databaseUrl, TOOLGATE_ADMIN_TOKEN: service.adminToken, ...REPLICA_SETTINGS });
    replicas.push(replica);
    return replica;
  };

  beforeAll(async () => {
    // This process sets the registry up and serves requests, but sends no webhooks: the replicas do.
    service = await startTestService(provider, {
      webhooks: { allowedHosts: ["127.0.0.1"], timeoutMs: 2_000, firstRetryMs: 200, maxFailures: 15, pollMs: 100, concurrency: 0 },
    });
    world = await createWorld(service);
  }, 60_000);
  afterAll(async () => {
    await Promise.all(replicas.map((replica) => replica.ensureDead()));
    await Promise.all(receivers.map((receiver) => receiver.close()));
    await service?.stopAndDrop();
  });

  it("two replicas never send one delivery at the same time, and send each exactly once when receivers answer", async () => {
    await Promise.all([startReplica(), startReplica()]);
    const receiver = await startReceiver(() => (response) => {
      // Slow answers, so that a second sender of the same delivery would be seen in flight.
      setTimeout(() => response.writeHead(200).end(), 150);
    });
    receivers.push(receiver);
    const owner = await world.member();
    const environment = await world.environmentOf(owner);
    const webhookIds: string[] = [];
    for (let index = 0; index < 4; index += 1) {
      const created = await owner.http.post(`/v1/envs/${environment.id}/webhooks`, { url: `${receiver.url}/${index}` });
      expect(created.status, created.text).toBe(201);
      webhookIds.push(created.body.webhook.id);
    }
    const releases = await Promise.all(Array.from({ length: 6 }, (_, index) => world.publish(owner, `replicated-${index}`, "1.0.0")));
    for (const release of releases) {
      const granted = await owner.http.post(`/v1/envs/${environment.id}/tool-middlewares`, { release: { type: "ById", releaseId: release.id } });
      expect(granted.status).toBe(200);
    }
    // 4 webhooks × (their own creations that follow them + 6 grants): each webhook gets its own
    // creation and those of the webhooks made after it.
    const expected = webhookIds.reduce((total, _id, index) => total + (webhookIds.length - index) + releases.length, 0);
    const deadline = Date.now() + 30_000;
    const seen = () => receiver.received.length;
    while (seen() < expected && Date.now() < deadline) await sleep(100);
    await sleep(1_000);
    // Every delivery arrived once: none was in flight from both replicas (nor sent again after an answer).
    const ids = receiver.received.map((request) => String(request.headers["webhook-id"]));
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toHaveLength(expected);
    const sentBy = await Promise.all(
      replicas.map(async (replica) => {
        const text = await (await fetch(`${replica.url}/metrics`)).text();
        return Number(/toolgate_webhook_deliveries_total\{outcome="delivered"\} (\d+)/.exec(text)?.[1] ?? 0);
      }),
    );
    expect(sentBy.reduce((sum, count) => sum + count, 0)).toBe(expected);
    console.log(`webhook deliveries sent by each of two replicas: ${sentBy.join(" and ")}`);
    await Promise.all(replicas.splice(0).map((replica) => replica.ensureDead()));
  }, 60_000);

  it("a replica killed during a delivery leaves it to another, which sends it again with the same webhook-id", async () => {
    const doomed = await startReplica();
    let arrived: (() => void) | undefined;
    const firstArrival = new Promise<void>((resolve) => (arrived = resolve));
    const receiver = await startReceiver((_request, index) => {
      if (index === 0) {
        arrived?.();
        return "hang";
      }
      return { status: 200 };
    });
    receivers.push(receiver);
    const owner = await world.member();
    const environment = await world.environmentOf(owner);
    const created = await owner.http.post(`/v1/envs/${environment.id}/webhooks`, { url: receiver.url });
    expect(created.status).toBe(201);
    await firstArrival;
    doomed.child.kill("SIGKILL");
    await doomed.exited;
    await startReplica();
    const [first, again] = await receiver.waitFor(2, 30_000);
    expect(again!.headers["webhook-id"]).toBe(first!.headers["webhook-id"]);
    expect(again!.body).toBe(first!.body);
    // The killed attempt was never recorded; the one that reached the receiver again was (once it answered).
    let log = await owner.http.get(`/v1/webhooks/${created.body.webhook.id}/deliveries`);
    for (let tries = 0; log.body.values[0]?.status !== "delivered" && tries < 100; tries += 1) {
      await sleep(100);
      log = await owner.http.get(`/v1/webhooks/${created.body.webhook.id}/deliveries`);
    }
    expect(log.body.values).toHaveLength(1);
    expect(log.body.values[0]).toMatchObject({ id: first!.headers["webhook-id"], status: "delivered", attempts: [{ outcome: "delivered", statusCode: 200 }] });
  }, 60_000);
});
