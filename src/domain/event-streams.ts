// Where a transaction's change events go when it is about to commit. Every event belongs to an
// account's stream (the owner of what changed) and, for environment changes, to that environment's;
// readers page each stream by id. A writer locks the heads of the streams its events touch (one row
// per stream in StreamHead) and issues ids above every head, so within a stream id order is commit
// order, without a lock that writers of unrelated accounts would share.
//
// The heads it touches are also those of every account whose view the change may alter (the
// audience): the environment's owner and the accounts it is shared with, and, for a release's own
// transitions, the owners and sharers of the environments that grant it. An account's head thus
// moves exactly when something it can read may have changed, which is what the read cache checks.
import { UUID, uuidv7obj } from "uuidv7";
import type { Db } from "../db/client.js";
import { providerOfClient } from "../db/client.js";
import { afterCommit } from "../db/after-commit.js";
import { announceInProcess, CHANGE_CHANNEL, type ChangeNotice } from "../db/change-feed.js";

/** An event as it will be stored, but for its id. */
export interface PendingEvent {
  type: string;
  occurredAt: Date;
  actorAccountId: string | null;
  environmentId: string | null;
  releaseId: string | null;
  accountId: string;
  state: string;
}

/** Moved by retention, which deletes events without recording any: every account depends on it. */
const SYSTEM_STREAM = "*";
const accountStream = (accountId: string) => `account:${accountId}`;
const environmentStream = (environmentId: string) => `environment:${environmentId}`;

const buffers = new WeakMap<object, PendingEvent[]>();

/** Starts collecting the events of a write transaction (writeTransaction calls it). */
export function openEventBuffer(tx: Db): void {
  buffers.set(tx, []);
}

export function bufferEvent(tx: Db, event: PendingEvent): void {
  const buffer = buffers.get(tx);
  if (!buffer) throw new Error(`appendEvent(${event.type}): not inside writeTransaction, where events are written before commit`);
  buffer.push(event);
}

/** Writes the transaction's events, last thing before it commits; returns how many. */
export async function flushEvents(tx: Db): Promise<number> {
  const events = buffers.get(tx) ?? [];
  buffers.delete(tx);
  if (events.length === 0) return 0;
  const sql = dialectOf(tx);
  const streams = new Set<string>();
  for (const event of events) {
    streams.add(accountStream(event.accountId));
    if (event.environmentId) streams.add(environmentStream(event.environmentId));
    if (event.actorAccountId) streams.add(accountStream(event.actorAccountId));
  }
  for (const account of await audienceOf(tx, sql, events)) streams.add(accountStream(account));
  const ids = await issueIds(tx, sql, [...streams].sort(), events.length);
  await tx.changeEvent.createMany({ data: events.map((event, index) => ({ ...event, id: ids[index]! })) });
  const notices: ChangeNotice[] = events.map((event, index) => ({ id: ids[index]!, type: event.type, environmentId: event.environmentId, accountId: event.accountId }));
  // NOTIFY is transactional: it is delivered, to every replica, only if the transaction commits.
  if (sql.postgres) await tx.$executeRawUnsafe(`SELECT pg_notify($1, "notice") FROM json_array_elements_text($2::json) AS "notice"`, CHANGE_CHANNEL, JSON.stringify(notices.map((notice) => JSON.stringify(notice))));
  else afterCommit(tx, () => notices.forEach(announceInProcess));
  return events.length;
}

/** Moves the system stream's head (retention deleted events): every kept answer is re-checked. */
export async function touchSystemStream(db: Db): Promise<void> {
  const sql = dialectOf(db);
  await db.$queryRawUnsafe(upsertHeads(sql, 1), SYSTEM_STREAM, uuidv7obj().toString());
}

interface Dialect {
  postgres: boolean;
  /** The placeholder of the parameter at `index` (from 0). */
  parameter(index: number): string;
}

function dialectOf(db: Db): Dialect {
  const postgres = providerOfClient(db) === "postgresql";
  return { postgres, parameter: postgres ? (index) => `$${index + 1}` : () => "?" };
}

function placeholders(sql: Dialect, from: number, count: number): string {
  return Array.from({ length: count }, (_, index) => sql.parameter(from + index)).join(", ");
}

/** Accounts other than the events' own whose reads may change: see the header. */
async function audienceOf(tx: Db, sql: Dialect, events: readonly PendingEvent[]): Promise<string[]> {
  const environments = [...new Set(events.flatMap((event) => (event.environmentId ? [event.environmentId] : [])))];
  const releases = [...new Set(events.flatMap((event) => (event.releaseId && event.type.startsWith("release-") ? [event.releaseId] : [])))];
  const parts: string[] = [];
  const args: string[] = [];
  const list = (values: string[]) => {
    const text = placeholders(sql, args.length, values.length);
    args.push(...values);
    return text;
  };
  if (environments.length > 0) {
    parts.push(`SELECT "ownerAccountId" AS "account" FROM "Environment" WHERE "id" IN (${list(environments)})`);
    parts.push(`SELECT "accountId" AS "account" FROM "EnvironmentShare" WHERE "environmentId" IN (${list(environments)})`);
  }
  if (releases.length > 0) {
    parts.push(`SELECT e."ownerAccountId" AS "account" FROM "Grant" g JOIN "Environment" e ON e."id" = g."environmentId" WHERE g."releaseId" IN (${list(releases)})`);
    parts.push(`SELECT s."accountId" AS "account" FROM "Grant" g JOIN "EnvironmentShare" s ON s."environmentId" = g."environmentId" WHERE g."releaseId" IN (${list(releases)})`);
  }
  if (parts.length === 0) return [];
  const rows = await tx.$queryRawUnsafe<{ account: string }[]>(parts.join(" UNION "), ...args);
  return rows.map((row) => row.account);
}

/**
 * `count` ids in order, above every head of `streams` (sorted, so that two writers lock shared heads
 * in one order), which then point at the last of them. The heads stay locked until commit.
 */
async function issueIds(tx: Db, sql: Dialect, streams: readonly string[], count: number): Promise<string[]> {
  let ids = Array.from({ length: count }, () => uuidv7obj());
  const last = () => ids[ids.length - 1]!.toString();
  const args = streams.flatMap((stream) => [stream, last()]);
  const heads = await tx.$queryRawUnsafe<{ stream: string; head: string }[]>(upsertHeads(sql, streams.length), ...args);
  const newest = heads.reduce((max, { head }) => (head > max ? head : max), last());
  if (newest === last()) return ids.map(String);
  // A head above our clock's ids (another replica's clock runs ahead): continue after it.
  ids = successorsOf(newest, count);
  await tx.$executeRawUnsafe(`UPDATE "StreamHead" SET "head" = ${sql.parameter(0)} WHERE "stream" IN (${placeholders(sql, 1, streams.length)})`, last(), ...streams);
  return ids.map(String);
}

/** Sets each (stream, head) pair's head unless it is older than the stored one; answers the heads now stored. */
function upsertHeads(sql: Dialect, pairs: number): string {
  const values = Array.from({ length: pairs }, (_, index) => `(${sql.parameter(2 * index)}, ${sql.parameter(2 * index + 1)})`).join(", ");
  return `INSERT INTO "StreamHead" ("stream", "head") VALUES ${values}
    ON CONFLICT ("stream") DO UPDATE SET "head" = CASE WHEN excluded."head" > "StreamHead"."head" THEN excluded."head" ELSE "StreamHead"."head" END
    RETURNING "stream", "head"`;
}

const IDS_PER_MILLISECOND = 4096;

/** `count` UUID v7 ids after `id`, in order: from one millisecond later, the random rest of fresh ids kept. */
function successorsOf(id: string, count: number): UUID[] {
  const after = UUID.parse(id).bytes.slice(0, 6).reduce((value, byte) => value * 256 + byte, 0) + 1;
  return Array.from({ length: count }, (_, index) => {
    const bytes = Uint8Array.from(uuidv7obj().bytes);
    const millis = after + Math.floor(index / IDS_PER_MILLISECOND);
    for (let position = 5, rest = millis; position >= 0; position -= 1, rest = Math.floor(rest / 256)) bytes[position] = rest % 256;
    // The 12 bits after the version nibble order the ids within their millisecond.
    const within = index % IDS_PER_MILLISECOND;
    bytes[6] = 0x70 | (within >> 8);
    bytes[7] = within & 0xff;
    return UUID.ofInner(bytes);
  });
}
