// Sends webhooks from the outbox: the committed change events themselves. Every replica runs one
// worker; for each webhook with events after its cursor it takes the webhook's lease (one replica at
// a time), sends the events in order, one attempt each, and moves the cursor past each delivered one.
// A failed attempt ends the turn: the webhook waits its backoff and retries the same event. A replica
// killed mid-request never records the attempt, so when its lease runs out another sends the same
// delivery again, with the same `webhook-id` (at least once).
import { randomUUID } from "node:crypto";
import type { Logger } from "pino";
import type { Database } from "../db/client.js";
import type { ChangeFeed, FeedSignal } from "../db/change-feed.js";
import type { ChangeEvent, Webhook } from "../db/generated/sqlite/client.js";
import {
  claimWebhook,
  deliveryOf,
  eventOf,
  eventsAfterCursor,
  extendLease,
  recordAttempt,
  recordRedelivery,
  releaseWebhook,
  requestedRedeliveries,
  skipTo,
  webhooksWithWork,
  type AttemptResult,
  type RetryPolicy,
} from "../domain/webhook-deliveries.js";
import { urlOrigin } from "../domain/events.js";
import { eventTypesOf } from "../domain/webhooks.js";
import { eventBody, signedHeaders } from "./message.js";
import type { WebhookSender } from "./sender.js";

export interface WebhookWorkerSettings {
  sender: WebhookSender;
  retry: RetryPolicy;
  /** How long a replica holds a webhook per request: longer than a request may take. */
  leaseMs: number;
  /** How often to look for due work without a change notice (retries past their backoff, other replicas' leases run out). */
  pollMs: number;
  /** Webhooks served at once by this replica; 0 sends none. */
  concurrency: number;
  /** Each attempt's outcome; `lagSeconds` (event to delivery) for delivered ones. */
  onAttempt?(outcome: "delivered" | "failed", lagSeconds: number | undefined): void;
}

export interface WebhookWorker {
  /** Stops taking work and waits for the requests under way. */
  stop(): Promise<void>;
}

/** Events read per query, and delivered per turn before the webhook is released for others. */
const EVENT_BATCH = 20;
const EVENTS_PER_TURN = 100;
/** How long a change notice waits for others before the worker looks for the webhooks of their streams. */
const NOTICE_GATHERING_MS = 50;

export function startWebhookWorker(db: Database, feed: ChangeFeed, settings: WebhookWorkerSettings, logger: Logger): WebhookWorker {
  if (settings.concurrency === 0) {
    settings.sender.close();
    return { stop: async () => {} };
  }
  const holder = randomUUID();
  const serving = new Map<string, Promise<void>>();
  /** Webhooks whose last turn failed here (the database refused what it was to record), until when they are left alone. */
  const restingUntil = new Map<string, number>();
  let looking = false;
  let stopped = false;
  // What the next look covers: every webhook (a poll, a finished turn), or the streams of the change
  // notices that arrived since the last look.
  let everything = true;
  let changed: { environmentIds: Set<string>; accountIds: Set<string> } | undefined;

  const startLook = () => {
    if (stopped || looking) return;
    looking = true;
    void lookForWork().finally(() => {
      looking = false;
      if (everything) startLook();
      else if (changed) gatherNotices();
    });
  };
  const wake = () => {
    everything = true;
    startLook();
  };
  // Change notices wait a moment for the ones after them: one look covers every stream they name,
  // instead of a query per committed write.
  let gathering: NodeJS.Timeout | undefined;
  const gatherNotices = () => {
    gathering ??= setTimeout(() => {
      gathering = undefined;
      startLook();
    }, NOTICE_GATHERING_MS).unref();
  };
  const noticed = (signal: FeedSignal) => {
    if (typeof signal === "string") return signal === "resync" ? wake() : undefined;
    changed ??= { environmentIds: new Set(), accountIds: new Set() };
    if (signal.environmentId) changed.environmentIds.add(signal.environmentId);
    changed.accountIds.add(signal.accountId);
    gatherNotices();
  };

  async function lookForWork(): Promise<void> {
    const scope = everything ? undefined : changed;
    everything = false;
    changed = undefined;
    try {
      for (const webhookId of await webhooksWithWork(db, new Date(), holder, scope)) {
        if (stopped || serving.size >= settings.concurrency) break;
        if (serving.has(webhookId) || (restingUntil.get(webhookId) ?? 0) > Date.now()) continue;
        restingUntil.delete(webhookId);
        serving.set(
          webhookId,
          serve(webhookId).then((served) => {
            serving.delete(webhookId);
            // A failed turn is not retried at once: its request would be sent again and again.
            if (served) wake();
            else restingUntil.set(webhookId, Date.now() + settings.retry.delayAfterFailure(1));
          }),
        );
      }
    } catch (error) {
      logger.warn({ err: error }, "looking for webhooks to send failed; trying again at the next poll");
    }
  }

  /** One turn of a webhook: its redeliveries, then its events in order. False when it failed. */
  async function serve(webhookId: string): Promise<boolean> {
    try {
      const webhook = await claimWebhook(db, webhookId, holder, settings.leaseMs);
      if (!webhook) return true;
      try {
        await sendRedeliveries(webhook);
        if (webhook.state === "active" && webhook.nextAttemptAt.getTime() <= Date.now()) await sendInOrder(webhook);
      } finally {
        await releaseWebhook(db, webhookId, holder);
      }
      return true;
    } catch (error) {
      logger.warn({ err: error, webhookId }, "sending a webhook's events failed; it is tried again after its first retry delay");
      return false;
    }
  }

  async function attempt(webhook: Webhook, messageId: string, event: ChangeEvent): Promise<{ result: AttemptResult; attemptedAt: Date }> {
    const body = eventBody(event);
    const attemptedAt = new Date();
    const result = await settings.sender.send(webhook.url, signedHeaders(webhook.secret, messageId, attemptedAt, body), body);
    if (!abortedByStop(result))
      settings.onAttempt?.(result.ok ? "delivered" : "failed", result.ok ? (Date.now() - event.occurredAt.getTime()) / 1000 : undefined);
    const fields = { webhookId: webhook.id, deliveryId: messageId, url: urlOrigin(webhook.url), statusCode: result.statusCode, error: result.error };
    // A refused address is someone pointing the server at a place it must not reach: the operator hears of it.
    if (result.error?.startsWith("refused:")) logger.warn(fields, "webhook request refused: its address is not allowed");
    else logger.debug(fields, "webhook attempt");
    return { result, attemptedAt };
  }

  /**
   * A request that failed while this replica stops (stopping cuts the requests under way) is not
   * recorded: like a replica that died, it leaves the delivery, unchanged, to the next sender, which
   * sends it with the same `webhook-id`. Its receiver is not charged a failure for our shutdown.
   */
  const abortedByStop = (result: AttemptResult) => stopped && !result.ok;

  async function sendRedeliveries(webhook: Webhook): Promise<void> {
    for (const delivery of await requestedRedeliveries(db, webhook.id)) {
      if (stopped || !(await extendLease(db, webhook.id, holder, settings.leaseMs))) return;
      // Deleted by retention since it was read, and the delivery with it.
      const event = await eventOf(db, delivery);
      if (!event) continue;
      const outcome = await attempt(webhook, delivery.id, event);
      if (abortedByStop(outcome.result)) return;
      await recordRedelivery(db, delivery, outcome.result, outcome.attemptedAt);
    }
  }

  async function sendInOrder(claimed: Webhook): Promise<void> {
    let webhook = claimed;
    let types = eventTypesOf(webhook);
    const receives = (type: string) => types?.includes(type as never) ?? true;
    for (let sent = 0; sent < EVENTS_PER_TURN && !stopped; ) {
      const events = await eventsAfterCursor(db, webhook, EVENT_BATCH);
      if (events.length === 0) return;
      let skipped: string | undefined;
      for (const event of events) {
        if (!receives(event.type)) {
          skipped = event.id;
          continue;
        }
        if (skipped) await skipTo(db, webhook.id, holder, skipped);
        skipped = undefined;
        if (stopped || !(await extendLease(db, webhook.id, holder, settings.leaseMs))) return;
        const delivery = await deliveryOf(db, webhook.id, event.id);
        // Deleted since it was read: the next read of the stream no longer has it.
        if (!delivery) continue;
        const { result, attemptedAt } = await attempt(webhook, delivery.id, event);
        if (abortedByStop(result)) return;
        const after = await recordAttempt(db, { webhook, holder, delivery, attempt: result, attemptedAt, retry: settings.retry });
        if (after === "gone") continue;
        if (after !== "next") return;
        webhook = { ...webhook, cursor: event.id, consecutiveFailures: 0 };
        sent += 1;
      }
      if (skipped) await skipTo(db, webhook.id, holder, skipped);
      // Its URL or secret may have changed meanwhile (rotation, deletion).
      const current = await db.webhook.findUnique({ where: { id: webhook.id } });
      if (!current || current.state !== "active" || current.leaseHolder !== holder) return;
      webhook = current;
      types = eventTypesOf(webhook);
    }
  }

  const unsubscribe = feed.subscribe(noticed);
  const poll = setInterval(wake, settings.pollMs).unref();
  wake();

  return {
    stop: async () => {
      stopped = true;
      clearInterval(poll);
      clearTimeout(gathering);
      unsubscribe();
      // Cuts the requests under way rather than waiting up to a timeout for them; each turn then
      // releases its webhook's lease, so another replica takes over at once.
      settings.sender.close();
      await Promise.allSettled([...serving.values()]);
    },
  };
}
