// Change events (outbox): every state transition appends one event in the transaction that makes
// the change, so an event exists exactly when its change was committed. Events are only appended
// and read; nothing in the API updates or deletes them. The transaction writes its events as its
// last step (event-streams.ts), under the locks of the streams they belong to: within one
// environment's or one account's events, id order is commit order, so a reader that pages with
// `after` (or a live subscriber) never skips an event that commits late.
import type { Db } from "../db/client.js";
import type { ApiToken, ChangeEvent, EnvironmentShare, Grant, ToolRelease, Environment, Account, Webhook } from "../db/generated/sqlite/client.js";
import type { Actor } from "./actor.js";
import { bufferEvent, touchSystemStream } from "./event-streams.js";

export const CHANGE_EVENT_TYPES = [
  "release-published",
  "release-superseded",
  "release-de-published",
  "release-restored",
  "grant-created",
  "grant-flags-changed",
  "grant-deleted",
  "grant-restored",
  "grant-moved",
  "grant-provisioned",
  "environment-created",
  "environment-share-offered",
  "environment-shared",
  "account-created",
  "account-promoted",
  "api-token-issued",
  "api-token-revoked",
  "webhook-created",
  "webhook-secret-rotated",
  "webhook-disabled",
  "webhook-enabled",
  "webhook-deleted",
] as const;
export type ChangeEventType = (typeof CHANGE_EVENT_TYPES)[number];

/** The resource after the change, as stored in `state`. Secrets and definitions are left out. */
type EventSubject =
  | { release: ToolRelease }
  | { grant: Grant }
  | { environment: Environment }
  | { share: EnvironmentShare; environment: Pick<Environment, "ownerAccountId"> }
  /** An offer is the offered account's business until it accepts: not in the environment's events. */
  | { offer: EnvironmentShare }
  | { account: Account }
  | { token: ApiToken }
  /** An environment's webhook is in its events; an account's in the account's. */
  | { webhook: Webhook };

export interface NewChangeEvent {
  type: ChangeEventType;
  actor: Actor | "system";
  /** Where the change happened, when it is not the subject's own environment (a release published through apply). */
  environmentId?: string;
  /** The environment's owner, for grants (whose own row does not name it). */
  accountId?: string;
  subject: EventSubject;
}

/** Appends one event; call it inside the change's write transaction, after the change. */
export function appendEvent(tx: Db, event: NewChangeEvent): void {
  const scope = scopeOf(event);
  bufferEvent(tx, {
    type: event.type,
    occurredAt: new Date(),
    actorAccountId: event.actor === "system" ? null : event.actor.id,
    ...scope,
    state: JSON.stringify(stateOf(event.subject)),
  });
}

/** `row` after appending the event it makes: `return recorded(tx, await tx.grant.update(...), (grant) => ({...}))`. */
export function recorded<Row>(tx: Db, row: Row, event: (row: Row) => NewChangeEvent): Row {
  appendEvent(tx, event(row));
  return row;
}

function scopeOf(event: NewChangeEvent): { environmentId: string | null; releaseId: string | null; accountId: string } {
  const subject = event.subject;
  if ("release" in subject) return { environmentId: event.environmentId ?? null, releaseId: subject.release.id, accountId: subject.release.ownerAccountId };
  if ("grant" in subject) return { environmentId: subject.grant.environmentId, releaseId: subject.grant.releaseId, accountId: requiredOwner(event) };
  if ("share" in subject) return { environmentId: subject.share.environmentId, releaseId: null, accountId: subject.environment.ownerAccountId };
  if ("offer" in subject) return { environmentId: null, releaseId: null, accountId: subject.offer.accountId };
  if ("environment" in subject) return { environmentId: subject.environment.id, releaseId: null, accountId: subject.environment.ownerAccountId };
  if ("account" in subject) return { environmentId: null, releaseId: null, accountId: subject.account.id };
  if ("webhook" in subject) return { environmentId: subject.webhook.environmentId, releaseId: null, accountId: subject.webhook.accountId };
  return { environmentId: null, releaseId: null, accountId: subject.token.accountId };
}

function requiredOwner(event: NewChangeEvent): string {
  if (!event.accountId) throw new Error(`appendEvent(${event.type}): a grant's event needs the environment owner's accountId`);
  return event.accountId;
}

function stateOf(subject: EventSubject): Record<string, unknown> {
  if ("release" in subject) {
    const { definition: _definition, currentCoordinate: _currentCoordinate, ...release } = subject.release;
    return release;
  }
  if ("grant" in subject) return { ...subject.grant };
  if ("share" in subject) return { ...subject.share };
  if ("offer" in subject) return { ...subject.offer };
  if ("environment" in subject) return { ...subject.environment };
  if ("account" in subject) return { ...subject.account };
  if ("webhook" in subject) {
    // Never the secret; the delivery bookkeeping is not the webhook's state. The URL's path and query
    // often carry a credential of their own (chat services' incoming-webhook URLs), and an
    // environment's events are read by its viewers too: its origin only.
    const { secret: _secret, cursor: _cursor, leaseHolder: _holder, leaseUntil: _until, nextAttemptAt: _next, url, ...webhook } = subject.webhook;
    return { ...webhook, url: urlOrigin(url) };
  }
  const { secretHash: _secretHash, ...token } = subject.token;
  return token;
}

/** `https://host:port/…`: where a URL points, without what its path and query may hold. */
export function urlOrigin(url: string): string {
  try {
    return `${new URL(url).origin}/…`;
  } catch {
    return "…";
  }
}

export interface EventPage {
  events: ChangeEvent[];
  /** Whether more events follow the page now. */
  hasMore: boolean;
}

/** Where events are read from: one environment's, or one account's. */
export type EventStream = { environmentId: string } | { accountId: string };

/** Events of `stream` after the event `after` (exclusive), oldest first, at most `limit`. */
export async function readEvents(db: Db, stream: EventStream, options: { after?: string | null | undefined; limit: number }): Promise<EventPage> {
  const rows = await db.changeEvent.findMany({
    where: { ...stream, ...(options.after ? { id: { gt: options.after.toLowerCase() } } : {}) },
    orderBy: { id: "asc" },
    take: options.limit + 1,
  });
  return { events: rows.slice(0, options.limit), hasMore: rows.length > options.limit };
}

/** Retention: deletes the events that occurred before `cutoff`; returns how many. The only deletion of events. */
export async function pruneEventsBefore(db: Db, cutoff: Date): Promise<number> {
  const { count } = await db.changeEvent.deleteMany({ where: { occurredAt: { lt: cutoff } } });
  // Pages of events kept by the read cache may have lost some.
  if (count > 0) await touchSystemStream(db);
  return count;
}

/** The newest event id of a stream, or null: where a live subscription without `after` starts. */
export async function newestEventId(db: Db, stream: EventStream): Promise<string | null> {
  const newest = await db.changeEvent.findFirst({ where: stream, orderBy: { id: "desc" }, select: { id: true } });
  return newest?.id ?? null;
}
