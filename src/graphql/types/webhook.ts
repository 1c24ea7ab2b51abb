// Webhooks: the graph's view of them (never their secret), their delivery log, and the mutations
// that manage them. The rules are the domain's (src/domain/webhooks.ts).
import type { Prisma } from "../../db/client.js";
import type { Webhook, WebhookDelivery } from "../../db/generated/sqlite/client.js";
import {
  createWebhook,
  deleteWebhook,
  enableWebhook,
  eventTypesOf,
  findWebhook,
  redeliverWebhookDelivery,
  rotateWebhookSecret,
  webhookNotFound,
  webhooksWhere,
  type WebhookScope,
  type WebhookWithSecret,
} from "../../domain/webhooks.js";
import { invalidRequest } from "../../domain/errors.js";
import { canSeeAccount } from "../../domain/permissions/index.js";
import { builder } from "../builder.js";
import { enumOfSpecWords } from "../enums.js";
import { EMPTY_CONNECTION, PagedList, type ConnectionArguments } from "../pagination.js";
import type { Context } from "../context.js";
import type { GraphQLResolveInfo } from "graphql";
import { AccountType } from "./account.js";
import { ChangeEventObject, ChangeEventTypeEnum } from "./change-event.js";
import { EnvironmentType } from "./environment.js";

const WebhookState = enumOfSpecWords("WebhookState", "Whether a webhook is sending.", {
  active: "Sending its events as they are committed.",
  disabled: "Stopped after too many failed deliveries in a row; `enableWebhook` resumes it at the event it stopped at.",
});
const WebhookDeliveryStatus = enumOfSpecWords("WebhookDeliveryStatus", "Where a delivery stands.", {
  pending: "Not attempted yet, or its attempt is under way.",
  delivered: "The receiver answered 2xx.",
  failed: "Its last attempt failed; it is retried after a backoff while the webhook is active.",
});
const WebhookAttemptOutcome = enumOfSpecWords("WebhookAttemptOutcome", "What one attempt achieved.", {
  delivered: "The receiver answered 2xx.",
  failed: "No answer, a refused address, a timeout, or a status other than 2xx.",
});

/** Webhook lists: oldest first. Delivery logs: newest first. */
const WEBHOOK_PAGES = new PagedList<Webhook>("Webhook", [{ createdAt: "asc" }, { id: "asc" }]);
const DELIVERY_PAGES = new PagedList<WebhookDelivery>("WebhookDelivery", [{ id: "desc" }]);
/** Attempts shown per delivery: every retry until a webhook is disabled, and then some redeliveries. */
const ATTEMPTS_SHOWN = 100;

// Reached through WebhookDelivery.attempts, by its model name.
builder.prismaObject("WebhookAttempt", {
  description: "One HTTP request of a delivery.",
  fields: (t) => ({
    attemptedAt: t.expose("attemptedAt", { type: "DateTime", description: "When the request was sent." }),
    outcome: t.field({ type: WebhookAttemptOutcome, description: "Delivered or failed.", resolve: (attempt) => attempt.outcome as never }),
    statusCode: t.exposeInt("statusCode", { nullable: true, description: "The receiver's HTTP status; null when it did not answer." }),
    latencyMs: t.exposeInt("latencyMs", { description: "Milliseconds from sending to the answer (or the failure)." }),
    error: t.exposeString("error", { nullable: true, description: "Why it failed, when it did." }),
    responseBody: t.exposeString("responseBody", { description: "The start of the receiver's answer (at most 1,024 characters)." }),
    redelivery: t.exposeBoolean("redelivery", { description: "Sent because someone asked for a redelivery." }),
  }),
});

const WebhookDeliveryType = builder.prismaNode("WebhookDelivery", {
  id: { field: "id" },
  nullable: true,
  description: "One change event sent to one webhook. Its `uuid` is the `webhook-id` header of every attempt, so receivers can drop repeats.",
  fields: (t) => ({
    uuid: t.expose("id", { type: "UUID", description: "The delivery's UUID: the message's `webhook-id`." }),
    webhookId: t.expose("webhookId", { type: "UUID", description: "The webhook it was sent to." }),
    eventId: t.expose("eventId", { type: "UUID", description: "The change event it carries." }),
    status: t.field({ type: WebhookDeliveryStatus, description: "Where it stands.", resolve: (delivery) => delivery.status as never }),
    createdAt: t.expose("createdAt", { type: "DateTime", description: "When it was first attempted." }),
    redeliveryRequested: t.boolean({
      description: "A redelivery was asked for and has not been sent yet.",
      select: { redeliverRequestedAt: true },
      resolve: (delivery) => delivery.redeliverRequestedAt !== null,
    }),
    event: t.field({
      type: ChangeEventObject,
      nullable: true,
      description: "The event it carries; null once retention removed it.",
      resolve: (delivery, _args, ctx) => ctx.db.changeEvent.findUnique({ where: { id: delivery.eventId } }),
    }),
    attempts: t.relation("attempts", {
      description: `Its attempts, newest first: the last ${ATTEMPTS_SHOWN}.`,
      query: { orderBy: [{ attemptedAt: "desc" }, { id: "desc" }], take: ATTEMPTS_SHOWN },
    }),
  }),
});

const WebhookDeliveryConnection = builder.connectionObject(
  { type: WebhookDeliveryType, name: "WebhookDeliveryConnection", description: "A page of a webhook's deliveries, newest first." },
  { name: "WebhookDeliveryEdge", description: "A delivery on a page, with its cursor." },
);

const WebhookType = builder.prismaNode("Webhook", {
  id: { field: "id" },
  nullable: true,
  description:
    "Change events of an environment or an account, POSTed to a URL in event order and signed the Standard Webhooks way (docs/webhooks.md). " +
    "Its signing secret is shown only by `createWebhook` and `rotateWebhookSecret`.",
  // Never the secret, nor the sending bookkeeping: only the columns the fields below read.
  select: { id: true },
  fields: (t) => ({
    uuid: t.expose("id", { type: "UUID", description: "The webhook's UUID: what the webhook mutations and REST take." }),
    url: t.exposeString("url", { description: "Where events are POSTed." }),
    eventTypes: t.field({
      type: [ChangeEventTypeEnum],
      nullable: true,
      description: "The event types it receives; null for every type.",
      select: { eventTypes: true },
      resolve: (webhook) => eventTypesOf(webhook),
    }),
    state: t.field({ type: WebhookState, description: "Active or disabled.", select: { state: true }, resolve: (webhook) => webhook.state as never }),
    disabledReason: t.exposeString("disabledReason", { nullable: true, description: "Why it was disabled, while it is." }),
    consecutiveFailures: t.exposeInt("consecutiveFailures", { description: "Failed attempts since the last delivered one." }),
    nextAttemptAt: t.field({
      type: "DateTime",
      nullable: true,
      description: "When a failed delivery is tried again; null unless it is waiting for a retry.",
      select: { nextAttemptAt: true, consecutiveFailures: true, state: true },
      resolve: (webhook) => (webhook.state === "active" && webhook.consecutiveFailures > 0 ? webhook.nextAttemptAt : null),
    }),
    environmentId: t.expose("environmentId", {
      type: "UUID",
      nullable: true,
      description: "The environment whose events it receives; null for an account's webhook.",
    }),
    accountId: t.expose("accountId", { type: "UUID", description: "The account whose events (or whose environment's) it receives; its plan limits webhooks." }),
    createdAt: t.expose("createdAt", { type: "DateTime", description: "When it was created." }),
    createdById: t.expose("createdById", { type: "UUID", description: "Who created it." }),
    deliveries: t.connection(
      {
        type: WebhookDeliveryType,
        description: "Its delivery log, newest first, kept as long as change events are.",
        resolve: (webhook, args, ctx, info) => deliveryPage(webhook.id, args, ctx, info),
      },
      WebhookDeliveryConnection,
    ),
  }),
});

function deliveryPage(webhookId: string, args: ConnectionArguments, ctx: Context, info: GraphQLResolveInfo) {
  ctx.answer.unversioned = true;
  return DELIVERY_PAGES.resolveRoot(args, ctx, info, {
    nodeType: "WebhookDelivery",
    where: { webhookId },
    findMany: (query) => ctx.db.webhookDelivery.findMany(query as Prisma.WebhookDeliveryFindManyArgs),
  });
}

const WebhookConnection = builder.connectionObject(
  { type: WebhookType, name: "WebhookConnection", description: "A page of webhooks, oldest first." },
  { name: "WebhookEdge", description: "A webhook on a page, with its cursor." },
);

const WebhookWithSecretType = builder.objectRef<WebhookWithSecret>("WebhookWithSecret").implement({
  description: "A webhook with its signing secret, shown this once: store it where the receiver verifies signatures.",
  fields: (t) => ({
    secret: t.exposeString("secret", { description: "The signing secret (`whsec_…`), for the `standardwebhooks` libraries." }),
    webhook: t.field({ type: WebhookType, description: "The webhook.", resolve: (created) => created.webhook }),
  }),
});

async function webhookPage(scope: WebhookScope, args: ConnectionArguments, ctx: Context, info: GraphQLResolveInfo) {
  ctx.answer.unversioned = true;
  // An account reached through another object (a release's owner): as its other lists, empty for others.
  if ("accountId" in scope && !canSeeAccount(ctx.actor(), scope.accountId)) {
    return EMPTY_CONNECTION;
  }
  const where = await webhooksWhere(ctx.db, ctx.actor(), scope);
  return WEBHOOK_PAGES.resolveRoot(args, ctx, info, {
    nodeType: "Webhook",
    where,
    findMany: (query) => ctx.db.webhook.findMany(query as Prisma.WebhookFindManyArgs),
  });
}

builder.prismaObjectField(EnvironmentType, "webhooks", (t) =>
  t.connection(
    {
      type: WebhookType,
      description: "This environment's webhooks, oldest first. Its owner and deployers see them; viewers get AUTH_FORBIDDEN.",
      resolve: (environment, args, ctx, info) => webhookPage({ environmentId: environment.id }, args, ctx, info),
    },
    WebhookConnection,
  ),
);

builder.prismaObjectField(AccountType, "webhooks", (t) =>
  t.connection(
    {
      type: WebhookType,
      description:
        "This account's own webhooks (not its environments'), oldest first. Only the account itself and administrators see them; " +
        "for anyone else (an owner reached through a release) the connection is empty.",
      resolve: (account, args, ctx, info) => webhookPage({ accountId: account.id }, args, ctx, info),
    },
    WebhookConnection,
  ),
);

const CreateWebhookInput = builder.inputType("CreateWebhookInput", {
  description: "A new webhook: for an environment (`environmentId`) or for an account (`accountId`), not both.",
  fields: (t) => ({
    environmentId: t.field({ type: "UUID", required: false, description: "The environment whose events it receives (its owner or a deployer may)." }),
    accountId: t.field({ type: "UUID", required: false, description: "The account whose events it receives (the account itself, or an administrator)." }),
    url: t.string({ required: true, description: "Where to POST events: https, to a public address (docs/webhooks.md)." }),
    eventTypes: t.field({ type: [ChangeEventTypeEnum], required: false, description: "Only these event types; every type when omitted." }),
  }),
});

function scopeOf(input: { environmentId?: string | null | undefined; accountId?: string | null | undefined }): WebhookScope {
  if (input.environmentId && !input.accountId) return { environmentId: input.environmentId };
  if (input.accountId && !input.environmentId) return { accountId: input.accountId };
  throw invalidRequest(["input: give either environmentId or accountId, not both"]);
}

builder.queryField("webhook", (t) =>
  t.prismaField({
    type: WebhookType,
    nullable: false,
    description: "A webhook you may manage.",
    args: { id: t.arg({ type: "UUID", required: true, description: "The webhook's `uuid`." }) },
    resolve: async (query, _root, args, ctx) => {
      ctx.answer.unversioned = true;
      await findWebhook(ctx.db, ctx.actor(), args.id);
      // Deleted meanwhile: not found, as it would be now.
      const webhook = await ctx.db.webhook.findUnique({ ...query, where: { id: args.id } });
      if (!webhook) throw webhookNotFound(args.id);
      return webhook;
    },
  }),
);

builder.mutationFields((t) => ({
  createWebhook: t.field({
    type: WebhookWithSecretType,
    description: "Create a webhook for an environment or an account; its secret is in the answer, once. Limited per plan.",
    args: { input: t.arg({ type: CreateWebhookInput, required: true, description: "What to create." }) },
    resolve: (_root, { input }, ctx) =>
      createWebhook(ctx.db, ctx.actor(), ctx.webhookPolicy, { scope: scopeOf(input), url: input.url, eventTypes: input.eventTypes ?? null }),
  }),
  rotateWebhookSecret: t.field({
    type: WebhookWithSecretType,
    description: "Replace a webhook's signing secret; the new one signs from now on and is in the answer, once.",
    args: { id: t.arg({ type: "UUID", required: true, description: "The webhook's `uuid`." }) },
    resolve: (_root, args, ctx) => rotateWebhookSecret(ctx.db, ctx.actor(), args.id),
  }),
  enableWebhook: t.field({
    type: WebhookType,
    description: "Enable a disabled webhook: it retries the event it stopped at, then sends what followed. Idempotent.",
    args: { id: t.arg({ type: "UUID", required: true, description: "The webhook's `uuid`." }) },
    resolve: (_root, args, ctx) => enableWebhook(ctx.db, ctx.actor(), args.id),
  }),
  deleteWebhook: t.field({
    type: "UUID",
    description: "Delete a webhook and its delivery log; answers its `uuid`.",
    args: { id: t.arg({ type: "UUID", required: true, description: "The webhook's `uuid`." }) },
    resolve: async (_root, args, ctx) => (await deleteWebhook(ctx.db, ctx.actor(), args.id)).id,
  }),
  redeliverWebhookDelivery: t.field({
    type: WebhookDeliveryType,
    description: "Send a logged delivery again (same `webhook-id`), soon, whatever its outcome so far; the attempt joins its log.",
    args: { id: t.arg({ type: "UUID", required: true, description: "The delivery's `uuid`." }) },
    resolve: (_root, args, ctx) => redeliverWebhookDelivery(ctx.db, ctx.actor(), args.id),
  }),
}));
