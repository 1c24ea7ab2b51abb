// REST routes for webhooks (docs/webhooks.md): an environment's and an account's, their secrets,
// re-enabling, and the delivery log with redelivery.
import { invalidRequest } from "../../../domain/errors.js";
import { CHANGE_EVENT_TYPES } from "../../../domain/events.js";
import { isJsonObject } from "../body.js";
import { graphQLNameOf, specWordOf } from "../enum-words.js";
import { graphql, type ResultOf } from "../graphql.js";
import { PAGE_PARAMETERS, PAGES_DESCRIPTION, pageBody, pageRequestOf, type PageRequest } from "../paging.js";
import { present, restRoute, type RestInput, type RestRoute } from "../route.js";
import {
  WEBHOOK_ATTEMPT_OUTCOMES,
  WEBHOOK_DELIVERY_STATUSES,
  WEBHOOK_STATES,
  Webhook,
  WebhookCreation,
  WebhookDelivery,
  WebhookDeliveryList,
  WebhookList,
  WebhookWithSecret,
  type RestWebhook,
  type RestWebhookDelivery,
} from "../views.js";

const WEBHOOK_VIEW = graphql(`
  fragment WebhookView on Webhook {
    id: uuid
    url
    eventTypes
    state
    disabledReason
    consecutiveFailures
    nextAttemptAt
    environmentId
    accountId
    createdAt
    createdBy: createdById
  }
`);

const DELIVERY_VIEW = graphql(`
  fragment WebhookDeliveryView on WebhookDelivery {
    id: uuid
    webhookId
    eventId
    status
    createdAt
    redeliveryRequested
    attempts {
      attemptedAt
      outcome
      statusCode
      latencyMs
      error
      responseBody
      redelivery
    }
  }
`);

function toWebhook(node: ResultOf<typeof WEBHOOK_VIEW>): RestWebhook {
  return {
    ...node,
    eventTypes: node.eventTypes?.map((type) => specWordOf(CHANGE_EVENT_TYPES, type)) ?? null,
    state: specWordOf(WEBHOOK_STATES, node.state),
  };
}

function toDelivery(node: ResultOf<typeof DELIVERY_VIEW>): RestWebhookDelivery {
  return {
    ...node,
    status: specWordOf(WEBHOOK_DELIVERY_STATUSES, node.status),
    attempts: node.attempts.map((attempt) => ({ ...attempt, outcome: specWordOf(WEBHOOK_ATTEMPT_OUTCOMES, attempt.outcome) })),
  };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Every problem of the path's ids and the given ones, at once. */
function rejectIfAny(problems: string[], params: Record<string, string>): void {
  for (const [name, value] of Object.entries(params)) if (!UUID.test(value)) problems.unshift(`path.${name}: "${value}" is not a UUID`);
  if (problems.length > 0) throw invalidRequest(problems);
}

function pageOf({ query, params }: RestInput): PageRequest {
  const problems: string[] = [];
  const page = pageRequestOf(query, problems);
  rejectIfAny(problems, params);
  return page;
}

/** The creation body as the `$body` variable, its type words as GraphQL names them; other shapes pass on for GraphQL to report. */
function creationOf(input: RestInput, scope: "environmentId" | "accountId"): { body: unknown } {
  if (input.body === undefined) rejectIfAny(['body: required, e.g. {"url": "https://example.com/hooks/toolgate"}'], input.params);
  rejectIfAny([], input.params);
  const body = input.body;
  if (!isJsonObject(body)) return { body };
  const eventTypes = Array.isArray(body.eventTypes) ? body.eventTypes.map((type) => graphQLNameOf(CHANGE_EVENT_TYPES, type)) : body.eventTypes;
  return { body: { ...body, ...(eventTypes === undefined ? {} : { eventTypes }), [scope]: input.params[scope] } };
}

const creationContract = (whose: string) => ({
  tag: "Webhooks",
  summary: `Create a webhook for ${whose}`,
  description:
    "Its answer holds the signing secret, shown this once. The webhook receives the events committed from now on, " +
    "starting with its own `webhook-created`. Limited per plan.",
  body: { schema: WebhookCreation, required: true, example: { url: "https://example.com/hooks/toolgate", eventTypes: ["grant-created", "grant-deleted"] } },
  success: { status: 201, schema: WebhookWithSecret },
  refusals: [422],
});

const CREATE_DOCUMENT = graphql(
  `
  mutation CreateWebhook($body: CreateWebhookInput!) {
    createWebhook(input: $body) {
      secret
      webhook { ...WebhookView }
    }
  }
`,
  [WEBHOOK_VIEW],
);

const withSecret = (data: ResultOf<typeof CREATE_DOCUMENT>["createWebhook"]) => ({ webhook: toWebhook(data.webhook), secret: data.secret });

export const WEBHOOK_ROUTES: RestRoute[] = [
  restRoute({
    name: "create environment webhook",
    method: "POST",
    path: "/v1/envs/:environmentId/webhooks",
    contract: creationContract("an environment (its owner or a deployer)"),
    document: CREATE_DOCUMENT,
    variables: (input) => creationOf(input, "environmentId"),
    argumentLocations: { "input.url": "body.url", "input.eventTypes": "body.eventTypes", input: "body" },
    respond: (data) => withSecret(present(data.createWebhook, "createWebhook")),
  }),
  restRoute({
    name: "list environment webhooks",
    method: "GET",
    path: "/v1/envs/:environmentId/webhooks",
    contract: {
      tag: "Webhooks",
      summary: "List an environment's webhooks",
      description: `The environment's webhooks, oldest first, ${PAGES_DESCRIPTION} Its owner and deployers see them; viewers get 403.`,
      query: PAGE_PARAMETERS,
      success: { status: 200, schema: WebhookList },
    },
    document: graphql(
      `
      query EnvironmentWebhooks($environmentId: UUID!, $limit: Int!, $cursor: String) {
        environment(id: $environmentId) {
          webhooks(first: $limit, after: $cursor) {
            edges { node { ...WebhookView } }
            pageInfo { hasNextPage endCursor }
          }
        }
      }
    `,
      [WEBHOOK_VIEW],
    ),
    variables: (input) => ({ environmentId: input.params.environmentId, ...pageOf(input) }),
    argumentLocations: { after: "query.cursor" },
    respond: (data) => pageBody(present(data.environment, "environment").webhooks, toWebhook),
  }),
  restRoute({
    name: "create account webhook",
    method: "POST",
    path: "/v1/accounts/:accountId/webhooks",
    contract: creationContract("an account (the account itself, or an administrator)"),
    document: CREATE_DOCUMENT,
    variables: (input) => creationOf(input, "accountId"),
    argumentLocations: { "input.url": "body.url", "input.eventTypes": "body.eventTypes", input: "body" },
    respond: (data) => withSecret(present(data.createWebhook, "createWebhook")),
  }),
  restRoute({
    name: "list account webhooks",
    method: "GET",
    path: "/v1/accounts/:accountId/webhooks",
    contract: {
      tag: "Webhooks",
      summary: "List an account's webhooks",
      description: `The account's own webhooks (not its environments'), oldest first, ${PAGES_DESCRIPTION}`,
      query: PAGE_PARAMETERS,
      success: { status: 200, schema: WebhookList },
    },
    document: graphql(
      `
      query AccountWebhooks($accountId: UUID!, $limit: Int!, $cursor: String) {
        account(id: $accountId) {
          webhooks(first: $limit, after: $cursor) {
            edges { node { ...WebhookView } }
            pageInfo { hasNextPage endCursor }
          }
        }
      }
    `,
      [WEBHOOK_VIEW],
    ),
    variables: (input) => ({ accountId: input.params.accountId, ...pageOf(input) }),
    argumentLocations: { after: "query.cursor" },
    respond: (data) => pageBody(present(data.account, "account").webhooks, toWebhook),
  }),
  restRoute({
    name: "get webhook",
    method: "GET",
    path: "/v1/webhooks/:webhookId",
    contract: { tag: "Webhooks", summary: "Get a webhook", success: { status: 200, schema: Webhook } },
    document: graphql(
      `
      query GetWebhook($webhookId: UUID!) {
        webhook(id: $webhookId) { ...WebhookView }
      }
    `,
      [WEBHOOK_VIEW],
    ),
    variables: (input) => (rejectIfAny([], input.params), { webhookId: input.params.webhookId }),
    respond: (data) => toWebhook(data.webhook),
  }),
  restRoute({
    name: "delete webhook",
    method: "DELETE",
    path: "/v1/webhooks/:webhookId",
    contract: {
      tag: "Webhooks",
      summary: "Delete a webhook",
      description: "Deletes it and its delivery log; nothing more is sent to it.",
      success: { status: 204 },
    },
    document: graphql(`
      mutation DeleteWebhook($webhookId: UUID!) {
        deleteWebhook(id: $webhookId)
      }
    `),
    variables: (input) => (rejectIfAny([], input.params), { webhookId: input.params.webhookId }),
    respond: () => undefined,
  }),
  restRoute({
    name: "rotate webhook secret",
    method: "POST",
    path: "/v1/webhooks/:webhookId/rotate-secret",
    contract: {
      tag: "Webhooks",
      summary: "Rotate a webhook's signing secret",
      description: "The new secret signs every request from now on; it is in the answer, once.",
      success: { status: 200, schema: WebhookWithSecret },
    },
    document: graphql(
      `
      mutation RotateWebhookSecret($webhookId: UUID!) {
        rotateWebhookSecret(id: $webhookId) {
          secret
          webhook { ...WebhookView }
        }
      }
    `,
      [WEBHOOK_VIEW],
    ),
    variables: (input) => (rejectIfAny([], input.params), { webhookId: input.params.webhookId }),
    respond: (data) => withSecret(present(data.rotateWebhookSecret, "rotateWebhookSecret")),
  }),
  restRoute({
    name: "enable webhook",
    method: "POST",
    path: "/v1/webhooks/:webhookId/enable",
    contract: {
      tag: "Webhooks",
      summary: "Enable a disabled webhook",
      description: "It retries the event it stopped at, then sends what followed. Enabling an active webhook changes nothing.",
      success: { status: 200, schema: Webhook },
    },
    document: graphql(
      `
      mutation EnableWebhook($webhookId: UUID!) {
        enableWebhook(id: $webhookId) { ...WebhookView }
      }
    `,
      [WEBHOOK_VIEW],
    ),
    variables: (input) => (rejectIfAny([], input.params), { webhookId: input.params.webhookId }),
    respond: (data) => toWebhook(present(data.enableWebhook, "enableWebhook")),
  }),
  restRoute({
    name: "list webhook deliveries",
    method: "GET",
    path: "/v1/webhooks/:webhookId/deliveries",
    contract: {
      tag: "Webhooks",
      summary: "List a webhook's deliveries",
      description: `The delivery log, newest first, each delivery with its attempts, ${PAGES_DESCRIPTION}`,
      query: PAGE_PARAMETERS,
      success: { status: 200, schema: WebhookDeliveryList },
    },
    document: graphql(
      `
      query WebhookDeliveries($webhookId: UUID!, $limit: Int!, $cursor: String) {
        webhook(id: $webhookId) {
          deliveries(first: $limit, after: $cursor) {
            edges { node { ...WebhookDeliveryView } }
            pageInfo { hasNextPage endCursor }
          }
        }
      }
    `,
      [DELIVERY_VIEW],
    ),
    variables: (input) => ({ webhookId: input.params.webhookId, ...pageOf(input) }),
    argumentLocations: { after: "query.cursor" },
    respond: (data) => pageBody(data.webhook.deliveries, toDelivery),
  }),
  restRoute({
    name: "redeliver webhook delivery",
    method: "POST",
    path: "/v1/webhook-deliveries/:deliveryId/redeliver",
    contract: {
      tag: "Webhooks",
      summary: "Redeliver a delivery",
      description: "Sends the delivery again soon, with the same `webhook-id`, whatever its outcome so far; the attempt joins its log.",
      success: { status: 202, schema: WebhookDelivery },
    },
    document: graphql(
      `
      mutation RedeliverWebhookDelivery($deliveryId: UUID!) {
        redeliverWebhookDelivery(id: $deliveryId) { ...WebhookDeliveryView }
      }
    `,
      [DELIVERY_VIEW],
    ),
    variables: (input) => (rejectIfAny([], input.params), { deliveryId: input.params.deliveryId }),
    respond: (data) => toDelivery(present(data.redeliverWebhookDelivery, "redeliverWebhookDelivery")),
  }),
];
