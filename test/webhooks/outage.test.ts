// The database goes away while a webhook request is under way: its attempt cannot be recorded, so
// the delivery is sent again, with the same webhook-id, once the database is back. PostgreSQL behind
// a TCP proxy the test controls.
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createScratchDatabase, type ScratchDatabase } from "../../scripts/scratch-database.js";
import { loadConfig } from "../../src/config.js";
import { startService, type Service } from "../../src/service.js";
import { POSTGRES_URL, type TestService } from "../helpers/service.js";
import { hostAndPort, startTcpProxy, type TcpProxy } from "../helpers/tcp-proxy.js";
import { createWorld, type World } from "../helpers/world.js";
import { startReceiver, type Receiver } from "./receiver.js";

(POSTGRES_URL ? describe : describe.skip)("webhooks through a database outage [postgresql]", () => {
  let scratch: ScratchDatabase;
  let proxy: TcpProxy;
  let service: Service;
  let world: World;
  let receiver: Receiver | undefined;
  const adminToken = `tg_test_admin_${"w".repeat(32)}`;

  beforeAll(async () => {
    scratch = await createScratchDatabase("postgresql", POSTGRES_URL);
    proxy = await startTcpProxy(hostAndPort(scratch.url));
    const databaseUrl = proxy.urlFor(scratch.url);
    service = await startService(
      loadConfig(
        {},
        {
          databaseUrl,
          port: 0,
          logLevel: "silent",
          adminToken,
          postgres: { connectTimeoutMs: 1000, statementTimeoutMs: 1000, poolSize: 4, preparedStatements: true },
          webhooks: { allowedHosts: ["127.0.0.1"], timeoutMs: 2_000, firstRetryMs: 300, maxFailures: 15, pollMs: 100, concurrency: 2 },
        },
      ),
    );
    const testService: TestService = { ...service, provider: "postgresql", databaseUrl, adminToken, stopAndDrop: async () => {} };
    world = await createWorld(testService);
  });
  afterAll(async () => {
    await receiver?.close();
    await service?.stop();
    await proxy?.close();
    await scratch?.drop();
  });

  it("sends the delivery again with the same webhook-id once the database is back, and logs the attempt that reached it", async () => {
    receiver = await startReceiver((_request, index) => (response) => {
      if (index > 0) return void response.writeHead(200).end();
      // The first request arrives: the database goes away before its answer can be recorded.
      void (async () => {
        await proxy.setMode("refuse");
        proxy.dropConnections();
        response.writeHead(200).end();
        await sleep(1_500);
        await proxy.setMode("forward");
      })();
    });
    const owner = await world.member();
    const environment = await world.environmentOf(owner);
    const created = await owner.http.post(`/v1/envs/${environment.id}/webhooks`, { url: receiver.url });
    expect(created.status).toBe(201);
    const [first, again] = await receiver.waitFor(2, 30_000);
    expect(again!.headers["webhook-id"]).toBe(first!.headers["webhook-id"]);
    expect(again!.body).toBe(first!.body);
    const webhookId = created.body.webhook.id as string;
    const deadline = Date.now() + 15_000;
    let delivery = await service.db.webhookDelivery.findFirst({ where: { webhookId }, include: { attempts: true } });
    while (delivery?.status !== "delivered" && Date.now() < deadline) {
      await sleep(100);
      delivery = await service.db.webhookDelivery.findFirst({ where: { webhookId }, include: { attempts: true } });
    }
    expect(delivery).toMatchObject({ id: first!.headers["webhook-id"], status: "delivered" });
    expect(delivery!.attempts.map((attempt) => attempt.outcome)).toEqual(["delivered"]);
  }, 60_000);
});
