// The REST resources (docs/api.md) and request bodies as zod schemas. The functions
// that build responses from typed GraphQL results return these schemas' types, so a schema change to
// a field they pass through (its type, its nullability) fails the build instead of changing a
// response; the OpenAPI document (openapi.ts) is generated from the same schemas, registered here
// under their component names.
import { z } from "zod";
import { CHANGE_EVENT_TYPES } from "../../domain/events.js";
import { RELEASE_SELECTOR_TYPES } from "../../domain/grant-release-selector.js";
import { PUBLICATION_ACTIONS } from "../../domain/publication-plan.js";
import { RELEASE_LIFECYCLES } from "../../domain/releases.js";
import { KEBAB } from "../../domain/definitions/names.js";
import {
  commandNodeSchema,
  docSchema,
  middlewareDefinitionSchema,
  presentedSurfaceSchema,
  schemaSchema,
  typeRefSchema,
} from "../../domain/definitions/schema.js";
import { nextCursorSchema } from "./paging.js";

/** The schemas the OpenAPI document names in `components.schemas`, by component name. */
export const restSchemas = z.registry<{ id: string }>();

/** Names `schema` for the document; its description goes where `.describe()` puts descriptions. */
export function named<S extends z.ZodType>(schema: S, id: string, description?: string): S {
  restSchemas.add(schema, { id });
  if (description !== undefined) z.globalRegistry.add(schema, { ...z.globalRegistry.get(schema), description });
  return schema;
}

// The definition's parts, named so that the document refers to each once.
named(typeRefSchema, "TypeRef", "A reference to a type: a primitive, or a def of the enclosing schema.");
named(schemaSchema, "Schema", "The types a command's values and results are made of: a root type and its defs.");
named(docSchema, "Doc", "Documentation of a definition or command: summary, description and examples.");
named(commandNodeSchema, "CommandNode", "One command of the definition's command tree, with its switches, positionals and subcommands.");
const MiddlewareDefinition = named(
  middlewareDefinitionSchema,
  "MiddlewareDefinition",
  "A whole middleware definition. Beyond this schema, a definition published or validated must keep the rules over several values " +
    "that JSON Schema cannot state (400 with every issue listed): names and aliases unique in their namespace " +
    "(the definition's, a node's, sibling commands', switches in scope, positionals, errors, formatters, type ids); " +
    "`subcommands` indices forming a tree rooted at node 0 that reaches every node; type refs naming a def of their schema; " +
    "constraints naming an option or flag of their command; a tail's `min` at most its `max`; " +
    "`default_formatter` one of the formatters (empty when there are none).",
);
const PresentedSurface = named(
  presentedSurfaceSchema,
  "PresentedSurface",
  "What a release presents of its definition (`scope.value.presented`): the commands clients see.",
);

export const GRANT_LIFECYCLES = ["active", "deleted"] as const;
export const RELEASE_ORIGINS = ["ordinary", "protected-system"] as const;
export const SYSTEM_AVAILABILITIES = ["grantable", "auto-granted", "ambient"] as const;

// What the GraphQL UUID scalar admits: any version and variant (z.uuid() would demand RFC 9562 ones).
const uuid = () => z.guid();
const dateTime = () => z.iso.datetime({ offset: true });

const Grant = named(
  z.strictObject({
    id: uuid(),
    environmentId: uuid(),
    toolMiddlewareReleaseId: uuid(),
    protected: z.boolean(),
    automatic: z.boolean(),
    followCoordinates: z.boolean(),
    lifecycle: z.enum(GRANT_LIFECYCLES),
    createdAt: dateTime(),
    createdBy: uuid(),
    stateChangedAt: dateTime(),
    stateChangedBy: uuid(),
  }),
  "Grant",
  "An environment's grant of one exact release.",
);

const GrantedRelease = named(
  z.strictObject({
    id: uuid(),
    name: z.string(),
    version: z.string(),
    definition: MiddlewareDefinition,
    metadataVersion: z.string(),
    metadataDigest: z.string(),
    sourceDigest: z.string(),
  }),
  "GrantedRelease",
  "The granted release as a grant view shows it, with its whole definition.",
);

export const GrantView = named(
  z.strictObject({
    grant: Grant,
    release: GrantedRelease,
    releaseOwner: z.strictObject({ id: uuid(), name: z.string(), email: z.string() }),
  }),
  "GrantView",
  "A grant with its release and the release's owner.",
);

export const GrantList = named(
  z.strictObject({ values: z.array(GrantView), nextCursor: nextCursorSchema() }),
  "GrantList",
  "A page of the environment's active grants, ordered by release name, version, then createdAt.",
);

export const ToolRelease = named(
  z.strictObject({
    id: uuid(),
    ownerAccountId: uuid(),
    name: z.string(),
    version: z.string(),
    source: z.strictObject({ kind: z.string(), componentId: uuid(), componentRevision: z.int(), componentName: z.string() }),
    definition: PresentedSurface,
    metadataVersion: z.string(),
    metadataDigest: z.string(),
    immutable: z.boolean(),
    lifecycle: z.enum(RELEASE_LIFECYCLES),
    origin: z.enum(RELEASE_ORIGINS),
    systemAvailability: z.enum(SYSTEM_AVAILABILITIES),
    createdAt: dateTime(),
    createdBy: uuid(),
    stateChangedAt: dateTime(),
    stateChangedBy: uuid(),
  }),
  "ToolRelease",
  "A published tool release; `definition` is its presented surface.",
);

export const ToolReleaseList = named(
  z.strictObject({ values: z.array(ToolRelease), nextCursor: nextCursorSchema() }),
  "ToolReleaseList",
  "A page of the account's releases, ordered by name, version, then createdAt.",
);

const PlanEntry = named(
  z.strictObject({ action: z.enum(PUBLICATION_ACTIONS), name: z.string(), version: z.string(), reason: z.string() }),
  "PlanEntry",
  "What apply does (or refuses to do) for one publication.",
);

export const ValidationResult = named(
  z.strictObject({ publicationPlan: z.array(PlanEntry) }),
  "ValidationResult",
  "One plan entry per publication, in request order.",
);

export const ApplyResult = named(
  z.strictObject({
    publicationPlan: z.array(PlanEntry),
    releases: z.array(ToolRelease).describe("The releases published or superseded."),
    grants: z.array(GrantView).describe("The grants created."),
    deletedGrantIds: z.array(uuid()),
  }),
  "ApplyResult",
);

const ChangeEvent = named(
  z.strictObject({
    id: uuid().describe("UUID v7; ids grow in commit order, so pass the last one handled as `after`."),
    type: z.enum(CHANGE_EVENT_TYPES),
    occurredAt: dateTime(),
    actorAccountId: uuid().nullable().describe("Who made the change; null for the system (CLI, demo seed, provisioning)."),
    environmentId: uuid().nullable(),
    releaseId: uuid().nullable(),
    accountId: uuid().describe("The account whose resource changed."),
    state: z.record(z.string(), z.unknown()).describe("The resource right after the change, as its row (docs/events.md)."),
  }),
  "ChangeEvent",
  "A recorded state transition (docs/events.md).",
);

export const ChangeEventList = named(
  z.strictObject({
    values: z.array(ChangeEvent),
    nextCursor: z.string().nullable().describe("The last event's id while more events follow, else null; pass it as `after`."),
  }),
  "ChangeEventList",
  "One page of events, oldest first.",
);

// Request bodies. GraphQL's variable coercion and the domain check them at run time; these describe them.

/** Whitespace as String.prototype.trim removes it, which the domain's "must not be empty" checks use. */
const WHITESPACE = "\\t\\n\\v\\f\\r \\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff";
/** Text with something besides whitespace. */
const nonBlank = () => z.string().regex(new RegExp(`[^${WHITESPACE}]`));
/** Text with something besides whitespace and no U+0000, which a PostgreSQL text column cannot hold. */
const storableNonBlank = () => z.string().regex(new RegExp(`^[^\\u0000]*[^\\u0000${WHITESPACE}][^\\u0000]*$`));
/** GraphQL's Int: 32 bits. */
const GRAPHQL_INT_MAX = 2 ** 31 - 1;

const ReleaseSelector = named(
  z.discriminatedUnion("type", [
    z.strictObject({ type: z.literal(RELEASE_SELECTOR_TYPES[0]), releaseId: uuid() }).describe("A published or superseded release by its UUID."),
    z
      .strictObject({ type: z.literal(RELEASE_SELECTOR_TYPES[1]), account: nonBlank().describe("The owner's e-mail."), name: nonBlank(), version: nonBlank() })
      .describe("The current published release at the owner's coordinate; the grant follows the coordinate."),
  ]),
  "ReleaseSelector",
);

export const GrantCreation = named(
  z.strictObject({
    release: ReleaseSelector,
    automatic: z.boolean().nullable().optional().describe("true: managed by reconciliation; false (default): managed by a person."),
  }),
  "GrantCreation",
);

export const GrantDeletion = named(
  z.strictObject({ automatic: z.boolean().nullable().optional().describe("true: an automatic deletion, which leaves manual grants alone.") }),
  "GrantDeletion",
);

/** The body of validate, or of apply, which publishes only what names its source (`sourceRequired`). */
function toolMiddlewareChanges(sourceRequired: boolean) {
  const source = z
    .strictObject({
      kind: z.literal("component"),
      componentId: uuid(),
      componentRevision: z.int().min(0).max(GRAPHQL_INT_MAX),
      componentName: storableNonBlank(),
    })
    .describe(sourceRequired ? "Where the release comes from." : "Required by apply for publications that publish or supersede.");
  return z.strictObject({
    grantReconciliation: z
      .strictObject({
        creations: z.array(GrantCreation).optional(),
        deletions: z
          .array(uuid())
          .meta({ uniqueItems: true })
          .optional()
          .describe("UUIDs of active, automatic, unprotected grants of this environment, each once (compared without case)."),
      })
      .optional(),
    publications: z
      .array(
        z.strictObject({
          name: z.string().regex(KEBAB).describe("Must equal definition.name."),
          definition: MiddlewareDefinition,
          source: sourceRequired ? source : source.optional(),
        }),
      )
      .optional()
      .describe("Names unique in the body."),
  });
}

export const ToolMiddlewareChanges = named(toolMiddlewareChanges(false), "ToolMiddlewareChanges", "Publications, then grant creations and deletions.");

export const ToolMiddlewareApplication = named(
  toolMiddlewareChanges(true),
  "ToolMiddlewareApplication",
  "Publications, then grant creations and deletions. Here every publication names its source: apply refuses one that publishes or supersedes without it, and which ones do depends on what is published when the request arrives.",
);

export type RestGrantView = z.infer<typeof GrantView>;
export type RestToolRelease = z.infer<typeof ToolRelease>;
export type RestChangeEvent = z.infer<typeof ChangeEvent>;

// Webhooks (docs/webhooks.md).

export const WEBHOOK_STATES = ["active", "disabled"] as const;
export const WEBHOOK_DELIVERY_STATUSES = ["pending", "delivered", "failed"] as const;
export const WEBHOOK_ATTEMPT_OUTCOMES = ["delivered", "failed"] as const;

export const Webhook = named(
  z.strictObject({
    id: uuid(),
    url: z.string(),
    eventTypes: z.array(z.enum(CHANGE_EVENT_TYPES)).nullable().describe("The event types it receives; null for every type."),
    state: z.enum(WEBHOOK_STATES),
    disabledReason: z.string().nullable().describe("Why it was disabled, while it is."),
    consecutiveFailures: z.int().min(0).describe("Failed attempts since the last delivered one."),
    nextAttemptAt: dateTime().nullable().describe("When a failed delivery is tried again; null unless it is waiting for a retry."),
    environmentId: uuid().nullable().describe("The environment whose events it receives; null for an account's webhook."),
    accountId: uuid().describe("The account whose events (or whose environment's) it receives; its plan limits webhooks."),
    createdAt: dateTime(),
    createdBy: uuid(),
  }),
  "Webhook",
  "Change events POSTed to a URL in event order, signed the Standard Webhooks way (docs/webhooks.md). Its secret is never shown again.",
);

export const WebhookWithSecret = named(
  z.strictObject({
    webhook: Webhook,
    secret: z.string().describe("The signing secret (`whsec_…`), shown this once."),
  }),
  "WebhookWithSecret",
);

export const WebhookList = named(
  z.strictObject({ values: z.array(Webhook), nextCursor: nextCursorSchema() }),
  "WebhookList",
  "A page of webhooks, oldest first.",
);

const WebhookAttempt = named(
  z.strictObject({
    attemptedAt: dateTime(),
    outcome: z.enum(WEBHOOK_ATTEMPT_OUTCOMES),
    statusCode: z.int().nullable().describe("The receiver's status; null when it did not answer."),
    latencyMs: z.int().min(0),
    error: z.string().nullable(),
    responseBody: z.string().describe("The start of the receiver's answer (at most 1,024 characters)."),
    redelivery: z.boolean().describe("Sent because someone asked for a redelivery."),
  }),
  "WebhookAttempt",
);

export const WebhookDelivery = named(
  z.strictObject({
    id: uuid().describe("The `webhook-id` of every attempt of this delivery."),
    webhookId: uuid(),
    eventId: uuid(),
    status: z.enum(WEBHOOK_DELIVERY_STATUSES),
    createdAt: dateTime(),
    redeliveryRequested: z.boolean(),
    attempts: z.array(WebhookAttempt).describe("Newest first: the last 100."),
  }),
  "WebhookDelivery",
  "One change event sent to one webhook, with its attempts.",
);

export const WebhookDeliveryList = named(
  z.strictObject({ values: z.array(WebhookDelivery), nextCursor: nextCursorSchema() }),
  "WebhookDeliveryList",
  "A page of a webhook's deliveries, newest first.",
);

export const WebhookCreation = named(
  z.strictObject({
    url: z
      .string()
      .max(2048)
      .regex(/^https:\/\/[a-z0-9-]+(\.[a-z0-9-]+)*\.[a-z][a-z0-9-]*(:[0-9]{1,4})?(\/[A-Za-z0-9._~/-]*)?$/)
      .describe(
        "An https URL of a public host: not an IP literal of a private, loopback, link-local or metadata address, nor localhost. " +
          "Hosts the operator lists in TOOLGATE_WEBHOOK_ALLOWED_HOSTS may also be http and internal (docs/webhooks.md).",
      ),
    eventTypes: z.array(z.enum(CHANGE_EVENT_TYPES)).min(1).nullable().optional().describe("Only these event types; every type when absent or null."),
  }),
  "WebhookCreation",
);

export type RestWebhook = z.infer<typeof Webhook>;
export type RestWebhookDelivery = z.infer<typeof WebhookDelivery>;
