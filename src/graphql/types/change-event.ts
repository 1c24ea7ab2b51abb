// ChangeEvent: the audit trail of state transitions, as connections on Environment and Account.
// An event's cursor is its UUID: ids are issued in commit order (src/domain/events.ts), so paging
// `after` the last event seen never skips one committed later.
import type { ChangeEvent } from "../../db/generated/sqlite/client.js";
import { invalidRequest } from "../../domain/errors.js";
import { type ChangeEventType as ChangeEventTypeWord, type EventStream } from "../../domain/events.js";
import { canSeeAccount } from "../../domain/permissions/index.js";
import type { Db } from "../../db/client.js";
import { builder } from "../builder.js";
import { enumOfSpecWords } from "../enums.js";
import { EMPTY_CONNECTION, PAGE_SIZE, type Connection, type ConnectionArguments } from "../pagination.js";

const EVENT_TYPE_DESCRIPTIONS: Record<ChangeEventTypeWord, string> = {
  "release-published": "A release was published by apply (environmentId: the applying environment).",
  "release-superseded": "A release gave its coordinate to a re-publication by apply.",
  "release-de-published": "A release was de-published by its owner.",
  "release-restored": "A de-published release was published again.",
  "grant-created": "A grant was created (or a deleted one re-created) by createGrant or apply.",
  "grant-flags-changed": "An active grant's automatic/followCoordinates flags changed.",
  "grant-deleted": "A grant was soft-deleted.",
  "grant-restored": "A deleted grant was restored.",
  "grant-moved": "A grant following coordinates moved to the release that superseded its own.",
  "grant-provisioned": "The system provisioned a protected grant.",
  "environment-created": "An environment was created.",
  "environment-share-offered": "An environment's owner offered an account a share (in that account's events only, until it accepts).",
  "environment-shared": "An account accepted a share of an environment (or an administrator shared it), or a share's role changed.",
  "account-created": "An account was created.",
  "account-promoted": "An account was made an administrator (the bootstrap administrator, at start).",
  "api-token-issued": "An API token was issued (its secret is never part of an event).",
  "api-token-revoked": "An API token was revoked.",
  "webhook-created": "A webhook was created; it is the first event the webhook itself receives.",
  "webhook-secret-rotated": "A webhook's signing secret was replaced.",
  "webhook-disabled": "A webhook was disabled after too many failed deliveries in a row.",
  "webhook-enabled": "A disabled webhook was enabled again.",
  "webhook-deleted": "A webhook was deleted.",
};

export const ChangeEventTypeEnum = enumOfSpecWords("ChangeEventType", "What a change event records.", EVENT_TYPE_DESCRIPTIONS);

/** Parsed once per row: a live event's row is shared by all of its subscribers (src/graphql/live-events/). */
const parsedStates = new WeakMap<ChangeEvent, unknown>();

function parsedState(event: ChangeEvent): unknown {
  if (!parsedStates.has(event)) parsedStates.set(event, JSON.parse(event.state));
  return parsedStates.get(event);
}

export const ChangeEventObject = builder.prismaNode("ChangeEvent", {
  description:
    "One state transition, recorded in the transaction that made it. Never changed or removed through the API. " +
    "Its `uuid` is also its cursor in every event connection.",
  id: { field: "id" },
  nullable: true,
  fields: (t) => ({
    uuid: t.expose("id", { type: "UUID", description: "The event's UUID v7; events are ordered by it, in commit order. Pass it as `after`." }),
    type: t.field({ type: ChangeEventTypeEnum, description: "What changed.", resolve: (event) => event.type as ChangeEventTypeWord }),
    occurredAt: t.expose("occurredAt", { type: "DateTime", description: "When the change was made." }),
    actorAccountId: t.expose("actorAccountId", {
      type: "UUID",
      nullable: true,
      description: "Who made it; null for the system (CLI, demo seed, provisioning).",
    }),
    environmentId: t.expose("environmentId", { type: "UUID", nullable: true, description: "The environment it concerns, if any." }),
    releaseId: t.expose("releaseId", { type: "UUID", nullable: true, description: "The release it concerns, if any." }),
    accountId: t.expose("accountId", { type: "UUID", description: "The account whose resource changed (release, environment or token owner)." }),
    state: t.field({
      type: "JSON",
      description:
        "The resource after the change, as its row: a grant, release (without its definition), environment, share, account or token (without its secret).",
      resolve: parsedState,
    }),
  }),
});

const ChangeEventConnection = builder.connectionObject(
  { type: ChangeEventObject, name: "ChangeEventConnection", description: "A page of change events, oldest first." },
  { name: "ChangeEventEdge", description: "A change event on a page; its cursor is the event's UUID." },
);

const EVENT_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function eventCursor(argument: string, value: string | null | undefined): string | undefined {
  if (value === null || value === undefined) return undefined;
  if (!EVENT_ID.test(value)) throw invalidRequest([`${argument}: "${value}" is not an event UUID`]);
  return value.toLowerCase();
}

function pageSize(argument: string, value: number | null | undefined): number | undefined {
  if (value === null || value === undefined) return undefined;
  if (value < 0) throw invalidRequest([`${argument} must not be negative (got ${value})`]);
  return Math.min(value, PAGE_SIZE.max);
}

/** A Relay page of a stream's events by id: `first` from `after` (50 by default), or `last` before `before`. */
async function eventConnection(db: Db, stream: EventStream, args: ConnectionArguments): Promise<Connection<ChangeEvent>> {
  const after = eventCursor("after", args.after);
  const before = eventCursor("before", args.before);
  const first = pageSize("first", args.first);
  const last = pageSize("last", args.last);
  const fromEnd = last !== undefined && first === undefined;
  const size = fromEnd ? last : (first ?? PAGE_SIZE.default);
  const rows = await db.changeEvent.findMany({
    where: { ...stream, id: { ...(after ? { gt: after } : {}), ...(before ? { lt: before } : {}) } },
    orderBy: { id: fromEnd ? "desc" : "asc" },
    take: size + 1,
  });
  const more = rows.length > size;
  const range = rows.slice(0, size);
  if (fromEnd) range.reverse();
  const page = !fromEnd && last !== undefined ? range.slice(Math.max(0, range.length - last)) : range;
  const edges = page.map((node) => ({ cursor: node.id, node }));
  return {
    edges,
    pageInfo: {
      hasNextPage: fromEnd ? before !== undefined : more,
      hasPreviousPage: fromEnd ? more : last !== undefined ? range.length > last : after !== undefined,
      startCursor: edges[0]?.cursor ?? null,
      endCursor: edges.at(-1)?.cursor ?? null,
    },
  };
}

const connectionDescription = (whose: string) =>
  `${whose}, oldest first, one page at a time; a cursor is an event's \`uuid\`, so \`after\` may be the last event you saw.`;

builder.prismaObjectField("Environment", "events", (t) =>
  t.connection(
    {
      type: ChangeEventObject,
      description: connectionDescription(
        "Change events of this environment (its grants and shares, releases published through it), visible to everyone who sees the environment",
      ),
      resolve: (environment, args, ctx) => eventConnection(ctx.db, { environmentId: environment.id }, args),
    },
    ChangeEventConnection,
  ),
);

builder.prismaObjectField("Account", "events", (t) =>
  t.connection(
    {
      type: ChangeEventObject,
      description: connectionDescription(
        "Change events of what this account owns (its releases, environments, their grants and shares, its tokens). " +
          "Only the account itself and administrators see them; for anyone else the connection is empty",
      ),
      resolve: async (account, args, ctx) =>
        canSeeAccount(ctx.actor(), account.id) ? eventConnection(ctx.db, { accountId: account.id }, args) : EMPTY_CONNECTION,
    },
    ChangeEventConnection,
  ),
);
