// Webhook delivery, end to end: a real toolgate sends the committed change events to real HTTP
// receivers, signed, in order, retried with backoff, disabled after too many failures, redelivered
// on request, and never to an address the operator did not allow.
import { setTimeout as sleep } from "node:timers/promises";
import type { LookupFunction } from "node:net";
import { Webhook as Verifier } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig, type Config } from "../../src/config.js";
import { startService, type Service } from "../../src/service.js";
import type { DatabaseProvider } from "../../src/db/prisma-schemas.js";
import { pruneExpiredEvents } from "../../src/domain/event-retention.js";
import { describeEachDatabase, startTestService, type TestService } from "../helpers/service.js";
import { createWorld, type Member, type World } from "../helpers/world.js";
import { startReceiver, type Answer, type Receiver, type Received } from "./receiver.js";

const FAST: Config["webhooks"] = { allowedHosts: ["127.0.0.1"], timeoutMs: 1_000, firstRetryMs: 300, maxFailures: 3, pollMs: 100, concurrency: 4 };

/** Names tests resolve to chosen addresses, as a hostile DNS would. */
const HOSTILE_NAMES: Record<string, string> = {
  "internal.example.test": "10.0.0.7",
  "loopback.example.test": "127.0.0.1",
  "metadata.example.test": "169.254.169.254",
};
const hostileLookup = ((hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
  const address = HOSTILE_NAMES[hostname];
  if (!address) return callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" }));
  if (options.all) return callback(null, [{ address, family: 4 }]);
  return callback(null, address, 4);
}) as unknown as LookupFunction;

async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`not reached within ${timeoutMs} ms: ${JSON.stringify(value).slice(0, 2000)}`);
    await sleep(50);
  }
}

describeEachDatabase("webhook delivery", (provider: DatabaseProvider) => {
  let service: TestService;
  let world: World;
  const receivers: Receiver[] = [];

  beforeAll(async () => {
    service = await startTestService(provider, { webhooks: FAST }, { webhookLookup: hostileLookup });
    world = await createWorld(service);
  });
  afterAll(async () => {
    await Promise.all(receivers.map((receiver) => receiver.close()));
    await service?.stopAndDrop();
  });

  async function receiver(answer?: (request: Received, index: number) => Answer): Promise<Receiver> {
    const started = await startReceiver(answer);
    receivers.push(started);
    return started;
  }

  /** A fresh environment of a fresh owner with a webhook to `url`; its creation is the first event the receiver gets. */
  async function hooked(url: string, body: Record<string, unknown> = {}) {
    const owner = await world.member();
    const environment = await world.environmentOf(owner);
    const created = await owner.http.post(`/v1/envs/${environment.id}/webhooks`, { url, ...body });
    expect(created.status, created.text).toBe(201);
    return { owner, environment, webhook: created.body.webhook, secret: created.body.secret as string };
  }

  async function grantSomething(owner: Member, environmentId: string, name: string) {
    const release = await world.publish(owner, name, "1.0.0");
    const granted = await owner.http.post(`/v1/envs/${environmentId}/tool-middlewares`, { release: { type: "ById", releaseId: release.id } });
    expect(granted.status, granted.text).toBe(200);
    return granted.body.grant;
  }

  const deliveriesOf = async (owner: Member, webhookId: string) => {
    const page = await owner.http.get(`/v1/webhooks/${webhookId}/deliveries?limit=500`);
    expect(page.status, page.text).toBe(200);
    return page.body.values as {
      id: string;
      eventId: string;
      status: string;
      redeliveryRequested: boolean;
      attempts: { outcome: string; statusCode: number | null; error: string | null; redelivery: boolean; attemptedAt: string; responseBody: string }[];
    }[];
  };

  it("sends a committed change once, as the REST event, signed so that the standardwebhooks package verifies it", async () => {
    const hook = await receiver();
    const { owner, environment, webhook, secret } = await hooked(hook.url);
    expect(secret).toMatch(/^whsec_/);
    const grant = await grantSomething(owner, environment.id, "signed-tool");
    const requests = await hook.waitFor(2);
    await sleep(500);
    expect(hook.received).toHaveLength(2);
    const events = (await owner.http.get(`/v1/envs/${environment.id}/events`)).body.values;
    const bodies = requests.map((request) => JSON.parse(request.body));
    expect(bodies).toEqual(events.slice(-2));
    expect(bodies.map((body) => body.type)).toEqual(["webhook-created", "grant-created"]);
    expect(bodies[1].state.id).toBe(grant.id);
    const verifier = new Verifier(secret);
    for (const request of requests) {
      const headers = {
        "webhook-id": String(request.headers["webhook-id"]),
        "webhook-timestamp": String(request.headers["webhook-timestamp"]),
        "webhook-signature": String(request.headers["webhook-signature"]),
      };
      expect(verifier.verify(request.body, headers)).toEqual(JSON.parse(request.body));
      expect(request.headers["content-type"]).toBe("application/json");
    }
    // A signature made with another secret does not verify.
    const other = (await owner.http.post(`/v1/webhooks/${webhook.id}/rotate-secret`)).body.secret as string;
    expect(() => new Verifier(other).verify(requests[1]!.body, requests[1]!.headers as Record<string, string>)).toThrow();
    const log = await eventually(
      () => deliveriesOf(owner, webhook.id),
      (deliveries) => deliveries.length >= 3,
    );
    expect(log.map((delivery) => delivery.id)).toEqual(expect.arrayContaining(requests.map((request) => String(request.headers["webhook-id"]))));
  });

  it("retries a delivery the receiver failed, after a backoff, with the same webhook-id", async () => {
    const hook = await receiver((_request, index) => (index === 1 ? { status: 500, body: "down for a moment" } : { status: 200 }));
    const { owner, environment, webhook } = await hooked(hook.url);
    await grantSomething(owner, environment.id, "retried-tool");
    const [, failed, retried] = await hook.waitFor(3);
    expect(retried!.headers["webhook-id"]).toBe(failed!.headers["webhook-id"]);
    expect(retried!.body).toBe(failed!.body);
    // The first retry waits firstRetryMs, give or take the 20 % jitter.
    expect(retried!.at - failed!.at).toBeGreaterThanOrEqual(FAST.firstRetryMs * 0.8 - 20);
    const log = await eventually(
      () => deliveriesOf(owner, webhook.id),
      (deliveries) => deliveries.some((delivery) => delivery.attempts.length === 2 && delivery.status === "delivered"),
    );
    const attempts = log.find((delivery) => delivery.attempts.length === 2)!.attempts;
    expect(attempts.map((attempt) => [attempt.outcome, attempt.statusCode])).toEqual([
      ["delivered", 200],
      ["failed", 500],
    ]);
    expect(attempts[1]!.responseBody).toBe("down for a moment");
    expect(attempts[1]!.error).toBe("answered 500");
  });

  it("logs an answer holding U+0000, which a PostgreSQL text column cannot store, and goes on", async () => {
    const hook = await receiver((_request, index) => (index === 0 ? { status: 500, body: "nul\u0000here" } : { status: 200 }));
    const { owner, webhook } = await hooked(hook.url);
    const [delivery] = await eventually(
      () => deliveriesOf(owner, webhook.id),
      (deliveries) => deliveries[0]?.status === "delivered",
    );
    expect(delivery!.attempts.map((attempt) => attempt.responseBody)).toEqual(["", "nul\ufffdhere"]);
  });

  it("keeps each webhook's order: events arrive in the order of the stream, each once", async () => {
    // Every third request fails once, so retries interleave with new events.
    const failedOnce = new Set<string>();
    const hook = await receiver((request, index) => {
      const id = String(request.headers["webhook-id"]);
      if (index % 3 === 2 && !failedOnce.has(id)) {
        failedOnce.add(id);
        return { status: 503 };
      }
      return { status: 200 };
    });
    const { owner, environment } = await hooked(hook.url);
    const releases = await Promise.all(Array.from({ length: 8 }, (_, index) => world.publish(owner, `ordered-tool-${index}`, "1.0.0")));
    await Promise.all(
      releases.map((release) => owner.http.post(`/v1/envs/${environment.id}/tool-middlewares`, { release: { type: "ById", releaseId: release.id } })),
    );
    const all = (await owner.http.get(`/v1/envs/${environment.id}/events?limit=100`)).body.values as { id: string; type: string }[];
    // From the webhook's creation on (the environment's own creation came before it).
    const events = all.slice(all.findIndex((event) => event.type === "webhook-created"));
    expect(events.map((event) => event.type)).toEqual(["webhook-created", ...releases.map(() => "grant-created")]);
    await eventually(
      async () => new Set(hook.received.map((request) => JSON.parse(request.body).id)).size,
      (size) => size === 9,
    );
    const delivered: string[] = [];
    for (const request of hook.received) {
      const id = JSON.parse(request.body).id as string;
      if (delivered.at(-1) !== id) delivered.push(id);
    }
    // A failed request is repeated before anything after it; nothing is delivered twice otherwise.
    expect(delivered).toEqual(events.map((event) => event.id));
  });

  it("sends only the event types a webhook asks for", async () => {
    const hook = await receiver();
    const { owner, environment } = await hooked(hook.url, { eventTypes: ["grant-deleted"] });
    const grant = await grantSomething(owner, environment.id, "filtered-tool");
    expect((await owner.http.delete(`/v1/environment-tool-middleware-grants/${grant.id}`)).status).toBe(204);
    const [only] = await hook.waitFor(1);
    await sleep(500);
    expect(hook.received).toHaveLength(1);
    expect(JSON.parse(only!.body)).toMatchObject({ type: "grant-deleted", state: { id: grant.id, lifecycle: "deleted" } });
  });

  it("sends nothing for a change that was refused and rolled back", async () => {
    const hook = await receiver();
    const { owner, environment } = await hooked(hook.url, { eventTypes: ["grant-created"] });
    const unpublished = await owner.http.post(`/v1/envs/${environment.id}/tool-middlewares`, {
      release: { type: "ById", releaseId: "01a201cd-ac31-728b-b411-4c2a3ab92a61" },
    });
    expect(unpublished.status).toBe(404);
    await grantSomething(owner, environment.id, "after-refusal");
    await hook.waitFor(1);
    await sleep(500);
    expect(hook.received.map((request) => JSON.parse(request.body).type)).toEqual(["grant-created"]);
  });

  it("disables a webhook after too many failures in a row, says so in an event, and resumes where it stopped once enabled", async () => {
    let healthy = false;
    const hook = await receiver(() => (healthy ? { status: 200 } : { status: 500 }));
    const { owner, environment, webhook } = await hooked(hook.url);
    await hook.waitFor(FAST.maxFailures);
    const disabled = await eventually(
      async () => (await owner.http.get(`/v1/webhooks/${webhook.id}`)).body,
      (body) => body.state === "disabled",
    );
    expect(disabled).toMatchObject({ consecutiveFailures: FAST.maxFailures, nextAttemptAt: null });
    expect(disabled.disabledReason).toContain("answered 500");
    await sleep(FAST.firstRetryMs * 3);
    expect(hook.received).toHaveLength(FAST.maxFailures);
    const events = (await owner.http.get(`/v1/envs/${environment.id}/events`)).body.values as { type: string; actorAccountId: string | null }[];
    expect(events.at(-1)).toMatchObject({ type: "webhook-disabled", actorAccountId: null });

    healthy = true;
    const enabled = await owner.http.post(`/v1/webhooks/${webhook.id}/enable`);
    expect(enabled.status, enabled.text).toBe(200);
    expect(enabled.body).toMatchObject({ state: "active", consecutiveFailures: 0, disabledReason: null });
    // The event it stopped at (its own creation), then the disabling and the enabling.
    const resumed = await hook.waitFor(FAST.maxFailures + 3);
    expect(resumed.slice(FAST.maxFailures).map((request) => JSON.parse(request.body).type)).toEqual(["webhook-created", "webhook-disabled", "webhook-enabled"]);
  });

  it("redelivers a logged delivery on request, with its webhook-id, and logs the attempt as a redelivery", async () => {
    const hook = await receiver();
    const { owner, webhook } = await hooked(hook.url);
    const [first] = await hook.waitFor(1);
    const [delivery] = await eventually(
      () => deliveriesOf(owner, webhook.id),
      (deliveries) => deliveries.length === 1 && deliveries[0]!.status === "delivered",
    );
    const asked = await owner.http.post(`/v1/webhook-deliveries/${delivery!.id}/redeliver`);
    expect(asked.status, asked.text).toBe(202);
    expect(asked.body).toMatchObject({ id: delivery!.id, redeliveryRequested: true });
    const [, again] = await hook.waitFor(2);
    expect(again!.headers["webhook-id"]).toBe(first!.headers["webhook-id"]);
    expect(again!.body).toBe(first!.body);
    const [logged] = await eventually(
      () => deliveriesOf(owner, webhook.id),
      (deliveries) => deliveries[0]!.attempts.length === 2,
    );
    expect(logged!.attempts.map((attempt) => attempt.redelivery)).toEqual([true, false]);
    expect(logged!.redeliveryRequested).toBe(false);
  });

  it("does not let a receiver that hangs or answers 10 MB hold the sending of other webhooks", async () => {
    const hanging = await receiver(() => "hang");
    const huge = await receiver(() => (response) => {
      response.writeHead(200, { "content-type": "text/plain" });
      const chunk = Buffer.alloc(64 * 1024, "x");
      let sent = 0;
      const write = () => {
        while (sent < 10 * 1024 * 1024) {
          sent += chunk.length;
          if (!response.write(chunk)) return void response.once("drain", write);
        }
        response.end();
      };
      response.on("error", () => {});
      write();
    });
    const healthy = await receiver();
    const stuck = await hooked(hanging.url);
    const flooded = await hooked(huge.url);
    const fine = await hooked(healthy.url);
    await hanging.waitFor(1);
    await healthy.waitFor(1);
    const hungLog = await eventually(
      () => deliveriesOf(stuck.owner, stuck.webhook.id),
      (deliveries) => (deliveries[0]?.attempts.length ?? 0) >= 1,
    );
    expect(hungLog[0]!.attempts.at(-1)).toMatchObject({ outcome: "failed", statusCode: null });
    expect(hungLog[0]!.attempts.at(-1)!.error).toMatch(/timed out after 1000 ms/);
    const hugeLog = await eventually(
      () => deliveriesOf(flooded.owner, flooded.webhook.id),
      (deliveries) => (deliveries[0]?.attempts.length ?? 0) >= 1,
    );
    expect(hugeLog[0]!.attempts.at(-1)).toMatchObject({ outcome: "delivered", statusCode: 200 });
    expect(hugeLog[0]!.attempts.at(-1)!.responseBody.length).toBeLessThanOrEqual(1024);
    // Other webhooks keep being served while the hanging one waits for its retries.
    await grantSomething(fine.owner, fine.environment.id, "still-served");
    await healthy.waitFor(2);
  });

  describe("refuses addresses the operator did not allow, and logs why", () => {
    it("refuses loopback, private and metadata URLs when the webhook is created, listing every problem", async () => {
      const owner = await world.member();
      const environment = await world.environmentOf(owner);
      for (const url of ["http://localhost:8080/hook", "https://169.254.169.254/latest/meta-data/", "https://10.1.2.3/hook", "https://[::1]/hook"]) {
        const refused = await owner.http.post(`/v1/envs/${environment.id}/webhooks`, { url });
        expect(refused.status, url).toBe(400);
        expect(refused.body.code).toBe("REQUEST_INVALID");
        expect(refused.body.errors.join("\n")).toMatch(/body\.url: /);
      }
      const both = await owner.http.post(`/v1/envs/${environment.id}/webhooks`, { url: "ftp://user:pw@example.com/" });
      expect(both.status).toBe(400);
      expect(both.body.errors).toEqual([
        expect.stringMatching(/^body\.url: must use https/),
        expect.stringMatching(/^body\.url: must not contain credentials/),
      ]);
      const unknownType = await owner.http.post(`/v1/envs/${environment.id}/webhooks`, { url: "https://example.com/hook", eventTypes: ["no-such-event"] });
      expect(unknownType.status).toBe(400);
      expect(unknownType.body.errors.join("\n")).toMatch(/body\.eventTypes.*no-such-event/);
    });

    it.each([
      ["a DNS name resolving to 10.x", "internal.example.test", /private/],
      ["a DNS name resolving to loopback", "loopback.example.test", /private|loopback/],
      ["a DNS name resolving to the metadata address", "metadata.example.test", /meta|link|private/i],
    ])("refuses %s when it connects, and logs it", async (_name, host, reason) => {
      const { owner, webhook } = await hooked(`https://${host}/hook`);
      const [delivery] = await eventually(
        () => deliveriesOf(owner, webhook.id),
        (deliveries) => (deliveries[0]?.attempts.length ?? 0) >= 1,
      );
      expect(delivery!.attempts.at(-1)).toMatchObject({ outcome: "failed", statusCode: null });
      expect(delivery!.attempts.at(-1)!.error).toMatch(/^refused: /);
      expect(delivery!.attempts.at(-1)!.error).toMatch(reason);
    });

    it("does not follow a redirect, to loopback or anywhere", async () => {
      const target = await receiver();
      const redirecting = await receiver(() => ({ status: 302, headers: { location: `http://127.0.0.1:${target.port}/internal` } }));
      const { owner, webhook } = await hooked(redirecting.url);
      const [delivery] = await eventually(
        () => deliveriesOf(owner, webhook.id),
        (deliveries) => (deliveries[0]?.attempts.length ?? 0) >= 1,
      );
      expect(delivery!.attempts.at(-1)).toMatchObject({ outcome: "failed", statusCode: 302 });
      expect(delivery!.attempts.at(-1)!.error).toMatch(/redirect not followed/);
      expect(target.received).toHaveLength(0);
    });
  });

  it("keeps the delivery log as long as the change events, and no longer", async () => {
    expect(await service.db.webhookDelivery.count()).toBeGreaterThan(0);
    // Retention of one day, two days from now: everything recorded so far is past it.
    await pruneExpiredEvents(service.db, 1, new Date(Date.now() + 2 * 24 * 3600 * 1000));
    expect(await service.db.webhookDelivery.count()).toBe(0);
    expect(await service.db.webhookAttempt.count()).toBe(0);
  });

  it("counts deliveries by outcome and their lag on /metrics", async () => {
    const text = await (await fetch(service.metricsUrl)).text();
    expect(text).toMatch(/toolgate_webhook_deliveries_total\{outcome="delivered"\} [1-9]/);
    expect(text).toMatch(/toolgate_webhook_deliveries_total\{outcome="failed"\} [1-9]/);
    expect(text).toMatch(/toolgate_webhook_delivery_lag_seconds_count [1-9]/);
  });
});

describeEachDatabase("webhook delivery when a replica stops", (provider: DatabaseProvider) => {
  it("cuts the request under way without recording it, and the next replica sends the delivery with the same webhook-id", async () => {
    // A request timeout far beyond the test's own: stopping must not wait for it, nor for the lease
    // it would otherwise hold (2 × the timeout), before the next replica sends.
    const patient = { ...FAST, timeoutMs: 600_000 };
    const first = await startTestService(provider, { webhooks: patient });
    let next: Service | undefined;
    let firstClosed = false;
    const hook = await startReceiver((_request, index) =>
      index === 0
        ? (response) => {
            response.on("close", () => (firstClosed = true));
          }
        : { status: 200 },
    );
    try {
      const world = await createWorld(first);
      const owner = await world.member();
      const environment = await world.environmentOf(owner);
      const created = await owner.http.post(`/v1/envs/${environment.id}/webhooks`, { url: hook.url });
      expect(created.status).toBe(201);
      await hook.waitFor(1);
      await first.stop();
      expect(firstClosed).toBe(true);
      const webhookId = created.body.webhook.id as string;
      const unrecorded = await first.db.webhookDelivery.findMany({ where: { webhookId }, include: { attempts: true } });
      expect(unrecorded.flatMap((delivery) => delivery.attempts)).toEqual([]);

      next = await startService(loadConfig({}, { databaseUrl: first.databaseUrl, port: 0, host: "127.0.0.1", logLevel: "silent", webhooks: patient }));
      const [sent, again] = await hook.waitFor(2);
      expect(again!.headers["webhook-id"]).toBe(sent!.headers["webhook-id"]);
      const deadline = Date.now() + 15_000;
      let delivery = await next.db.webhookDelivery.findFirst({ where: { webhookId }, include: { attempts: true } });
      while (delivery?.status !== "delivered" && Date.now() < deadline) {
        await sleep(50);
        delivery = await next.db.webhookDelivery.findFirst({ where: { webhookId }, include: { attempts: true } });
      }
      expect(delivery).toMatchObject({ id: sent!.headers["webhook-id"], status: "delivered" });
      expect(delivery!.attempts.map((attempt) => attempt.outcome)).toEqual(["delivered"]);
    } finally {
      await next?.stop();
      await hook.close();
      await first.stopAndDrop();
    }
  });
});
