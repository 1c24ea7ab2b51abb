// Webhooks: an environment's change events (its owner and deployers manage them) or an account's
// (its owner), sent to a URL. This module holds the rules for creating and changing them; sending
// is src/webhooks/, and what it stores per event and attempt is webhook-deliveries.ts.
import { randomBytes } from "node:crypto";
import type { Database, Db, Prisma } from "../db/client.js";
import type { Webhook, WebhookDelivery } from "../db/generated/sqlite/client.js";
import type { Actor } from "./actor.js";
import { DomainError, forbidden, invalidRequest, limitExceeded } from "./errors.js";
import { CHANGE_EVENT_TYPES, newestEventId, recorded, type ChangeEventType, type EventStream } from "./events.js";
import { accountNotFound, canSeeAccount, environmentAccess, requireAccountVisible, roleIn, type EnvironmentRole } from "./permissions/index.js";
import { acceptedSharesOf } from "./permissions/visibility.js";
import { limitsOf } from "./plans.js";
import { writeLock, writeTransaction } from "./write-transaction.js";

/** Which URLs a webhook may send to: the operator's network rules (src/webhooks/urls.ts). */
export interface WebhookPolicy {
  urlProblems(url: string): string[];
}

/** Whose events a webhook receives. */
export type WebhookScope = { environmentId: string } | { accountId: string };

export interface NewWebhook {
  scope: WebhookScope;
  url: string;
  /** The event types it receives; every type when null or absent. */
  eventTypes?: readonly string[] | null | undefined;
}

/** A webhook with its signing secret: shown when it is made or rotated, never again. */
export interface WebhookWithSecret {
  webhook: Webhook;
  secret: string;
}

export const webhookNotFound = (id: string) => new DomainError("WEBHOOK_NOT_FOUND", `webhook ${id} not found`);
const webhookDeliveryNotFound = (id: string) => new DomainError("WEBHOOK_DELIVERY_NOT_FOUND", `webhook delivery ${id} not found`);

/** A Standard Webhooks secret: `whsec_` and 32 random bytes in base64. */
function newSecret(): string {
  return `whsec_${randomBytes(32).toString("base64")}`;
}

/** The stored form of a type filter: a JSON array of type words, or null for every type. */
function eventTypeFilter(types: readonly string[] | null | undefined, problems: string[]): string | null {
  if (types === null || types === undefined) return null;
  const unknown = types.filter((type) => !(CHANGE_EVENT_TYPES as readonly string[]).includes(type));
  for (const type of unknown) problems.push(`input.eventTypes: ${JSON.stringify(type)} is not a change event type`);
  if (types.length === 0) problems.push("input.eventTypes: must name at least one type (leave it out for every type)");
  return JSON.stringify([...new Set(types)].sort());
}

/** The event types a webhook receives, or null for every type. */
export function eventTypesOf(webhook: Pick<Webhook, "eventTypes">): ChangeEventType[] | null {
  return webhook.eventTypes === null ? null : (JSON.parse(webhook.eventTypes) as ChangeEventType[]);
}

/** The stream whose events a webhook receives. */
export function streamOf(webhook: Pick<Webhook, "environmentId" | "accountId">): EventStream {
  return webhook.environmentId ? { environmentId: webhook.environmentId } : { accountId: webhook.accountId };
}

/** The account a new webhook belongs to (its plan limits the number of webhooks), after the access checks. */
async function ownerFor(db: Db, actor: Actor, scope: WebhookScope): Promise<{ id: string; plan: string }> {
  if ("environmentId" in scope) {
    const access = await environmentAccess(db, actor, scope.environmentId);
    requireManager(access.role, scope.environmentId);
    return access.environment.owner;
  }
  requireAccountVisible(actor, scope.accountId);
  const account = await db.account.findUnique({ where: { id: scope.accountId }, select: { id: true, plan: true } });
  if (!account) throw accountNotFound(scope.accountId);
  return account;
}

function requireManager(role: EnvironmentRole, environmentId: string): void {
  if (role === "viewer") throw forbidden(`viewers of environment ${environmentId} may not see or manage its webhooks`);
}

/**
 * Creates a webhook. It receives the events committed after it, starting with its own
 * `webhook-created` (a receiver learns at once that it is reachable and verifies).
 */
export async function createWebhook(db: Database, actor: Actor, policy: WebhookPolicy, input: NewWebhook): Promise<WebhookWithSecret> {
  const problems = policy.urlProblems(input.url).map((problem) => `input.url: ${problem}`);
  const eventTypes = eventTypeFilter(input.eventTypes, problems);
  if (problems.length > 0) throw invalidRequest(problems);
  const owner = await ownerFor(db, actor, input.scope);
  const secret = newSecret();
  const webhook = await writeTransaction(db, [writeLock.account(owner.id)], async (tx) => {
    const limit = limitsOf(owner.plan).webhooksPerAccount;
    if (limit !== null && (await tx.webhook.count({ where: { accountId: owner.id } })) >= limit) {
      throw limitExceeded(`plan ${owner.plan} allows ${limit} webhooks per account`);
    }
    const environmentId = "environmentId" in input.scope ? input.scope.environmentId : null;
    const stream: EventStream = environmentId ? { environmentId } : { accountId: owner.id };
    const created = await tx.webhook.create({
      data: { accountId: owner.id, environmentId, url: input.url, eventTypes, secret, createdById: actor.id, cursor: await newestEventId(tx, stream) },
    });
    return recorded(tx, created, (row) => ({ type: "webhook-created", actor, subject: { webhook: row } }));
  });
  return { webhook, secret };
}

/** The webhooks of an environment or account, for one who may manage them; oldest first. */
export async function webhooksWhere(db: Db, actor: Actor, scope: WebhookScope): Promise<Prisma.WebhookWhereInput> {
  if ("environmentId" in scope) {
    requireManager((await environmentAccess(db, actor, scope.environmentId)).role, scope.environmentId);
    return { environmentId: scope.environmentId };
  }
  if (!canSeeAccount(actor, scope.accountId)) throw accountNotFound(scope.accountId);
  return { accountId: scope.accountId, environmentId: null };
}

/** A webhook the actor may manage, or WEBHOOK_NOT_FOUND (a viewer of its environment: AUTH_FORBIDDEN). */
export async function findWebhook(db: Db, actor: Actor, webhookId: string): Promise<Webhook> {
  const found = await db.webhook.findUnique({
    where: { id: webhookId },
    include: { environment: { select: { id: true, ownerAccountId: true, shares: { where: acceptedSharesOf(actor.id) } } } },
  });
  if (!found) throw webhookNotFound(webhookId);
  const { environment, ...webhook } = found;
  if (environment) {
    const role = roleIn(actor, environment);
    if (!role) throw webhookNotFound(webhookId);
    requireManager(role, environment.id);
  } else if (!canSeeAccount(actor, webhook.accountId)) {
    throw webhookNotFound(webhookId);
  }
  return webhook;
}

/** A new signing secret; the old one stops signing at once. */
export async function rotateWebhookSecret(db: Database, actor: Actor, webhookId: string): Promise<WebhookWithSecret> {
  await findWebhook(db, actor, webhookId);
  const secret = newSecret();
  const webhook = await writeTransaction(db, [], async (tx) => {
    const rotated = await tx.webhook.update({ where: { id: webhookId }, data: { secret } }).catch(notFoundAs(webhookId));
    return recorded(tx, rotated, (row) => ({ type: "webhook-secret-rotated", actor, subject: { webhook: row } }));
  });
  return { webhook, secret };
}

/**
 * Enables a disabled webhook: it retries the event it stopped at, then sends what followed.
 * Enabling an active one changes nothing.
 */
export async function enableWebhook(db: Database, actor: Actor, webhookId: string): Promise<Webhook> {
  await findWebhook(db, actor, webhookId);
  return writeTransaction(db, [], async (tx) => {
    const now = new Date();
    const { count } = await tx.webhook.updateMany({
      where: { id: webhookId, state: "disabled" },
      data: { state: "active", stateChangedAt: now, disabledReason: null, consecutiveFailures: 0, nextAttemptAt: now },
    });
    const webhook = await tx.webhook.findUnique({ where: { id: webhookId } });
    if (!webhook) throw webhookNotFound(webhookId);
    return count === 1 ? recorded(tx, webhook, (row) => ({ type: "webhook-enabled", actor, subject: { webhook: row } })) : webhook;
  });
}

/** Deletes a webhook and its delivery log; nothing more is sent to it. */
export async function deleteWebhook(db: Database, actor: Actor, webhookId: string): Promise<Webhook> {
  await findWebhook(db, actor, webhookId);
  return writeTransaction(db, [], async (tx) => {
    const deleted = await tx.webhook.delete({ where: { id: webhookId } }).catch(notFoundAs(webhookId));
    return recorded(tx, deleted, (row) => ({ type: "webhook-deleted", actor, subject: { webhook: row } }));
  });
}

/** Asks for one more attempt of a logged delivery (its `webhook-id` unchanged), whatever its outcome so far. */
export async function redeliverWebhookDelivery(db: Database, actor: Actor, deliveryId: string): Promise<WebhookDelivery> {
  const delivery = await db.webhookDelivery.findUnique({ where: { id: deliveryId }, select: { webhookId: true } });
  if (!delivery) throw webhookDeliveryNotFound(deliveryId);
  await findWebhook(db, actor, delivery.webhookId).catch((error: unknown) => {
    throw error instanceof DomainError && error.code === "WEBHOOK_NOT_FOUND" ? webhookDeliveryNotFound(deliveryId) : error;
  });
  return db.webhookDelivery
    .update({ where: { id: deliveryId }, data: { redeliverRequestedAt: new Date() } })
    .catch(notFoundAs(deliveryId, webhookDeliveryNotFound));
}

/** Prisma's "record not found" (P2025: deleted meanwhile) as the resource's not-found error. */
function notFoundAs(id: string, error: (id: string) => DomainError = webhookNotFound) {
  return (cause: unknown): never => {
    if (typeof cause === "object" && cause !== null && "code" in cause && cause.code === "P2025") throw error(id);
    throw cause;
  };
}
