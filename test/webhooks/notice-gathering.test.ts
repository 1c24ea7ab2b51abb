// The sender looks for the webhooks of changed streams once per moment of change notices, not once
// per committed write: a burst of notices costs a handful of looks, and the webhook of a stream named
// in the burst is still sent its event.
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, expect, it } from "vitest";
import { openDatabase, type Database } from "../../src/db/client.js";
import type { ChangeNotice, FeedSignal } from "../../src/db/change-feed.js";
import type { DatabaseProvider } from "../../src/db/prisma-schemas.js";
import { bootstrapAdmin } from "../../src/domain/accounts.js";
import { createLogger } from "../../src/http/ops/logger.js";
import { retryPolicy } from "../../src/webhooks/retry-policy.js";
import { createWebhookSender } from "../../src/webhooks/sender.js";
import { startWebhookWorker, type WebhookWorker } from "../../src/webhooks/delivery-worker.js";
import { createMigratedDatabase, describeEachDatabase } from "../helpers/service.js";
import { startReceiver, type Receiver } from "./receiver.js";

const NOTICES = 300;

describeEachDatabase("webhook sender and bursts of change notices", (provider: DatabaseProvider) => {
  let db: Database;
  let drop: () => Promise<void>;
  let looks = 0;
  let receiver: Receiver;
  let worker: WebhookWorker | undefined;

  beforeAll(async () => {
    const scratch = await createMigratedDatabase(provider);
    drop = scratch.drop;
    db = await openDatabase(scratch.url, { onQuery: (sql) => void (sql.includes('FROM "Webhook" w') && (looks += 1)) });
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await worker?.stop();
    await receiver?.close();
    await db?.$disconnect();
    await drop?.();
  });

  it("looks once per moment of a burst of 300 notices, not once per notice, and sends the event of the one stream with a webhook", async () => {
    const { admin } = await bootstrapAdmin(db, `tg_test_admin_${"x".repeat(32)}`);
    const owner = await db.account.create({ data: { name: "owner", email: "owner@example.test" } });
    const environment = await db.environment.create({ data: { ownerAccountId: owner.id, name: "hooked" } });
    await db.webhook.create({
      data: { accountId: owner.id, environmentId: environment.id, url: receiver.url, secret: "whsec_dGVzdA==", createdById: admin.id, cursor: "0" },
    });
    const listeners: ((signal: FeedSignal) => void)[] = [];
    const feed = { subscribe: (listener: (signal: FeedSignal) => void) => (listeners.push(listener), () => {}), close: async () => {} };
    worker = startWebhookWorker(
      db,
      feed,
      {
        sender: createWebhookSender({ connectTimeoutMs: 1_000, totalTimeoutMs: 1_000, maxResponseBytes: 1024, allowedHosts: ["127.0.0.1"] }),
        retry: retryPolicy(1_000, 3),
        leaseMs: 5_000,
        pollMs: 60_000,
        concurrency: 4,
      },
      createLogger("silent"),
    );
    await sleep(200);
    const before = looks;

    // An event in the hooked environment, announced among notices of 299 other streams.
    const event = await db.changeEvent.create({
      data: { id: "01a30000-0000-7000-8000-000000000001", type: "grant-created", environmentId: environment.id, accountId: owner.id, state: "{}" },
    });
    const burstStarted = performance.now();
    for (let index = 0; index < NOTICES; index++) {
      const notice: ChangeNotice =
        index === NOTICES / 2
          ? { id: event.id, type: event.type, environmentId: environment.id, accountId: owner.id }
          : {
              id: `01a30000-0000-7000-8000-${String(index).padStart(12, "0")}`,
              type: "grant-created",
              environmentId: `env-${index}`,
              accountId: `account-${index}`,
            };
      for (const listener of listeners) listener(notice);
      if (index % 10 === 0) await sleep(1);
    }
    const burstMs = performance.now() - burstStarted;

    const [sent] = await receiver.waitFor(1);
    expect(JSON.parse(sent!.body)).toMatchObject({ id: event.id, type: "grant-created" });
    await sleep(200);
    // A look per gathering moment (50 ms; bounded here by one per 25 ms of the burst, however slow the
    // machine), and the full look after the turn that sent the event. One per notice was 35–62.
    expect(looks - before).toBeGreaterThan(0);
    expect(looks - before).toBeLessThanOrEqual(3 + burstMs / 25);
  });
});
