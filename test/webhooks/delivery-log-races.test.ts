// The delivery log under races: a delivery lives exactly as long as its change event (retention
// deleting an event while a replica sends it leaves no delivery, attempt or error behind, whichever
// comes first: the delivery's event is a foreign key that cascades), and a delivery list read while
// redeliveries are recorded shows each delivery as one moment of its log, also once the list's
// document runs compiled (src/graphql/compiled-execution.ts). No sender runs: the tests take the
// sender's steps themselves, in the orders a sender, a pruning replica and a reader can interleave them.
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { Config } from "../../src/config.js";
import type { DatabaseProvider } from "../../src/db/prisma-schemas.js";
import { pruneExpiredEvents } from "../../src/domain/event-retention.js";
import { deliveryOf, recordAttempt, recordRedelivery, type AttemptResult } from "../../src/domain/webhook-deliveries.js";
import { describeEachDatabase, startTestService, type TestService } from "../helpers/service.js";
import { createWorld, type World } from "../helpers/world.js";

const NO_SENDER: Config["webhooks"] = { allowedHosts: ["127.0.0.1"], timeoutMs: 1_000, firstRetryMs: 300, maxFailures: 3, pollMs: 100, concurrency: 0 };
const DELIVERED: AttemptResult = { ok: true, statusCode: 204, latencyMs: 2, error: null, responseBody: "" };
const RETRY = { delayAfterFailure: () => 1_000, maxConsecutiveFailures: 3 };
const ROUNDS = 30;
const READS_PER_ROUND = 8;

describeEachDatabase("the webhook delivery log under races", (provider: DatabaseProvider) => {
  let service: TestService;
  let world: World;

  beforeAll(async () => {
    service = await startTestService(provider, { webhooks: NO_SENDER });
    world = await createWorld(service);
  });
  afterAll(() => service?.stopAndDrop());

  /** A fresh webhook, claimed as a sender claims it, and the first event it is to send. */
  async function hookedEvent() {
    const owner = await world.member();
    const environment = await world.environmentOf(owner);
    const created = await owner.http.post(`/v1/envs/${environment.id}/webhooks`, { url: "https://receiver.example/hook" });
    expect(created.status, created.text).toBe(201);
    const holder = `sender-${Math.random()}`;
    await service.db.webhook.update({ where: { id: created.body.webhook.id }, data: { leaseHolder: holder, leaseUntil: new Date(Date.now() + 60_000) } });
    const webhook = await service.db.webhook.findUniqueOrThrow({ where: { id: created.body.webhook.id } });
    const event = await service.db.changeEvent.findFirstOrThrow({ where: { environmentId: environment.id, id: { gt: webhook.cursor ?? "" } } });
    return { webhook, holder, event };
  }

  it("deletes a delivery and its attempts with its event", async () => {
    const { webhook, holder, event } = await hookedEvent();
    const delivery = await deliveryOf(service.db, webhook.id, event.id);
    expect(delivery).not.toBeNull();
    expect(await recordAttempt(service.db, { webhook, holder, delivery: delivery!, attempt: DELIVERED, attemptedAt: new Date(), retry: RETRY })).toBe("next");
    expect(await service.db.webhookAttempt.count({ where: { deliveryId: delivery!.id } })).toBe(1);

    await service.db.changeEvent.delete({ where: { id: event.id } });

    expect(await service.db.webhookDelivery.findUnique({ where: { id: delivery!.id } })).toBeNull();
    expect(await service.db.webhookAttempt.count({ where: { deliveryId: delivery!.id } })).toBe(0);
  });

  it("makes no delivery for an event deleted after the sender read it", async () => {
    const { webhook, event } = await hookedEvent();
    await service.db.changeEvent.delete({ where: { id: event.id } });

    expect(await deliveryOf(service.db, webhook.id, event.id)).toBeNull();
    expect(await service.db.webhookDelivery.count({ where: { webhookId: webhook.id } })).toBe(0);
  });

  it("records nothing for a request whose event was deleted while it was under way, and leaves the webhook as it was", async () => {
    const { webhook, holder, event } = await hookedEvent();
    const delivery = await deliveryOf(service.db, webhook.id, event.id);
    await service.db.changeEvent.delete({ where: { id: event.id } });

    const after = await recordAttempt(service.db, { webhook, holder, delivery: delivery!, attempt: DELIVERED, attemptedAt: new Date(), retry: RETRY });
    await recordRedelivery(service.db, delivery!, DELIVERED, new Date());

    expect(after).toBe("gone");
    expect(await service.db.webhookAttempt.count({ where: { deliveryId: delivery!.id } })).toBe(0);
    expect(await service.db.webhookDelivery.count({ where: { webhookId: webhook.id } })).toBe(0);
    const unchanged = await service.db.webhook.findUniqueOrThrow({ where: { id: webhook.id } });
    expect({ cursor: unchanged.cursor, consecutiveFailures: unchanged.consecutiveFailures, state: unchanged.state }).toEqual({
      cursor: webhook.cursor,
      consecutiveFailures: 0,
      state: "active",
    });
  });

  it("leaves no delivery behind when retention and senders race", async () => {
    const hooks = await Promise.all(Array.from({ length: 8 }, () => hookedEvent()));
    // Each sender makes its delivery and records an attempt while every event is pruned.
    const sends = hooks.map(async ({ webhook, holder, event }) => {
      const delivery = await deliveryOf(service.db, webhook.id, event.id);
      if (delivery) await recordAttempt(service.db, { webhook, holder, delivery, attempt: DELIVERED, attemptedAt: new Date(), retry: RETRY });
    });
    const pruned = pruneExpiredEvents(service.db, 1, new Date(Date.now() + 2 * 24 * 3600 * 1000));
    await Promise.all([...sends, pruned]);

    const webhookIds = hooks.map(({ webhook }) => webhook.id);
    expect(await service.db.changeEvent.count({ where: { id: { in: hooks.map(({ event }) => event.id) } } })).toBe(0);
    expect(await service.db.webhookDelivery.count({ where: { webhookId: { in: webhookIds } } })).toBe(0);
    expect(await service.db.webhookAttempt.count({ where: { delivery: { webhookId: { in: webhookIds } } } })).toBe(0);
  });

  it("never shows a redelivery's attempt beside its request still pending", async () => {
    const owner = await world.member();
    const environment = await world.environmentOf(owner);
    const created = await owner.http.post(`/v1/envs/${environment.id}/webhooks`, { url: "https://receiver.example/hook" });
    expect(created.status, created.text).toBe(201);
    const webhookId = created.body.webhook.id as string;
    const event = await service.db.changeEvent.findFirstOrThrow({ where: { environmentId: environment.id }, orderBy: { id: "desc" } });
    const delivery = (await deliveryOf(service.db, webhookId, event.id))!;
    const seen: { round: number; attempts: number; requested: boolean }[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const asked = await owner.http.post(`/v1/webhook-deliveries/${delivery.id}/redeliver`);
      expect(asked.status, asked.text).toBe(202);
      // Reads sent a millisecond apart, the attempt recorded among them.
      const reads = Array.from({ length: READS_PER_ROUND }, async (_, index) => {
        await sleep(index);
        return { round, ...(await listed()) };
      });
      await sleep(round % READS_PER_ROUND);
      await recordRedelivery(service.db, delivery, DELIVERED, new Date());
      seen.push(...(await Promise.all(reads)), { round, ...(await listed()) });
    }

    async function listed(): Promise<{ attempts: number; requested: boolean }> {
      const page = await owner.http.get(`/v1/webhooks/${webhookId}/deliveries`);
      expect(page.status, page.text).toBe(200);
      const [shown] = page.body.values as { redeliveryRequested: boolean; attempts: unknown[] }[];
      return { attempts: shown!.attempts.length, requested: shown!.redeliveryRequested };
    }

    // In round n, before its attempt is recorded: n attempts and the request pending; after: n + 1 and none.
    const inconsistent = seen.filter(({ round, attempts, requested }) => attempts !== (requested ? round : round + 1));
    expect(inconsistent).toEqual([]);
    expect(seen.at(-1)).toEqual({ round: ROUNDS - 1, attempts: ROUNDS, requested: false });
  });
});
