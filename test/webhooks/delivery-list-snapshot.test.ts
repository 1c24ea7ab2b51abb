// A webhook's delivery list shows each delivery as one moment of its log: a redelivery's attempt and
// the cleared request are one transaction, so no read shows the one without the other, on either
// database, also once the list's document runs compiled (src/graphql/compiled-execution.ts).
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { Config } from "../../src/config.js";
import type { DatabaseProvider } from "../../src/db/prisma-schemas.js";
import { deliveryOf, recordRedelivery, type AttemptResult } from "../../src/domain/webhook-deliveries.js";
import { describeEachDatabase, startTestService, type TestService } from "../helpers/service.js";
import { createWorld, type World } from "../helpers/world.js";

/** No sender runs: the test records the attempts itself. */
const NO_SENDER: Config["webhooks"] = { allowedHosts: ["127.0.0.1"], timeoutMs: 1_000, firstRetryMs: 300, maxFailures: 3, pollMs: 100, concurrency: 0 };
const DELIVERED: AttemptResult = { ok: true, statusCode: 204, latencyMs: 2, error: null, responseBody: "" };
const ROUNDS = 30;
const READS_PER_ROUND = 8;

describeEachDatabase("a webhook's delivery list under concurrent redeliveries", (provider: DatabaseProvider) => {
  let service: TestService;
  let world: World;

  beforeAll(async () => {
    service = await startTestService(provider, { webhooks: NO_SENDER });
    world = await createWorld(service);
  });
  afterAll(() => service?.stopAndDrop());

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
