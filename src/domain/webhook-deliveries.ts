// What sending webhooks stores: which webhook a replica is sending for (a lease on its row, so one
// replica at a time sends its events, in order), one delivery per (webhook, event) whose id every
// attempt carries as `webhook-id`, and the attempts, which are the delivery log. The sending itself
// is src/webhooks/delivery-worker.ts.
import { providerOfClient, type Database, type Db } from "../db/client.js";
import type { ChangeEvent, Webhook, WebhookDelivery } from "../db/generated/sqlite/client.js";
import { recorded } from "./events.js";
import { streamOf } from "./webhooks.js";
import { writeTransaction } from "./write-transaction.js";

/** The result of one HTTP request to a receiver. */
export interface AttemptResult {
  ok: boolean;
  statusCode: number | null;
  latencyMs: number;
  error: string | null;
  responseBody: string;
}

/** How failures are retried: the delay after the n-th consecutive one, and how many disable a webhook. */
export interface RetryPolicy {
  delayAfterFailure(failures: number): number;
  maxConsecutiveFailures: number;
}

/** The most webhooks one look for work returns. */
const WORK_BATCH = 1000;

/** Where new events were committed: the environments and accounts whose streams they are in. */
export interface ChangedStreams {
  environmentIds: ReadonlySet<string>;
  accountIds: ReadonlySet<string>;
}

/**
 * Which active webhooks have events after their cursor: one statement, an index probe of the event
 * table per active webhook (its stream's events after its cursor), or only of the webhooks of
 * `changed` streams. Read below Prisma's query builder because the stream is a choice between two columns.
 */
function webhooksWithEventsQuery(db: Db, changed: ChangedStreams | undefined): { sql: string; args: string[] } {
  const postgres = providerOfClient(db) === "postgresql";
  const args: string[] = [];
  const list = (ids: ReadonlySet<string>) => [...ids].map((id) => (args.push(id), postgres ? `$${args.length}::text` : "?")).join(", ") || "NULL";
  const scope = changed
    ? `AND (w."environmentId" IN (${list(changed.environmentIds)}) OR (w."environmentId" IS NULL AND w."accountId" IN (${list(changed.accountIds)})))`
    : "";
  const sql = `SELECT w."id", w."nextAttemptAt", w."leaseUntil", w."leaseHolder" FROM "Webhook" w
  WHERE w."state" = 'active' ${scope} AND (
    (w."environmentId" IS NOT NULL AND EXISTS (SELECT 1 FROM "ChangeEvent" e WHERE e."environmentId" = w."environmentId" AND e."id" > COALESCE(w."cursor", '')))
    OR (w."environmentId" IS NULL AND EXISTS (SELECT 1 FROM "ChangeEvent" e WHERE e."accountId" = w."accountId" AND e."id" > COALESCE(w."cursor", ''))))
  LIMIT ${WORK_BATCH}`;
  return { sql, args };
}

/** A timestamp as a raw query answers it: a Date on PostgreSQL, ISO text on SQLite. */
const timeOf = (value: unknown): number => (value === null || value === undefined ? 0 : new Date(value as string | Date).getTime());

/**
 * Webhooks with something to send and no other replica sending for them: active ones past their
 * backoff with events after their cursor, longest waiting first, and any with a redelivery asked for.
 * With `changed`, only the webhooks of those streams are looked at (a change notice), and no redeliveries.
 * Leases `holder` itself still holds count as free: its caller is not serving those webhooks (a turn
 * whose release failed while the database was away left them).
 */
export async function webhooksWithWork(db: Db, now: Date, holder: string, changed?: ChangedStreams): Promise<string[]> {
  const { sql, args } = webhooksWithEventsQuery(db, changed);
  const [withEvents, redeliveries] = await Promise.all([
    db.$queryRawUnsafe<{ id: string; nextAttemptAt: unknown; leaseUntil: unknown; leaseHolder: string | null }[]>(sql, ...args),
    changed
      ? []
      : db.webhookDelivery.findMany({
          where: { redeliverRequestedAt: { not: null }, webhook: leaseFreeFor(holder, now) },
          distinct: ["webhookId"],
          take: WORK_BATCH,
          select: { webhookId: true },
        }),
  ]);
  const due = withEvents
    .filter((webhook) => timeOf(webhook.nextAttemptAt) <= now.getTime() && (timeOf(webhook.leaseUntil) < now.getTime() || webhook.leaseHolder === holder))
    .sort((a, b) => timeOf(a.nextAttemptAt) - timeOf(b.nextAttemptAt))
    .map((webhook) => webhook.id);
  return [...new Set([...redeliveries.map((delivery) => delivery.webhookId), ...due])];
}

/** No lease, one run out, or one `holder` left behind. */
function leaseFreeFor(holder: string, now: Date) {
  return { OR: [{ leaseUntil: null }, { leaseUntil: { lt: now } }, { leaseHolder: holder }] };
}

/**
 * Takes the webhook's lease for `leaseMs` unless another replica holds it (one `holder` left behind
 * is free to it: its caller serves the webhook no more): one conditional UPDATE, so of two replicas
 * racing for it exactly one gets it. Returns the webhook when taken.
 */
export async function claimWebhook(db: Db, webhookId: string, holder: string, leaseMs: number): Promise<Webhook | null> {
  const now = new Date();
  const { count } = await db.webhook.updateMany({
    where: { id: webhookId, ...leaseFreeFor(holder, now) },
    data: { leaseHolder: holder, leaseUntil: new Date(now.getTime() + leaseMs) },
  });
  return count === 1 ? db.webhook.findUnique({ where: { id: webhookId } }) : null;
}

/** Extends a lease this holder still has, before a request; false when it was lost (expired and taken). */
export async function extendLease(db: Db, webhookId: string, holder: string, leaseMs: number): Promise<boolean> {
  const now = new Date();
  const { count } = await db.webhook.updateMany({
    where: { id: webhookId, leaseHolder: holder, leaseUntil: { gte: now } },
    data: { leaseUntil: new Date(now.getTime() + leaseMs) },
  });
  return count === 1;
}

export async function releaseWebhook(db: Db, webhookId: string, holder: string): Promise<void> {
  await db.webhook.updateMany({ where: { id: webhookId, leaseHolder: holder }, data: { leaseHolder: null, leaseUntil: null } });
}

/** The next events of the webhook's stream after its cursor, oldest first. */
export function eventsAfterCursor(db: Db, webhook: Webhook, limit: number): Promise<ChangeEvent[]> {
  return db.changeEvent.findMany({ where: { ...streamOf(webhook), id: { gt: webhook.cursor ?? "" } }, orderBy: { id: "asc" }, take: limit });
}

/** Moves the cursor past events of types the webhook does not receive. */
export async function skipTo(db: Db, webhookId: string, holder: string, eventId: string): Promise<void> {
  await db.webhook.updateMany({ where: { id: webhookId, leaseHolder: holder }, data: { cursor: eventId } });
}

/**
 * The delivery of `event` to the webhook, made the first time it is attempted: its id is the message's
 * id ever after. Null when the event (or the webhook) was deleted meanwhile: a delivery lives as long
 * as its event, and the database refuses one of an event retention deleted.
 */
export async function deliveryOf(db: Db, webhookId: string, eventId: string): Promise<WebhookDelivery | null> {
  return db.webhookDelivery.upsert({ where: { webhookId_eventId: { webhookId, eventId } }, create: { webhookId, eventId }, update: {} }).catch(nullWhenGone);
}

/** Prisma's "foreign key violated" (P2003): what the row refers to was deleted meanwhile. */
function isGone(error: unknown): boolean {
  return typeof error === "object" && error !== null && "code" in error && error.code === "P2003";
}

const nullWhenGone = (error: unknown): null => {
  if (isGone(error)) return null;
  throw error;
};

/** A receiver's text as a text column can hold it: PostgreSQL's cannot hold U+0000. */
const storable = (text: string) => text.replaceAll("\u0000", "\uFFFD");

/** Keeps an attempt in the log and the delivery's outcome. */
async function logAttempt(tx: Db, delivery: WebhookDelivery, attempt: AttemptResult, attemptedAt: Date, redelivery: boolean): Promise<void> {
  const outcome = attempt.ok ? "delivered" : "failed";
  await tx.webhookAttempt.create({
    data: {
      deliveryId: delivery.id,
      attemptedAt,
      outcome,
      statusCode: attempt.statusCode,
      latencyMs: attempt.latencyMs,
      error: attempt.error === null ? null : storable(attempt.error),
      responseBody: storable(attempt.responseBody),
      redelivery,
    },
  });
  // A redelivery that fails does not undo an earlier success.
  const status = attempt.ok ? "delivered" : delivery.status === "delivered" ? "delivered" : "failed";
  await tx.webhookDelivery.update({ where: { id: delivery.id }, data: { status, ...(redelivery ? { redeliverRequestedAt: null } : {}) } });
}

/**
 * What recording an attempt decided for the webhook. "gone": the delivery was deleted while its
 * request was under way (with its event, by retention, or with its webhook), so nothing was recorded.
 */
export type AfterAttempt = "next" | "retry-later" | "disabled" | "lease-lost" | "gone";

/**
 * Records an attempt of the event at the webhook's cursor: on success the cursor moves past it; on
 * failure the webhook waits its backoff, or is disabled (with its event) after too many failures in a row.
 */
export async function recordAttempt(db: Database, input: AttemptInOrder): Promise<AfterAttempt> {
  return recordAttemptInTransaction(db, input).catch((error: unknown) => {
    if (isGone(error)) return "gone";
    throw error;
  });
}

/** An attempt of the event at the webhook's cursor, made by `holder` under its lease. */
interface AttemptInOrder {
  webhook: Webhook;
  holder: string;
  delivery: WebhookDelivery;
  attempt: AttemptResult;
  attemptedAt: Date;
  retry: RetryPolicy;
}

function recordAttemptInTransaction(db: Database, input: AttemptInOrder): Promise<AfterAttempt> {
  const { webhook, holder, delivery, attempt, retry } = input;
  return writeTransaction(db, [], async (tx) => {
    await logAttempt(tx, delivery, attempt, input.attemptedAt, false);
    const mine = { id: webhook.id, leaseHolder: holder };
    if (attempt.ok) {
      const { count } = await tx.webhook.updateMany({ where: mine, data: { cursor: delivery.eventId, consecutiveFailures: 0 } });
      return count === 1 ? "next" : "lease-lost";
    }
    const failures = webhook.consecutiveFailures + 1;
    if (failures < retry.maxConsecutiveFailures) {
      const nextAttemptAt = new Date(Date.now() + retry.delayAfterFailure(failures));
      const { count } = await tx.webhook.updateMany({
        where: mine,
        data: { consecutiveFailures: failures, nextAttemptAt, leaseHolder: null, leaseUntil: null },
      });
      return count === 1 ? "retry-later" : "lease-lost";
    }
    const disabledReason = `${failures} failed attempts in a row; the last: ${attempt.error ?? "failed"}`;
    const { count } = await tx.webhook.updateMany({
      where: mine,
      data: { consecutiveFailures: failures, state: "disabled", stateChangedAt: new Date(), disabledReason, leaseHolder: null, leaseUntil: null },
    });
    if (count === 0) return "lease-lost";
    const disabled = await tx.webhook.findUniqueOrThrow({ where: { id: webhook.id } });
    recorded(tx, disabled, (row) => ({ type: "webhook-disabled", actor: "system", subject: { webhook: row } }));
    return "disabled";
  });
}

/** Redeliveries asked for on the webhook, oldest first, with their events. */
export function requestedRedeliveries(db: Db, webhookId: string): Promise<WebhookDelivery[]> {
  return db.webhookDelivery.findMany({ where: { webhookId, redeliverRequestedAt: { not: null } }, orderBy: { redeliverRequestedAt: "asc" } });
}

/**
 * Records a redelivery's attempt; it changes neither the webhook's cursor nor its failure count.
 * Nothing is recorded for a delivery deleted while its request was under way.
 */
export async function recordRedelivery(db: Database, delivery: WebhookDelivery, attempt: AttemptResult, attemptedAt: Date): Promise<void> {
  await writeTransaction(db, [], (tx) => logAttempt(tx, delivery, attempt, attemptedAt, true)).catch(nullWhenGone);
}

/** The event a delivery carries, or null when it was deleted (and the delivery with it) meanwhile. */
export function eventOf(db: Db, delivery: Pick<WebhookDelivery, "eventId">): Promise<ChangeEvent | null> {
  return db.changeEvent.findUnique({ where: { id: delivery.eventId } });
}
