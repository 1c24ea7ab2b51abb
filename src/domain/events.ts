// Change events (outbox): every state transition appends one event in the transaction that makes
// the change, so an event exists exactly when its change was committed. Events are only appended
// and read; nothing in the API updates or deletes them.
//
// Ids are UUID v7 taken under one lock (PostgreSQL: an advisory lock held until commit; SQLite:
// transactions are serial already) and always greater than the last committed id, so id order is
// commit order: a reader that pages with `after` (or a live subscriber) never skips an event that
// commits late. Clock skew between replicas cannot break this: an id is never issued below the last.
import { UUID, uuidv7obj } from "uuidv7";
import type { Db } from "../db/client.js";
import { afterCommit } from "../db/after-commit.js";
import { announceInProcess, CHANGE_CHANNEL, type ChangeNotice } from "../db/change-feed.js";
import { providerOfClient } from "../db/client.js";
import type { ApiToken, ChangeEvent, EnvironmentShare, Grant, ToolRelease, Environment, Account } from "../db/generated/sqlite/client.js";
import type { Actor } from "./actor.js";
import { takeLocks } from "./write-transaction.js";
import { visibleEnvironmentsWhere } from "./permissions/index.js";

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
  "api-token-issued",
  "api-token-revoked",
] as const;
export type ChangeEventType = (typeof CHANGE_EVENT_TYPES)[number];

const EVENT_LOCK = "change-events";

/** The resource after the change, as stored in `state`. Secrets and definitions are left out. */
export type EventSubject =
  | { release: ToolRelease }
  | { grant: Grant }
  | { environment: Environment }
  | { share: EnvironmentShare; environment: Pick<Environment, "ownerAccountId"> }
  /** An offer is the offered account's business until it accepts: not in the environment's events. */
  | { offer: EnvironmentShare }
  | { account: Account }
  | { token: ApiToken };

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
export async function appendEvent(tx: Db, event: NewChangeEvent): Promise<ChangeEvent> {
  const scope = scopeOf(event);
  const postgres = providerOfClient(tx) === "postgresql";
  await takeLocks(tx, [EVENT_LOCK]);
  const id = await nextEventId(tx);
  const created = await tx.changeEvent.create({
    data: {
      id,
      type: event.type,
      occurredAt: new Date(),
      actorAccountId: event.actor === "system" ? null : event.actor.id,
      environmentId: scope.environmentId,
      releaseId: scope.releaseId,
      accountId: scope.accountId,
      state: JSON.stringify(stateOf(event.subject)),
    },
  });
  const notice: ChangeNotice = { id, type: event.type, environmentId: created.environmentId, accountId: created.accountId };
  // NOTIFY is transactional: it is delivered, to every replica, only if the transaction commits.
  if (postgres) await tx.$executeRaw`SELECT pg_notify(${CHANGE_CHANNEL}, ${JSON.stringify(notice)})`;
  else afterCommit(tx, () => announceInProcess(notice));
  return created;
}

/** `row` after appending the event it makes: `return recorded(tx, await tx.grant.update(...), (grant) => ({...}))`. */
export async function recorded<Row>(tx: Db, row: Row, event: (row: Row) => NewChangeEvent): Promise<Row> {
  await appendEvent(tx, event(row));
  return row;
}

/** A fresh UUID v7, or the next one after the newest committed id when the clock says otherwise. */
async function nextEventId(tx: Db): Promise<string> {
  const fresh = uuidv7obj();
  const newest = await tx.changeEvent.findFirst({ orderBy: { id: "desc" }, select: { id: true } });
  if (!newest || fresh.toString() > newest.id) return fresh.toString();
  // One millisecond after the newest, the rest of the fresh id kept: still a valid, and greater, UUID v7.
  const millis = UUID.parse(newest.id).bytes.slice(0, 6).reduce((value, byte) => value * 256 + byte, 0) + 1;
  const bytes = Uint8Array.from(fresh.bytes);
  for (let index = 5, rest = millis; index >= 0; index -= 1, rest = Math.floor(rest / 256)) bytes[index] = rest % 256;
  return UUID.ofInner(bytes).toString();
}

function scopeOf(event: NewChangeEvent): { environmentId: string | null; releaseId: string | null; accountId: string } {
  const subject = event.subject;
  if ("release" in subject) return { environmentId: event.environmentId ?? null, releaseId: subject.release.id, accountId: subject.release.ownerAccountId };
  if ("grant" in subject) return { environmentId: subject.grant.environmentId, releaseId: subject.grant.releaseId, accountId: requiredOwner(event) };
  if ("share" in subject) return { environmentId: subject.share.environmentId, releaseId: null, accountId: subject.environment.ownerAccountId };
  if ("offer" in subject) return { environmentId: null, releaseId: null, accountId: subject.offer.accountId };
  if ("environment" in subject) return { environmentId: subject.environment.id, releaseId: null, accountId: subject.environment.ownerAccountId };
  if ("account" in subject) return { environmentId: null, releaseId: null, accountId: subject.account.id };
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
  const { secretHash: _secretHash, ...token } = subject.token;
  return token;
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
  return count;
}

/** The newest event id of a stream, or null: where a live subscription without `after` starts. */
export async function newestEventId(db: Db, stream: EventStream): Promise<string | null> {
  const newest = await db.changeEvent.findFirst({ where: stream, orderBy: { id: "desc" }, select: { id: true } });
  return newest?.id ?? null;
}
